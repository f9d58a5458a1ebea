/*
 * Discovery DNS resolution rate (apps/api/src/modules/discovery/resolver.ts): 2 000 candidate names
 * resolved against the test DNS server (apps/api/test/peers/dns-server.ts) on 127.0.0.1, which runs in
 * a child process so it does not share the resolver's event loop. Names: 10 % registered (A, AAAA,
 * MX, NS — 4 queries each), 5 % CNAME chains, 85 % NXDOMAIN (1 query), under 4 parents (the wildcard
 * probes are counted). Concurrency 1, 10, 50 without a rate limit, then 50 with 500 queries/s to show
 * the token bucket holding. Prints candidates/s and queries/s; asserts nothing.
 *
 *   node --import tsx bench/resolve.bench.ts
 */
import { spawn } from 'node:child_process';
import { createResolver } from '../apps/api/src/modules/discovery/resolver';
import { startDnsServer, type Zone } from '../apps/api/test/peers/dns-server';

const N = 2_000;
const PARENTS = ['ru', 'com', 'online', 'xn--p1ai'];

function names(): { names: string[]; zone: Zone } {
  const zone: Zone = {};
  const out: string[] = [];
  for (let i = 0; i < N; i++) {
    const name = `sberbank-${i}.${PARENTS[i % PARENTS.length]}`;
    out.push(name);
    if (i % 20 < 2)
      zone[name] = { A: [`192.0.2.${i % 250}`], AAAA: ['2001:db8::1'], MX: [`mx.${name}`], NS: ['ns1.reg.ru', 'ns2.reg.ru'] };
    else if (i % 20 === 2) zone[name] = { CNAME: `lb-${i}.hoster.net` };
  }
  for (let i = 0; i < N; i++) if (i % 20 === 2) zone[`lb-${i}.hoster.net`] = { A: ['198.51.100.7'] };
  return { names: out, zone };
}

async function serve() {
  const dns = await startDnsServer(names().zone);
  process.send?.({ port: dns.port });
  process.on('message', (m: string) => {
    if (m === 'count') process.send?.({ count: dns.count() });
    if (m === 'stop') void dns.close().then(() => process.exit(0));
  });
}

async function main() {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () => new Promise<{ port?: number; count?: number }>((resolve) => child.once('message', resolve));
  const { port } = await next();
  const count = async () => {
    const p = next();
    child.send('count');
    return (await p).count ?? 0;
  };
  const list = names().names;
  console.log(`${N} имён, сервер 127.0.0.1:${port} в отдельном процессе; node ${process.version}`);
  console.log('| параллельность | лимит, запросов/с | кандидатов/с | запросов/с | зарегистрировано | ошибок | время, с |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [concurrency, rate] of [
    [1, 1_000_000],
    [10, 1_000_000],
    [50, 1_000_000],
    [50, 500],
  ] as const) {
    const resolver = createResolver({
      servers: [`127.0.0.1:${port}`],
      concurrency,
      timeoutMs: 2_000,
      retries: 1,
      ratePerSecond: rate,
    });
    const before = await count();
    const t0 = performance.now();
    const sum = await resolver.resolveMany(list, () => {});
    const secs = (performance.now() - t0) / 1000;
    const queries = (await count()) - before;
    resolver.close();
    console.log(
      `| ${concurrency} | ${rate >= 1_000_000 ? 'без лимита' : rate} | ${Math.round(N / secs)} | ${Math.round(queries / secs)} | ${sum.registered} | ${sum.errors} | ${secs.toFixed(2)} |`,
    );
  }
  child.send('stop');
}

if (process.argv.includes('--serve')) void serve();
else
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
