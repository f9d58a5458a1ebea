/*
 * Certificate Transparency for discovery (#17): how many log entries per second the monitor's path
 * takes — RFC 6962 client (HTTP + JSON + base64) → leaf parser (@peculiar/asn1-x509) → matcher for
 * every name against every company — and the matcher alone in names per second.
 *
 *   node --import tsx bench/ct.bench.ts   (ENTRIES=20000, COMPANIES=10, PAGE=256, BATCH=1000)
 *
 * The log is the test peer (apps/api/test/peers/ct-log-server.ts) with ENTRIES real certificates, a
 * third of them precertificates, with a public web certificate's extensions (AIA, policies, SCTs …),
 * 1–4 names each, 1 % of them lookalikes of the companies' domains; it runs in a child process so the figures are the client's CPU only (as against a remote log), and it
 * answers at most PAGE entries per get-entries like real logs (256 for many of them). Prints figures;
 * asserts only that every planted lookalike was found.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createCtClient } from '../apps/api/src/modules/discovery/ct/client';
import { followLog } from '../apps/api/src/modules/discovery/ct/follow';
import { type AssetMatcher, createMatcher } from '../apps/api/src/modules/discovery/ct/match';
import { parseLeaf } from '../apps/api/src/modules/discovery/ct/parse';
import { createTestCa, issueCertificate, type TestCert } from '../apps/api/test/peers/certs';
import { ctEntryOf, startCtLog } from '../apps/api/test/peers/ct-log-server';

const ENTRIES = Number(process.env.ENTRIES ?? 20_000);
const COMPANIES = Number(process.env.COMPANIES ?? 10);
const PAGE = Number(process.env.PAGE ?? 256);
const BATCH = Number(process.env.BATCH ?? 1000);

const WORDS = ['alpha', 'cloud', 'shop', 'mail', 'api', 'cdn', 'market', 'static', 'news', 'portal', 'store', 'dev'];
const TLDS = ['com', 'ru', 'net', 'org', 'io', 'de', 'рф', 'online', 'site', 'su'];
const BRANDS = Array.from({ length: COMPANIES }, (_, i) => `brand${String.fromCharCode(97 + (i % 26))}${i}bank`);

/** Wall and CPU time of this process (the log runs in its own): the machine is shared, CPU time is the steadier figure. */
const clock = () => ({ wall: performance.now(), cpu: process.cpuUsage() });
function report(label: string, count: number, unit: string, since: ReturnType<typeof clock>) {
  const wall = (performance.now() - since.wall) / 1000;
  const used = process.cpuUsage(since.cpu);
  const cpu = (used.user + used.system) / 1e6;
  console.log(
    `${label}: ${Math.round(count / wall)} ${unit}/с (${count} за ${wall.toFixed(2)} с), ` +
      `${Math.round(count / cpu)} ${unit} на секунду процессора`,
  );
}

/** A deterministic pseudo-random sequence (the same names on every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const pick = <T>(r: () => number, a: readonly T[]) => a[Math.floor(r() * a.length)] as T;

/** Company i: its domains, a permutation-like candidate set and keywords. */
function companyAssets(i: number) {
  const b = BRANDS[i] as string;
  const permutations: string[] = [];
  for (let k = 0; k < b.length; k++) {
    permutations.push(`${b.slice(0, k)}${b.slice(k + 1)}.ru`); // omission
    permutations.push(`${b.slice(0, k)}${b[k]}${b.slice(k)}.ru`); // repetition
    for (const t of TLDS) permutations.push(`${b}.${t}`);
  }
  return {
    domains: [`${b}.ru`, `${b}-online.ru`],
    permutations: permutations.map((p) => new URL(`http://${p}`).hostname), // IDN zones as punycode
    keywords: [`${b}pay`, 'кабинет-банка'],
    threshold: 0.85,
  };
}

if (process.argv[2] === 'serve') {
  const r = rng(17);
  const ca = createTestCa();
  const certs: TestCert[] = [];
  let planted = 0;
  const t0 = performance.now();
  for (let i = 0; i < ENTRIES; i++) {
    const n = 1 + Math.floor(r() * 4);
    const base = `${pick(r, WORDS)}${Math.floor(r() * 1e6)}.${pick(r, TLDS)}`;
    const sans = [base, `www.${base}`, `*.${base}`, `${pick(r, WORDS)}.${base}`].slice(0, n);
    if (r() < 0.01) {
      const b = pick(r, BRANDS);
      sans[0] = `${b.slice(0, 3)}${b.slice(4)}.com`; // an omission in another zone: similar
      planted++;
    }
    certs.push(
      issueCertificate(ca, {
        sans: sans.map((s) => new URL(`http://${s}`).hostname),
        cn: sans[0],
        precert: i % 3 === 0,
        web: true,
      }),
    );
  }
  const genS = (performance.now() - t0) / 1000;
  const log = await startCtLog({ entries: certs, maxEntries: PAGE });
  process.send?.({ url: log.url, planted, genS });
} else {
  const child = fork(import.meta.filename, ['serve'], { execArgv: ['--import', 'tsx'], env: process.env });
  const info = await new Promise<{ url: string; planted: number; genS: number }>((resolve) =>
    child.once('message', resolve as never),
  );
  console.log(
    `журнал: ${ENTRIES} записей (треть — предсертификаты), создание сертификатов ${info.genS.toFixed(1)} с, ` +
      `до ${PAGE} записей на ответ; компаний ${COMPANIES}`,
  );

  const matchers: AssetMatcher[] = BRANDS.map((_, i) => createMatcher(companyAssets(i)));
  const client = createCtClient({ url: info.url, timeoutMs: 30_000, outbound: { allowPrivate: true } });

  // 1. The whole path: HTTP + parse + every name against every company.
  for (const run of [1, 2]) {
    let names = 0;
    let hits = 0;
    const c = clock();
    const res = await followLog({
      client,
      from: 0,
      batchSize: BATCH,
      onBatch: async (entries) => {
        for (const e of entries)
          for (const n of e.names) {
            names++;
            for (const m of matchers) if (m.match(n)) hits++;
          }
      },
    });
    report(`прогон ${run}: клиент + разбор + сопоставление`, res.processed, 'записей', c);
    console.log(`  имён ${names}, совпадений ${hits} (подставлено ${info.planted}), ошибок разбора ${res.parseErrors}`);
    if (res.processed !== ENTRIES || hits < info.planted)
      throw new Error(`совпадений ${hits}, а подставлено ${info.planted} похожих имён`);
  }

  // 2. Client + parse only (no matching), and parse alone on the same kind of leaves.
  {
    const c = clock();
    const res = await followLog({ client, from: 0, batchSize: BATCH, onBatch: async () => {} });
    report('клиент + разбор без сопоставления', res.processed, 'записей', c);
  }
  for (const web of [true, false]) {
    const r = rng(5);
    const ca = createTestCa();
    const leaves = Array.from({ length: 5000 }, (_, i) => {
      const sans = [`${pick(r, WORDS)}${i}.com`, `www.${pick(r, WORDS)}${i}.com`];
      return Buffer.from(ctEntryOf(issueCertificate(ca, { sans, precert: i % 3 === 0, web })).leaf_input, 'base64');
    });
    const bytes = leaves.reduce((n, l) => n + l.length, 0);
    const c = clock();
    for (let k = 0; k < 3; k++) for (let i = 0; i < leaves.length; i++) parseLeaf(i, leaves[i] as Buffer);
    const kind = web ? 'с расширениями веб-сертификата' : 'минимальные';
    report(`разбор записи (parseLeaf) один, ${kind}, ≈ ${Math.round(bytes / leaves.length)} Б`, 3 * leaves.length, 'записей', c);
  }

  // 3. The matcher alone: names/s through one company's matcher, then through all (as the monitor does).
  {
    const r = rng(9);
    const names = Array.from({ length: 100_000 }, (_, i) => {
      const base = `${pick(r, WORDS)}${i}.${pick(r, TLDS)}`;
      return new URL(`http://${r() < 0.3 ? `www.${base}` : base}`).hostname;
    });
    const m = matchers[0] as AssetMatcher;
    let c = clock();
    for (const n of names) m.match(n);
    report('сопоставитель, одна компания, новые имена', names.length, 'имён', c);
    const fresh = names.map((n) => `m.${n}`);
    c = clock();
    for (const n of fresh) for (const mm of matchers) mm.match(n);
    report(`сопоставитель, ${COMPANIES} компаний (имя разбирается раз)`, fresh.length, 'имён', c);
  }
  child.kill();
}
