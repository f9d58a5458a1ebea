/*
 * Discovery DNS resolution rate (apps/api/src/modules/discovery/resolver.ts): 2 000 candidate names
 * resolved against the test DNS server (apps/api/test/peers/dns-server.ts) on 127.0.0.1, which runs in
 * a child process so it does not share the resolver's event loop. Names: 10 % registered (A, AAAA,
 * MX, NS — 4 queries each), 5 % CNAME chains, 85 % NXDOMAIN (1 query), under 4 parents (the wildcard
 * probes are counted). Concurrency 1, 10, 50 without a rate limit (median of 3 runs), 50 with 500
 * queries/s to show the token bucket holding, and 1, 10, 50 with every answer held 20 ms (a
 * resolver's round trip) to show what concurrency buys. Prints candidates/s and queries/s; asserts
 * nothing. NAMES=20000 for a longer run.
 *
 *   node --import tsx bench/resolve.bench.ts
 */
import { spawn } from 'node:child_process';
import { createResolver } from '../apps/api/src/modules/discovery/resolver';
import { startDnsServer, type Zone } from '../apps/api/test/peers/dns-server';

const N = Number(process.env.NAMES ?? 2_000);
const REPEAT = 3;
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
    if (m.startsWith('delay:')) dns.setDelay(Number(m.slice(6)));
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
  const all = names().names;
  console.log(`${N} имён, сервер 127.0.0.1:${port} в отдельном процессе; node ${process.version}; медиана ${REPEAT} прогонов`);
  console.log(
    '| задержка ответа сервера | имён | параллельность | лимит, запросов/с | кандидатов/с | запросов/с | зарегистрировано | ошибок |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [delayMs, n, concurrency, rate] of [
    [0, N, 1, 1_000_000],
    [0, N, 10, 1_000_000],
    [0, N, 50, 1_000_000],
    [0, N, 50, 500],
    [20, 500, 1, 1_000_000],
    [20, 500, 10, 1_000_000],
    [20, N, 50, 1_000_000],
  ] as const) {
    child.send(`delay:${delayMs}`);
    const list = all.slice(0, n);
    const runs: { perSec: number; qps: number; registered: number; errors: number }[] = [];
    for (let k = 0; k < (rate < 1_000_000 || delayMs ? 1 : REPEAT); k++) {
      const resolver = createResolver({
        servers: [`127.0.0.1:${port}`],
        concurrency,
        timeoutMs: 2_000,
        retries: 1,
        ratePerSecond: rate,
        outbound: { allowPrivate: true }, // the peer is on 127.0.0.1
      });
      const before = await count();
      const t0 = performance.now();
      const sum = await resolver.resolveMany(list, () => {});
      const secs = (performance.now() - t0) / 1000;
      const queries = (await count()) - before;
      resolver.close();
      runs.push({ perSec: n / secs, qps: queries / secs, registered: sum.registered, errors: sum.errors });
    }
    runs.sort((a, b) => a.perSec - b.perSec);
    const m = runs[Math.floor(runs.length / 2)] as (typeof runs)[number];
    console.log(
      `| ${delayMs} мс | ${n} | ${concurrency} | ${rate >= 1_000_000 ? 'без лимита' : rate} | ${Math.round(m.perSec)} | ${Math.round(m.qps)} | ${m.registered} | ${m.errors} |`,
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
