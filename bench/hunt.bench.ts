/*
 * Credential-leak hunting (#34): the matcher (apps/api/src/modules/hunts/) on a generated mixed dump against
 * `LC_ALL=C grep -F -f <domains> dump > /dev/null` on the same file in the same run.
 *
 * The dump: LINES lines (default 20 M ≈ 1 GB) in /var/tmp, mixed formats — email:password with `:`/`;`,
 * login:password, url:login:password and url|login|password (android:// too), email;md5, stealer-log blocks
 * (URL/Username/Password + divider); 0.1 % of the records carry one of the protected domains (1 000 companies
 * × 3 domains, plus 1 000 exact logins). The file is kept between runs (same name = same content).
 *
 * Cases, each in a fresh child process (its max RSS is the process's):
 *   grep        — grep -F -f over the 3 000 domains (page cache warm: the file is read once before);
 *   1 worker    — scanFile: the whole file through the reader and the matcher;
 *   2 workers   — two processes, each scanRange over half the file (as two pg-boss range jobs would);
 *   matcher     — the matching step alone: 256 MB of the dump already in memory, fed to the matcher.
 *
 *   flock .tmp/bench.lock node --import tsx bench/hunt.bench.ts            # 20 M lines
 *   LINES=100000000 node --import tsx bench/hunt.bench.ts                   # 100 M lines (≈ 4 GB)
 *   GENERATE_ONLY=1 LINES=…                                                 # only write the dump
 *   SKIP_PARSE=1                                                            # without the full-parse case
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, createReadStream, existsSync, openSync, readSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type CompanyIdentities, HuntMatcher } from '../apps/api/src/modules/hunts/matcher';
import { scanFile, scanRange } from '../apps/api/src/modules/hunts/reader';
import { huntKey } from '../apps/api/src/modules/hunts/verdict';

const LINES = Number(process.env.LINES ?? 20_000_000);
const COMPANIES = 1000;
const DIR = process.env.HUNT_DIR ?? '/var/tmp';
const DUMP = `${DIR}/hunt-dump-v2-${LINES}.txt`;
const DOMAINS = `${DIR}/hunt-domains.txt`;

let seed = 0x9e3779b9;
function rnd(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
}
const hex8 = () => ((rnd() * 4294967296) >>> 0).toString(16).padStart(8, '0');
const pick = <T>(a: T[]): T => a[Math.floor(rnd() * a.length)]!;
const SYL = ['ka', 'ro', 'mi', 'te', 'li', 'no', 'sa', 'vo', 'ra', 'de', 'zu', 'pe', 'ti', 'go', 'an', 'el'];
const word = (n: number) => {
  let s = '';
  for (let i = 0; i < n; i++) s += pick(SYL);
  return s;
};

export function companies(): CompanyIdentities[] {
  const out: CompanyIdentities[] = [];
  for (let i = 0; i < COMPANIES; i++) {
    const name = `corp${i}${String.fromCharCode(97 + (i % 26))}`;
    out.push({ companyId: i + 1, domains: [`${name}.ru`, `${name}.com`, `${name}-group.ru`], logins: [`${name}-admin`] });
  }
  return out;
}

function generate(): void {
  if (existsSync(DUMP)) return;
  const cs = companies();
  const corp = cs.flatMap((c) => c.domains);
  const providers = [
    'gmail.com',
    'mail.ru',
    'yandex.ru',
    'yahoo.com',
    'hotmail.com',
    'outlook.com',
    'rambler.ru',
    'bk.ru',
    'list.ru',
    'inbox.ru',
  ];
  const others: string[] = [];
  for (let i = 0; i < 50_000; i++) others.push(`${word(2 + (i % 3))}${i}.${pick(['com', 'ru', 'net', 'org', 'de', 'info'])}`);
  const domain = (hit: boolean) => (hit ? pick(corp) : rnd() < 0.6 ? pick(providers) : pick(others));
  const fd = openSync(DUMP, 'w');
  let buf = '';
  let n = 0;
  while (n < LINES) {
    const hit = rnd() < 0.001;
    const user = `${word(3)}.${word(3)}${Math.floor(rnd() * 100000)}`;
    const pw = `${word(3)}${Math.floor(rnd() * 100000)}${pick(['', '!', '#', '_'])}`;
    const r = rnd();
    if (r < 0.5) buf += `${user}@${domain(hit)}${rnd() < 0.7 ? ':' : ';'}${pw}\n`;
    else if (r < 0.62) buf += `${hit ? pick(cs).logins![0] : user}:${pw}\n`;
    else if (r < 0.72) buf += `https://${rnd() < 0.5 ? 'login.' : ''}${domain(hit)}/auth:${user}@${pick(providers)}:${pw}\n`;
    else if (r < 0.8) buf += `https://${domain(hit)}/|${user}|${pw}\n`;
    else if (r < 0.82) buf += `android://${word(4)}==@com.${word(2)}.app/:${user}:${pw}\n`;
    else if (r < 0.9) buf += `${user}@${domain(hit)};${hex8()}${hex8()}${hex8()}${hex8()}\n`;
    else {
      buf += `URL: https://${domain(hit)}/login\nUsername: ${user}@${pick(providers)}\nPassword: ${pw}\n===============\n`;
      n += 3;
    }
    n++;
    if (buf.length > 4 << 20) {
      writeSync(fd, buf);
      buf = '';
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  writeFileSync(DOMAINS, `${corp.join('\n')}\n`);
}

interface ChildResult {
  ms: number;
  cpuMs: number;
  bytes: number;
  lines: number;
  records: number;
  matches: number;
  unrecognized: number;
  rssMb: number;
}

async function child(mode: string, start: number, end: number, engine: 'auto' | 'parse'): Promise<void> {
  const m = new HuntMatcher(companies(), { key: huntKey('b'.repeat(40)), onMatch: () => undefined });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let bytes = 0;
  if (mode === 'noop') {
    // the start-up (tsx, imports, the matcher's tables) every case pays: subtracted from their CPU
  } else if (mode === 'file') {
    await scanFile(DUMP, m, { engine });
    bytes = statSync(DUMP).size;
  } else if (mode === 'range') {
    const size = statSync(DUMP).size;
    await scanRange(
      async (s, e) => createReadStream(DUMP, { start: s, end: e, highWaterMark: 1 << 20 }),
      { start, end },
      size,
      m,
      { engine },
    );
    bytes = end - start;
  } else {
    // matcher alone: the dump's first 256 MB in memory
    const b = Buffer.alloc(256 << 20);
    const fd = openSync(DUMP, 'r');
    const got = readSync(fd, b, 0, b.length, 0);
    closeSync(fd);
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    m.feed(b.subarray(0, got));
    m.end();
    bytes = got;
    const ms = performance.now() - t1;
    const s = m.stats;
    process.stdout.write(
      JSON.stringify({
        ms,
        cpuMs: cpuMs(c1),
        bytes,
        lines: s.lines,
        records: s.records,
        matches: s.matches,
        unrecognized: s.unrecognized,
        rssMb: process.resourceUsage().maxRSS / 1024,
      }),
    );
    return;
  }
  const s = m.stats;
  const r: ChildResult = {
    ms: performance.now() - t0,
    cpuMs: cpuMs(c0),
    bytes,
    lines: s.lines,
    records: s.records,
    matches: s.matches,
    unrecognized: s.unrecognized,
    rssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(JSON.stringify(r));
}

/** A case in a fresh process under /usr/bin/time: CPU and max RSS include its grep (the prefilter). */
function runChild(args: string[]): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      '/usr/bin/time',
      ['-f', 'T %U %S %M', process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), '--child', ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`child exit ${code}: ${err}`));
      const r = JSON.parse(out) as ChildResult;
      const t = /T ([\d.]+) ([\d.]+) (\d+)/.exec(err);
      // the memory case times the matcher alone, in-process; the others count the whole process tree
      if (t && args[0] !== 'memory') {
        r.cpuMs = (Number(t[1]) + Number(t[2])) * 1000;
        r.rssMb = Number(t[3]) / 1024;
      }
      resolve(r);
    });
  });
}

function timeGrep(cmd: string): { ms: number; cpuMs: number; rssMb: number } {
  const t0 = performance.now();
  const out = execFileSync('sh', ['-c', `LC_ALL=C /usr/bin/time -f 'T %U %S %M' sh -c '${cmd}' 2>&1; true`]).toString();
  const ms = performance.now() - t0;
  const m = /T ([\d.]+) ([\d.]+) (\d+)/.exec(out);
  return { ms, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN, rssMb: m ? Number(m[3]) / 1024 : Number.NaN };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
}
const mbs = (bytes: number, ms: number) => bytes / 1048576 / (ms / 1000);

async function main(): Promise<void> {
  const tg = performance.now();
  generate();
  const size = statSync(DUMP).size;
  if (process.env.GENERATE_ONLY) return;
  console.log(
    `дамп ${DUMP}: ${(size / 1048576).toFixed(0)} МБ, ${LINES} строк (подготовка ${((performance.now() - tg) / 1000).toFixed(0)} с)`,
  );
  execFileSync('sh', ['-c', `cat ${DUMP} > /dev/null`]);
  console.log(
    `load average до замеров: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );

  // GNU grep stops at the first match when its output is /dev/null (it acts as -q), so the command
  // `grep -F -f domains dump > /dev/null` reads only the file's head; -c into a file makes it read everything (with -c into /dev/null it stops too).
  const literal = timeGrep(`grep -F -f ${DOMAINS} ${DUMP} > /dev/null`);
  console.log(
    `grep -F -f … > /dev/null (как в задаче; останавливается на первом совпадении): ${(literal.ms / 1000).toFixed(2)} с`,
  );
  const g = timeGrep(`grep -c -F -f ${DOMAINS} ${DUMP} > ${DIR}/hunt-grep-count.txt`);
  const grepRate = mbs(size, g.ms);
  const grepCpuRate = mbs(size, g.cpuMs);
  console.log(
    `grep -c -F -f (3000 доменов, весь файл): ${(g.ms / 1000).toFixed(2)} с, ${grepRate.toFixed(0)} МБ/с; ЦП ${(g.cpuMs / 1000).toFixed(2)} с → ` +
      `${grepCpuRate.toFixed(0)} МБ/с на ядро; RSS ${g.rssMb.toFixed(0)} МБ`,
  );

  // CPU of a process that only starts (tsx compiling, imports, the index of 1 000 companies): taken off each case
  const startup = (await runChild(['noop', '0', '0', 'auto'])).cpuMs;
  console.log(`запуск процесса (tsx, импорт, индекс компаний): ЦП ${(startup / 1000).toFixed(2)} с — вычитается из ЦП случаев`);
  const report = (label: string, r0: ChildResult) => {
    const r = { ...r0, cpuMs: r0.cpuMs - startup };
    const rate = mbs(size, r.ms);
    const cpu = mbs(size, r.cpuMs);
    console.log(
      `${label}: ${(r.ms / 1000).toFixed(2)} с, ${rate.toFixed(0)} МБ/с (${(rate / grepRate).toFixed(2)}× grep); ` +
        `ЦП ${(r.cpuMs / 1000).toFixed(2)} с → ${cpu.toFixed(0)} МБ/с на ядро (${(cpu / grepCpuRate).toFixed(2)}× grep), ` +
        `${(((r.lines / r.cpuMs) * 1000) / 1e6).toFixed(2)} M строк/с на ядро; строк ${r.lines}, совпадений ${r.matches}, ` +
        `не распознано ${r.unrecognized}, RSS ${r.rssMb.toFixed(0)} МБ`,
    );
  };
  const one = await runChild(['file', '0', String(size), 'auto']);
  report('1 процесс, предфильтр grep (по умолчанию)', one);
  if (!process.env.SKIP_PARSE)
    report('1 процесс, полный разбор каждой строки', await runChild(['file', '0', String(size), 'parse']));

  // scale-out: byte ranges as the range jobs read them (streamed through Node, as from S3), one process over the
  // whole file against two over its halves, for the prefilter and for the full parse
  const half = Math.floor(size / 2);
  for (const engine of process.env.SKIP_PARSE ? ['auto'] : ['auto', 'parse']) {
    const single = await runChild(['range', '0', String(size), engine]);
    report(
      `1 процесс, один диапазон на весь файл (поток через Node), ${engine === 'auto' ? 'предфильтр' : 'полный разбор'}`,
      single,
    );
    const t2 = performance.now();
    const two = await Promise.all([
      runChild(['range', '0', String(half), engine]),
      runChild(['range', String(half), String(size), engine]),
    ]);
    const ms2 = performance.now() - t2;
    const lines2 = two[0]!.lines + two[1]!.lines;
    const matches2 = two[0]!.matches + two[1]!.matches;
    console.log(
      `2 процесса по половине (${engine === 'auto' ? 'предфильтр' : 'полный разбор'}): ${(Math.max(two[0]!.ms, two[1]!.ms) / 1000).toFixed(2)} с ` +
        `сканирования (${(ms2 / 1000).toFixed(2)} с от запуска), ускорение ${(single.ms / Math.max(two[0]!.ms, two[1]!.ms)).toFixed(2)}× ` +
        `к одному процессу; ЦП ${((two[0]!.cpuMs + two[1]!.cpuMs - 2 * startup) / 1000).toFixed(2)} с, ` +
        `строк ${lines2} (1 процесс: ${single.lines}), совпадений ${matches2} (1 процесс: ${single.matches}), ` +
        `RSS ${two.map((t) => t.rssMb.toFixed(0)).join(' / ')} МБ`,
    );
  }

  const mm = await runChild(['memory', '0', '0', 'parse']);
  console.log(
    `только сопоставление (${(mm.bytes / 1048576).toFixed(0)} МБ в памяти): ${mbs(mm.bytes, mm.ms).toFixed(0)} МБ/с, ` +
      `ЦП ${mbs(mm.bytes, mm.cpuMs).toFixed(0)} МБ/с на ядро, ${(((mm.lines / mm.cpuMs) * 1000) / 1e6).toFixed(2)} M строк/с на ядро`,
  );
  console.log(
    `load average после: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
}

if (process.argv[2] === '--child')
  await child(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]), process.argv[6] as 'auto' | 'parse');
else await main();
