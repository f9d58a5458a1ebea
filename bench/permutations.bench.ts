/*
 * The permutation engine of discovery (apps/api/src/modules/discovery/permutations.ts) against
 * dnstwist, the reference open-source engine, on well-known Russian domains (Latin and Cyrillic):
 * our candidate count, dnstwist's, coverage (the share of dnstwist's set that ours contains) and
 * candidates per CPU second of each engine (the machine is shared, so wall time is printed only as a
 * ratio), measured in the same run, domain by domain. dnstwist runs in its own Python process (the
 * Debian package: `apt-get install -y dnstwist`); its generation is timed inside that process
 * (Fuzzer.generate, the same work as ours: permute, punycode, validate, dedupe), and its whole CLI run
 * (`dnstwist --format list`, with interpreter start) once per domain for reference. Two modes:
 * dnstwist's defaults, and dnstwist given its common_tlds.dict and english.dict (our defaults hold
 * both lists). Without dnstwist only our figures are printed. Prints the figures; asserts nothing.
 *
 *   node --import tsx bench/permutations.bench.ts   (DOMAINS=a.ru,b.рф to choose the domains)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { generatePermutations } from '../apps/api/src/modules/discovery/permutations';

const DOMAINS = (process.env.DOMAINS ?? 'sberbank.ru,gosuslugi.ru,tinkoff.ru,yandex.ru,ozon.ru,сбербанк.рф,госуслуги.рф')
  .split(',')
  .filter(Boolean);
const DICTS = '/usr/share/dnstwist/dictionaries';
/** Each engine repeats a domain for at least this long. */
const MIN_SECONDS = 1;

interface Measure {
  count: number;
  /** Candidates per CPU second (the machine is shared: wall time depends on the neighbours). */
  perSecond: number;
  perWallSecond: number;
  names: string[];
}

/** CPU seconds of this process (all its threads: the garbage collector's too). */
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function ours(domain: string): Measure {
  const names = generatePermutations(domain).map((c) => c.domain);
  let runs = 0;
  const t0 = performance.now();
  const c0 = cpuSeconds();
  while (performance.now() - t0 < MIN_SECONDS * 1000 || runs < 3) {
    generatePermutations(domain);
    runs++;
  }
  const cpu = (cpuSeconds() - c0) / runs;
  const wall = (performance.now() - t0) / 1000 / runs;
  return { count: names.length, perSecond: names.length / cpu, perWallSecond: names.length / wall, names };
}

/** Times dnstwist's Fuzzer.generate() inside Python, with the CLI's reading of --tld / --dictionary files. */
const PYTHON = `
import json, re, sys, time
import dnstwist
args = json.loads(sys.argv[1])
def lines(path):
    return open(path).read().splitlines() if path else []
tlds = [x for x in set(lines(args['tld'])) if re.match(r'^[a-z0-9-]{2,63}(\\.[a-z0-9-]{2,63}){0,1}$', x)]
words = [x for x in set(lines(args['dictionary'])) if x.isalnum()]
out = []
for d in args['domains']:
    domain = dnstwist.idna.encode(d).decode()
    runs, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < args['min'] or runs < 3:
        f = dnstwist.Fuzzer(domain, dictionary=words, tld_dictionary=list(tlds))
        f.generate()
        runs += 1
    cpu = (time.process_time() - c0) / runs
    wall = (time.perf_counter() - t0) / runs
    names = sorted(p['domain'] for p in f.domains if p['fuzzer'] != '*original')
    out.append({'count': len(names), 'perSecond': len(names) / cpu, 'perWallSecond': len(names) / wall, 'names': names})
print(json.dumps(out))
`;

function dnstwist(domains: string[], withDicts: boolean): Measure[] | null {
  const args = {
    domains,
    min: MIN_SECONDS,
    tld: withDicts ? `${DICTS}/common_tlds.dict` : '',
    dictionary: withDicts ? `${DICTS}/english.dict` : '',
  };
  const r = spawnSync('/usr/bin/python3', ['-c', PYTHON, JSON.stringify(args)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) {
    console.log(`dnstwist: не запустился (${r.stderr.trim().split('\n').pop() ?? r.error?.message})`);
    return null;
  }
  return JSON.parse(r.stdout) as Measure[];
}

/** The CLI's wall time for one domain, interpreter start included. */
function cliSeconds(domain: string): number {
  const t0 = performance.now();
  spawnSync('dnstwist', ['--format', 'list', domain], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return (performance.now() - t0) / 1000;
}

const fmt = (n: number) => Math.round(n).toLocaleString('ru-RU');
const ms = (m: Measure) => ((1000 * m.count) / m.perSecond).toFixed(1).replace('.', ',');

function main() {
  const installed = existsSync('/usr/bin/dnstwist') && spawnSync('/usr/bin/python3', ['-c', 'import dnstwist']).status === 0;
  if (!installed) console.log('dnstwist не установлен (apt-get install -y dnstwist) — только наши цифры');
  const version = installed
    ? spawnSync('dpkg-query', ['-W', '-f', '$' + '{Version}', 'dnstwist'], { encoding: 'utf8' }).stdout || '?'
    : '';
  if (installed) console.log(`dnstwist ${version} (Debian)`);
  for (const withDicts of [false, true]) {
    console.log(
      withDicts
        ? '\nРежим: dnstwist с --tld common_tlds.dict --dictionary english.dict (у нас — свои списки по умолчанию)'
        : '\nРежим: dnstwist по умолчанию',
    );
    console.log(
      '| домен | наших | dnstwist | покрытие | наша генерация, мс ЦП | наших/с ЦП | dnstwist/с ЦП | отношение | то же по часам | dnstwist CLI, с |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|');
    for (const domain of DOMAINS) {
      // Each domain: dnstwist, then ours, so both see about the same load of the machine.
      const t = installed ? dnstwist([domain], withDicts)?.[0] : undefined;
      const o = ours(domain);
      if (!t) {
        console.log(`| ${domain} | ${fmt(o.count)} | — | — | ${ms(o)} | ${fmt(o.perSecond)} | — | — | — | — |`);
        continue;
      }
      const set = new Set(o.names);
      const missing = t.names.filter((n) => !set.has(n));
      const coverage = (100 * (t.count - missing.length)) / Math.max(1, t.count);
      const cli = withDicts ? '' : cliSeconds(domain).toFixed(2);
      console.log(
        `| ${domain} | ${fmt(o.count)} | ${fmt(t.count)} | ${coverage.toFixed(1)} % | ${ms(o)} | ${fmt(o.perSecond)} | ${fmt(t.perSecond)} | ` +
          `${(o.perSecond / t.perSecond).toFixed(1)}× | ${(o.perWallSecond / t.perWallSecond).toFixed(1)}× | ${cli} |`,
      );
      if (missing.length) console.log(`  нет у нас (${missing.length}): ${missing.slice(0, 10).join(' ')}`);
    }
  }
}

main();
