/*
 * The watch's observation rate (apps/api/src/modules/watch/observer.ts): N domains observed against the
 * test DNS server (apps/api/test/peers/dns-server.ts) and the HTTP/HTTPS test site
 * (apps/api/test/peers/web-server.ts), both on 127.0.0.1 in a child process (not the observer's event
 * loop). Domains: 40 % live sites (A, NS, MX; a page, half of them over HTTPS with a certificate, a
 * quarter with a login form), 30 % parked (NS only), 30 % NXDOMAIN. Rows: concurrency 8, 32, 64 with
 * no delay (the observer's own cost), and 64 with every DNS answer held 20 ms (a resolver's round
 * trip). Prints observations/s, CPU ms per observation, and how long 100 000 domains take at that
 * rate against the default 6 h interval. Asserts nothing. DOMAINS=5000 for a longer run.
 *
 *   node --import tsx bench/watch.bench.ts
 */
import { spawn } from 'node:child_process';
import { createResolver } from '../apps/api/src/modules/discovery/resolver';
import { createObserver } from '../apps/api/src/modules/watch/observer';
import { startDnsServer, type Zone } from '../apps/api/test/peers/dns-server';
import { startWebServer } from '../apps/api/test/peers/web-server';

const N = Number(process.env.DOMAINS ?? 1_000);
const names = Array.from({ length: N }, (_, i) => `bench-watch-${i}.ru`);
const kindOf = (i: number) => (i % 10 < 4 ? 'live' : i % 10 < 7 ? 'parked' : 'nx');

async function serve() {
  const zone: Zone = {};
  const web = await startWebServer();
  for (const [i, name] of names.entries()) {
    const k = kindOf(i);
    if (k === 'live') {
      zone[name] = { A: ['127.0.0.1'], NS: ['ns1.hoster.ru', 'ns2.hoster.ru'], MX: [`mx.${name}`] };
      const login = i % 4 === 0 ? '<form><input name="u"><input type="password" name="p"></form>' : '';
      web.setPage(name, {
        status: 200,
        body: `<!doctype html><html><head><title>Сайт ${i}</title></head><body><h1>Страница ${i}</h1>${'<p>Текст страницы.</p>'.repeat(50)}${login}</body></html>`,
      });
      if (i % 2 === 0) web.issueCert(name);
    } else if (k === 'parked') zone[name] = { NS: ['ns1.sedoparking.com', 'ns2.sedoparking.com'] };
  }
  const dns = await startDnsServer(zone);
  process.send?.({ dns: dns.port, web: web.port });
  process.on('message', (m: string) => {
    if (m.startsWith('delay:')) dns.setDelay(Number(m.slice(6)));
    if (m === 'stop') void Promise.all([dns.close(), web.close()]).then(() => process.exit(0));
  });
}

async function main() {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ports = await new Promise<{ dns: number; web: number }>((resolve) => child.once('message', resolve as never));
  console.log(
    `${N} доменов (40 % сайты, из них половина по HTTPS; 30 % припаркованы; 30 % NXDOMAIN), пиры на 127.0.0.1 в отдельном процессе; node ${process.version}`,
  );
  console.log(
    '| задержка DNS | параллельность | наблюдений/с | мс ЦП на наблюдение | 100 000 доменов займут | из интервала 6 ч |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const [delayMs, concurrency] of [
    [0, 8],
    [0, 32],
    [0, 64],
    [20, 64],
  ] as const) {
    child.send(`delay:${delayMs}`);
    const resolver = createResolver({
      servers: [`127.0.0.1:${ports.dns}`],
      concurrency: 50,
      timeoutMs: 2_000,
      retries: 1,
      ratePerSecond: 100_000,
      outbound: { allowPrivate: true },
    });
    const observer = createObserver({
      resolver,
      outbound: { allowPrivate: true },
      concurrency,
      http: { timeoutMs: 10_000, maxBytes: 512 * 1024, maxRedirects: 5, port: ports.web },
      // All sites share one address here: the per-destination limit is opened up to measure the observer.
      perDestination: { concurrency, ratePerSecond: 1_000_000 },
    });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let live = 0;
    let certs = 0;
    await observer.observeMany(
      names.map((domain) => ({ domain })),
      (_i, s) => {
        if (s.http_status === 200) live++;
        if (s.tls_fingerprint) certs++;
      },
    );
    const secs = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    resolver.close();
    const perSec = N / secs;
    const cpuMs = (cpu.user + cpu.system) / 1000 / N;
    const full = 100_000 / perSec;
    console.log(
      `| ${delayMs} мс | ${concurrency} | ${Math.round(perSec)} | ${cpuMs.toFixed(2)} | ${Math.round(full / 60)} мин | ${((full / 21_600) * 100).toFixed(1)} % |`,
    );
    if (live !== Math.round(N * 0.4) || certs !== Math.round(N * 0.2))
      console.log(`  (внимание: сайтов ответило ${live}, сертификатов ${certs})`);
  }
  child.send('stop');
}

if (process.argv.includes('--serve')) void serve();
else void main();
