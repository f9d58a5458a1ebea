/*
 * Encoding detection of an import's CSV (apps/api/src/modules/imports/sniff.ts) on Russian samples:
 * the bench generator's events as `;`-separated rows, cut to 200 B … 256 KB at 20 offsets, in UTF-8
 * (with and without BOM), UTF-16 LE/BE with BOM, Windows-1251 and KOI8-R; and a Latin-heavy set
 * (domains, repositories, endpoints, services). A detection is right when it decodes the sample to
 * the same text as the true encoding. For comparison, `chardet` and `jschardet` are measured too when
 * installed (`npm i --no-save chardet jschardet`); they are not dependencies of the project.
 *
 *   node --import tsx bench/sniff.bench.ts
 */
import iconv from 'iconv-lite';
import { detectEncoding } from '../apps/api/src/modules/imports/sniff';
import { generateEvents } from './generate';

type Detect = (b: Buffer) => string;

const alias = (e: string | null | undefined) => {
  const t = (e ?? 'none').toLowerCase().replace(/_/g, '-');
  return t === 'ascii' || t === 'utf8' || t === 'utf-8-sig' ? 'utf-8' : t;
};

async function optional(name: string, make: (m: Record<string, unknown>) => Detect): Promise<[string, Detect][]> {
  try {
    const m = (await import(name)) as Record<string, unknown>;
    return [[name, make((m.default ?? m) as Record<string, unknown>)]];
  } catch {
    console.log(`${name}: не установлен — пропущен`);
    return [];
  }
}

const lines = ['Модуль;Статус;Поля'];
for (const e of generateEvents({ seed: 3, count: 4000 }))
  lines.push([e.module, e.status, ...Object.values(e.fields).map((v) => String(v ?? '').replace(/[;\n]/g, ' '))].join(';'));
const SETS: [string, string][] = [
  ['русский CSV', lines.join('\n')],
  ['CSV почти без кириллицы', lines.filter((l) => /^(domains|repositories|endpoints|services)/.test(l)).join('\n')],
];
const ENCODINGS: [string, string, (s: string) => Buffer][] = [
  ['utf-8', 'utf-8', (s) => Buffer.from(s, 'utf8')],
  ['utf-8 с BOM', 'utf-8', (s) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(s, 'utf8')])],
  ['utf-16le с BOM', 'utf-16le', (s) => Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(s, 'utf-16le')])],
  ['utf-16be с BOM', 'utf-16be', (s) => Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(s, 'utf-16be')])],
  ['windows-1251', 'windows-1251', (s) => iconv.encode(s, 'windows-1251')],
  ['koi8-r', 'koi8-r', (s) => iconv.encode(s, 'koi8-r')],
];
const SIZES = [200, 2_000, 20_000, 256 * 1024];

async function main() {
  const detectors: [string, Detect][] = [
    [
      'sniff.ts',
      (b) => {
        try {
          return detectEncoding(b);
        } catch {
          return 'отказ';
        }
      },
    ],
    ...(await optional('chardet', (m) => (b) => alias((m.detect as (b: Buffer) => string | null)(b)))),
    ...(await optional('jschardet', (m) => (b) => alias((m.detect as (b: Buffer) => { encoding: string }).call(m, b).encoding))),
  ];
  for (const [set, text] of SETS) {
    console.log(`\n${set}: ${SIZES.length} размеров × ${ENCODINGS.length} кодировок × 20 образцов`);
    for (const [name, detect] of detectors) {
      let right = 0;
      let refused = 0;
      let all = 0;
      const wrong = new Map<string, number>();
      const ms: number[] = [];
      for (const size of SIZES)
        for (const [label, truth, encode] of ENCODINGS)
          for (let k = 0; k < 20; k++) {
            const start = Math.max(0, Math.floor((text.length - size) * (k / 20)));
            const b = encode(text.slice(start, start + size)).subarray(0, size * 2);
            const t0 = performance.now();
            const got = detect(b);
            ms.push(performance.now() - t0);
            all++;
            const expected = iconv.decode(b, truth, { stripBOM: true });
            if (iconv.encodingExists(got) && iconv.decode(b, got, { stripBOM: true }) === expected) right++;
            else if (got === 'отказ') refused++;
            else wrong.set(`${label}→${got}`, (wrong.get(`${label}→${got}`) ?? 0) + 1);
          }
      ms.sort((a, b) => a - b);
      const misses = [...wrong].map(([k, n]) => `${k} ×${n}`).join(', ');
      console.log(
        `  ${name}: верно ${right}/${all} (${((100 * right) / all).toFixed(1)} %), отказ ${refused}, неверно ${all - right - refused}` +
          `${misses ? ` [${misses}]` : ''}; медиана ${ms[ms.length >> 1]?.toFixed(3)} мс`,
      );
    }
  }
  const text = SETS[0]?.[1] ?? '';
  console.log('\nОбразец 256 КБ (столько читает загрузка), мс на образец, среднее 20 повторов:');
  for (const [name, detect] of detectors) {
    const cells = ENCODINGS.filter(([l]) => l === 'utf-8' || l === 'windows-1251').map(([label, , encode]) => {
      const b = encode(text).subarray(0, 256 * 1024);
      const t0 = performance.now();
      for (let i = 0; i < 20; i++) detect(b);
      return `${label} ${((performance.now() - t0) / 20).toFixed(1)}`;
    });
    console.log(`  ${name}: ${cells.join(', ')}`);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
