import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { loginPatternRegex } from '@forpost/contract/discovery';
import { getModule } from '@forpost/contract/modules';
import { describe, expect, it } from 'vitest';
import { type CompanyIdentities, foldLogin, type HuntMatch, HuntMatcher, MAX_LINE } from './matcher';
import { CONTEXT, patternLiteral, prefilterPatterns, SAMPLE_BYTES } from './prefilter';
import { HuntInputError, type ScanOptions, scanFile, scanRange, scanStream, splitRanges } from './reader';
import { accountFinding } from './results';
import { huntKey } from './verdict';

const KEY = huntKey('s'.repeat(40));
const dir = mkdtempSync(join(tmpdir(), 'hunt-'));
let n = 0;
/** Writes a fixture file (the tests make their own dumps) and returns its path. */
function fixture(content: string | Buffer, ext = 'txt'): string {
  const p = join(dir, `f${n++}.${ext}`);
  writeFileSync(p, content);
  return p;
}

const COMPANIES: CompanyIdentities[] = [
  { companyId: 1, domains: ['sber.ru', 'почта.рф'], logins: ['customer-777'], patterns: ['\\d{10}'] },
  {
    companyId: 2,
    domains: ['XN--E1AFMKFD.XN--P1AI', 'corp.example.com'],
    logins: ['Ivan.Petrov+x@gmail.com'],
    foldProviders: true,
  },
  { companyId: 3, domains: ['mail.sber.ru'] },
];

async function hunt(content: string | Buffer, ext = 'txt') {
  const matches: HuntMatch[] = [];
  const m = new HuntMatcher(COMPANIES, { key: KEY, onMatch: (x) => matches.push(x) });
  const stats = await scanFile(fixture(content, ext), m);
  return { matches, stats };
}
const pick = (ms: HuntMatch[]) =>
  ms.map((m) => `${m.companyId} ${m.login} ${m.format} ${m.passwordKind} ${m.via.join('+')}`).sort();

describe('formats', () => {
  it('email:password with every separator, BOM, CRLF, quoted CSV', async () => {
    const { matches, stats } = await hunt(
      '\ufeffa.user@sber.ru:Secret123!\r\n' +
        'b@SBER.RU;pw2\r\n' +
        'c@sber.ru|pw3\n' +
        'd@sber.ru\tpw4\n' +
        'e@sber.ru,pw5\n' +
        'f@sber.ru pw6\n' +
        '"g@sber.ru","pw,7"\n' +
        'h@other.ru:nomatch\n',
    );
    expect(pick(matches)).toEqual(
      ['a.user@sber.ru', 'b@SBER.RU', 'c@sber.ru', 'd@sber.ru', 'e@sber.ru', 'f@sber.ru', 'g@sber.ru']
        .map((l) => `1 ${l} email plain email`)
        .sort(),
    );
    expect(stats).toMatchObject({ lines: 8, records: 8, unrecognized: 0 });
    expect(matches[0]!.verdict).toMatchObject({ masked: 'S********!', length: 10, strength: 'medium' });
  });

  it('login:password: exact logins and login patterns', async () => {
    const { matches } = await hunt('customer-777:pass\nCUSTOMER-777;p2\n1234567890:x\n123456789:x\nsomeone:x\n');
    expect(pick(matches)).toEqual([
      '1 1234567890 login plain pattern',
      '1 CUSTOMER-777 login plain login',
      '1 customer-777 login plain login',
    ]);
  });

  it('url:login:password and url|login|password, ports, android://', async () => {
    const { matches, stats } = await hunt(
      'https://vpn.corp.example.com:8443/auth:someone@gmail.com:pw1\n' +
        'https://vpn.corp.example.com:8443:jdoe:pw2\n' +
        'https://shop.ru/login|x@sber.ru|pw3\n' +
        'http://portal.corp.example.com login4 pw4 with space\n' +
        'android://Zm9vYmFy==@com.example.corp/:user5:pw5\n' +
        'https://other.ru/:nobody:pw\n',
    );
    expect(pick(matches)).toEqual([
      '1 x@sber.ru url plain email',
      '2 jdoe url plain url',
      '2 login4 url plain url',
      '2 someone@gmail.com url plain url',
      '2 user5 url plain url',
    ]);
    const vpn = matches.find((m) => m.login === 'jdoe')!;
    expect(vpn).toMatchObject({ service: 'vpn.corp.example.com', corporateUrl: true });
    expect(matches.find((m) => m.login === 'user5')!.service).toBe('com.example.corp');
    expect(matches.find((m) => m.login === 'x@sber.ru')).toMatchObject({ service: 'shop.ru', corporateUrl: false });
    expect(stats.unrecognized).toBe(0);
  });

  it('email;hash and email:hash:salt', async () => {
    const { matches } = await hunt(
      'h1@sber.ru;5f4dcc3b5aa765d61d8327deb882cf99\n' +
        'h2@sber.ru:5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8:s4lt\n' +
        'h3@sber.ru:$2b$10$abcdefghijklmnopqrstuuabcdefghijklmnopqrstuvwxyzabcde\n',
    );
    expect(matches.map((m) => [m.login, m.passwordKind, m.hashType, m.salted, m.verdict?.strength])).toEqual([
      ['h1@sber.ru', 'hash', 'md5', false, 'unknown'],
      ['h2@sber.ru', 'hash', 'sha1', true, 'unknown'],
      ['h3@sber.ru', 'hash', 'bcrypt', false, 'unknown'],
    ]);
  });

  it('stealer-log blocks: URL/Host, Username/Login, Password, Soft and dividers', async () => {
    const { matches, stats } = await hunt(
      'Soft: Chrome\nURL: https://sso.corp.example.com/login\nUsername: personal@gmail.com\nPassword: Hunter2hunter\n' +
        '===============\n\nHost: mail.ru\nLogin: z@sber.ru\nPassword: pw\n---------------\n' +
        'URL: https://nowhere.ru\nUsername: q@nowhere.ru\nPassword: zz\n',
    );
    expect(pick(matches)).toEqual(['1 z@sber.ru block plain email', '2 personal@gmail.com block plain url']);
    expect(matches.find((m) => m.companyId === 2)).toMatchObject({ service: 'sso.corp.example.com', corporateUrl: true });
    expect(stats.unrecognized).toBe(0);
  });

  it('counts unrecognised lines and keeps their shape, not their text', async () => {
    const { stats } = await hunt('just-a-word\nSecretWord 99 with spaces: x\n@:\n');
    expect(stats.unrecognized).toBe(3);
    expect(stats.samples[0]).toBe('aaaa-a-aaaa');
    expect(stats.samples.join()).not.toContain('SecretWord');
  });

  it('non-UTF-8 bytes and a 10 MB line are counted, not fatal', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 0x61);
    const cp1251 = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]); // «Привет» in Windows-1251
    const { matches, stats } = await hunt(
      Buffer.concat([Buffer.from('a@sber.ru:'), cp1251, Buffer.from('\n'), big, Buffer.from('\nb@sber.ru:ok\n')]),
    );
    expect(matches.map((m) => m.login)).toEqual(['a@sber.ru', 'b@sber.ru']);
    expect(matches[0]!.verdict?.length).toBe(6);
    expect(stats.tooLong).toBe(1);
    expect(MAX_LINE).toBeLessThan(big.length);
  });
});

describe('domain rules', () => {
  it('subdomains match, look-alike suffixes do not; every matching company gets the line', async () => {
    const { matches } = await hunt('a@notsber.ru:x\nb@sber.ru.evil.com:x\nc@dept.sber.ru:x\nd@mail.sber.ru:x\ne@sber.ru.:x\n');
    expect(pick(matches)).toEqual([
      '1 c@dept.sber.ru email plain email',
      '1 d@mail.sber.ru email plain email',
      '3 d@mail.sber.ru email plain email',
    ]);
  });

  it('IDN: Unicode in the dump finds a punycode domain and the other way round, any case', async () => {
    const { matches } = await hunt(
      'ivan@ПОЧТА.РФ:x\nolga@xn--80a1acny.xn--p1ai:y\npetr@отдел.пример.рф:z\nanna@XN--E1AFMKFD.xn--p1ai:w\n',
    );
    expect(pick(matches)).toEqual([
      '1 ivan@ПОЧТА.РФ email plain email',
      '1 olga@xn--80a1acny.xn--p1ai email plain email',
      '2 anna@XN--E1AFMKFD.xn--p1ai email plain email',
      '2 petr@отдел.пример.рф email plain email',
    ]);
    expect(matches.find((m) => m.login.startsWith('ivan'))!.domain).toBe('xn--80a1acny.xn--p1ai');
  });

  it('an exact email with an IDN domain is found in Unicode and punycode, any case', async () => {
    const cs = [{ companyId: 5, domains: [], logins: ['ivan@почта.рф', 'Petr@XN--80A1ACNY.XN--P1AI'] }];
    const ms: HuntMatch[] = [];
    const m = new HuntMatcher(cs, { key: KEY, onMatch: (x) => ms.push(x) });
    m.feed(Buffer.from('ivan@ПОЧТА.РФ:x\nivan@xn--80a1acny.xn--p1ai:y\nIVAN@почта.рф:z\npetr@почта.рф:w\nolga@почта.рф:no\n'));
    m.end();
    expect(ms.map((x) => x.login)).toEqual(['ivan@ПОЧТА.РФ', 'ivan@xn--80a1acny.xn--p1ai', 'IVAN@почта.рф', 'petr@почта.рф']);
  });

  it('+tag and dot folding only for the companies that ask and the providers that ignore them', async () => {
    expect(foldLogin('I.Van+work@GoogleMail.com')).toBe('ivan@gmail.com');
    expect(foldLogin('i.van+work@sber.ru')).toBe('i.van+work@sber.ru');
    expect(foldLogin('a.b+c@yandex.ru')).toBe('a.b@yandex.ru');
    const { matches } = await hunt(
      'ivanpetrov@gmail.com:x\nivan.petrov+x@gmail.com:y\ni.van.petrov+zz@googlemail.com:z\nivanpetrov@mail.ru:q\n',
    );
    expect(pick(matches)).toEqual([
      '2 i.van.petrov+zz@googlemail.com email plain login',
      '2 ivan.petrov+x@gmail.com email plain login',
      '2 ivanpetrov@gmail.com email plain login',
    ]);
  });
});

describe('password verdict without the password', () => {
  it('same password → same HMAC, masked form and length, the plaintext nowhere in the results', async () => {
    const PASSWORDS = ['Kor0vaMol0ko!', 'Kor0vaMol0ko!', 'zx', 'qwerty123'];
    const { matches, stats } = await hunt(
      `a@sber.ru:${PASSWORDS[0]}\nhttps://x.ru|b@sber.ru|${PASSWORDS[1]}\nc@sber.ru:${PASSWORDS[2]}\nd@sber.ru:${PASSWORDS[3]}\n`,
    );
    expect(matches[0]!.verdict!.hmac).toBe(matches[1]!.verdict!.hmac);
    expect(matches[0]!.verdict!.hmac).not.toBe(matches[3]!.verdict!.hmac);
    expect(matches.map((m) => [m.verdict!.masked, m.verdict!.strength])).toEqual([
      ['K***********!', 'strong'],
      ['K***********!', 'strong'],
      ['**', 'weak'],
      ['q*******3', 'weak'],
    ]);
    const findings = matches.map((m) => accountFinding(m, { name: 'Тестовая утечка', leakedAt: '2026-01-01' }));
    expect(findings[1]).toMatchObject({
      companyId: 1,
      input: { login: 'b@sber.ru', email: 'b@sber.ru', password_kind: 'plain', leak_name: 'Тестовая утечка', service: 'x.ru' },
      verdict: { masked: 'K***********!', length: 13, strength: 'strong' },
    });
    const parsed = getModule('accounts').fields;
    expect(Object.keys(findings[1]!.input).every((k) => parsed.some((f) => f.key === k))).toBe(true);
    const all = JSON.stringify({ matches, findings, stats: { ...stats, perCompany: [...stats.perCompany] } });
    for (const p of PASSWORDS) expect(all).not.toContain(p);
  });
});

describe('containers and bad input', () => {
  const body = 'a@sber.ru:x\nb@other.ru:y\nc@sber.ru:z\n';
  it('gzip, zstd and zip give the same matches as the text', async () => {
    const plain = pick((await hunt(body)).matches);
    expect(pick((await hunt(gzipSync(body), 'gz')).matches)).toEqual(plain);
    // zstd frame of `body` (made with the zstd tool: `zstd -19`), kept as bytes so no zstd encoder is needed
    const zst = Buffer.from(ZSTD_BODY, 'base64');
    expect(pick((await hunt(zst, 'zst')).matches)).toEqual(plain);
    const { default: JSZip } = await import('jszip');
    const zip = await new JSZip().file('dump.txt', body).generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(pick((await hunt(zip, 'zip')).matches)).toEqual(plain);
  });

  it('truncated archives, binary, UTF-16 and an archive bomb are refused in Russian', async () => {
    const gz = gzipSync(body.repeat(1000));
    const codes: Record<string, unknown> = {};
    const tryHunt = async (name: string, b: Buffer, ext: string) => {
      try {
        await hunt(b, ext);
        codes[name] = 'ok';
      } catch (e) {
        codes[name] = e instanceof HuntInputError ? e.code : String(e);
        if (e instanceof HuntInputError) expect(e.message).toMatch(/[а-я]/);
      }
    };
    await tryHunt('gzTrunc', gz.subarray(0, gz.length - 100), 'gz');
    await tryHunt('zstTrunc', Buffer.from(ZSTD_BODY, 'base64').subarray(0, 20), 'zst');
    await tryHunt('binary', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3, 0, 0, 0]), 'bin');
    await tryHunt('utf16bom', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(body, 'utf16le')]), 'txt');
    await tryHunt('utf16', Buffer.from(body, 'utf16le'), 'txt');
    await tryHunt('bomb', gzipSync(Buffer.alloc(24 * 1024 * 1024, 0x0a)), 'gz');
    expect(codes).toEqual({
      gzTrunc: 'truncated',
      zstTrunc: 'truncated',
      binary: 'binary',
      utf16bom: 'utf16',
      utf16: 'utf16',
      bomb: 'bomb',
    });
  });

  it('a stream in chunks of any size gives the same result (lines split across chunks)', async () => {
    const text = Buffer.from(`${body}URL: https://vpn.corp.example.com\nUsername: u\nPassword: p\n`.repeat(50));
    const ref: HuntMatch[] = [];
    new HuntMatcher(COMPANIES, { key: KEY, onMatch: (x) => ref.push(x) }).feed(text);
    for (const size of [1, 7, 64]) {
      const got: HuntMatch[] = [];
      const m = new HuntMatcher(COMPANIES, { key: KEY, onMatch: (x) => got.push(x) });
      async function* chunks() {
        for (let i = 0; i < text.length; i += size) yield text.subarray(i, i + size);
      }
      await scanStream(chunks(), m);
      expect(got).toEqual(ref);
    }
  });
});

describe('byte ranges', () => {
  it('every line and every stealer-log block is read by exactly one range, at every cut point', async () => {
    const text = Buffer.from(
      'a@sber.ru:1\nURL: https://vpn.corp.example.com\nUsername: u1\nSoft: x\nPassword: p1\n\n' +
        'https://x.ru|b@sber.ru|2\nHost: mail.sber.ru\nLogin: c@gmail.com\nPassword: p2\nnoise\nd@dept.sber.ru;3\ne@sber.ru:4',
    );
    const key = (m: HuntMatch) => `${m.companyId} ${m.login}`;
    const whole: HuntMatch[] = [];
    const wm = new HuntMatcher(COMPANIES, { key: KEY, onMatch: (x) => whole.push(x) });
    wm.feed(text);
    const ws = wm.end();
    const open = async (s: number, e: number) =>
      (async function* () {
        for (let i = s; i <= e; i += 5) yield text.subarray(i, Math.min(i + 5, e + 1));
      })();
    for (let a = 1; a < text.length; a++)
      for (const b of [a + 1, a + 9, a + 23]) {
        const cuts = [0, a, Math.min(b, text.length), text.length].filter((v, i, arr) => i === 0 || v > arr[i - 1]!);
        const got: HuntMatch[] = [];
        let lines = 0;
        for (let i = 0; i + 1 < cuts.length; i++) {
          const m = new HuntMatcher(COMPANIES, { key: KEY, onMatch: (x) => got.push(x) });
          const st = await scanRange(open, { start: cuts[i]!, end: cuts[i + 1]! }, text.length, m);
          lines += st.lines;
        }
        expect({ cut: [a, b], m: got.map(key).sort(), lines }).toEqual({
          cut: [a, b],
          m: whole.map(key).sort(),
          lines: ws.lines,
        });
      }
  });

  it('splitRanges covers the file without gaps', () => {
    const r = splitRanges(10_000_000, 3);
    expect(r[0]!.start).toBe(0);
    expect(r.at(-1)!.end).toBe(10_000_000);
    for (let i = 1; i < r.length; i++) expect(r[i]!.start).toBe(r[i - 1]!.end);
  });
});

describe('never a crash', () => {
  it('random bytes and mutated lines of every format: every line counted once, no throw (bounded fuzz)', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const seeds = [
      'a@sber.ru:pw',
      'https://vpn.corp.example.com:8443/x:u:p',
      'android://h==@com.example.corp/|u|p',
      'URL: https://sso.corp.example.com',
      'Username: u@sber.ru',
      'Password: p',
      '"g@sber.ru","p"',
      'h@sber.ru:5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8:salt',
      'ivan@почта.рф;x',
      'Soft: Chrome',
      '===============',
    ].map((s) => Buffer.from(s));
    for (let round = 0; round < 300; round++) {
      const lines: Buffer[] = [];
      for (let k = 0; k < 40; k++) {
        const base = Buffer.from(seeds[Math.floor(rnd() * seeds.length)]!);
        const r = rnd();
        if (r < 0.3) for (let j = 0; j < 3; j++) base[Math.floor(rnd() * base.length)] = Math.floor(rnd() * 256);
        const line = r > 0.9 ? Buffer.from(Array.from({ length: Math.floor(rnd() * 80) }, () => Math.floor(rnd() * 256))) : base;
        lines.push(Buffer.from(line.filter((b) => b !== 10)));
      }
      const text = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
      const m = new HuntMatcher(COMPANIES, { key: KEY, onMatch: () => undefined });
      const cut = Math.floor(rnd() * text.length);
      m.feed(text.subarray(0, cut));
      m.feed(text.subarray(cut));
      const st = m.end();
      expect(st.lines).toBe(lines.length);
      expect(st.records + st.unrecognized + st.blank + st.tooLong).toBe(st.lines);
    }
  });
});

const ZSTD_BODY = 'KLUv/QRo/QAAsGFAc2Jlci5ydTp4CmJAb3RoeQpjegoCADzLCMNcAry160Q=';

describe('grep prefilter: the same matches as the full parse', () => {
  // login formats (regular expressions) have no fixed string: a hunt with one is parsed in full
  const FIXED = COMPANIES.map((c) => ({ ...c, patterns: [] }));
  const ENTRIES = [
    '\ufeffa.user@sber.ru:Secret123!\r',
    'b@SBER.RU;pw2\r',
    '"g@sber.ru","pw,7"',
    'customer-777:pass',
    'CUSTOMER-777;p2',
    'https://vpn.corp.example.com:8443/auth:someone@gmail.com:pw1',
    'https://vpn.corp.example.com:8443:jdoe:pw2',
    'https://shop.ru/login|x@sber.ru|pw3',
    'http://portal.corp.example.com login4 pw4 with space',
    'android://Zm9vYmFy==@com.example.corp/:user5:pw5',
    'h1@sber.ru;5f4dcc3b5aa765d61d8327deb882cf99',
    'h2@sber.ru:5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8:s4lt',
    'Soft: Chrome\nURL: https://sso.corp.example.com/login\nUsername: personal@gmail.com\nPassword: Hunter2hunter\n===============',
    'Host: mail.ru\nLogin: z@sber.ru\nPassword: pw\n---------------',
    // the company's name only in the Username line, the URL 5 lines up
    'URL: https://elsewhere.ru/\nSoft: Firefox\nApplication: x\nProfile: y\nUsername: w@dept.sber.ru\nPassword: pw',
    'ivan@ПОЧТА.РФ:x',
    'olga@xn--80a1acny.xn--p1ai:y',
    'petr@отдел.пример.рф:z',
    'anna@XN--E1AFMKFD.xn--p1ai:w',
    'ivan.petrov+x@gmail.com:y',
    'i.van.petrov+zz@googlemail.com:z',
    'c@dept.sber.ru:x',
    'a@notsber.ru:x',
  ];
  let seed = 7;
  const rnd = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const noise = () =>
    rnd() < 0.1
      ? `just noise ${Math.floor(rnd() * 1e6)}`
      : `u${Math.floor(rnd() * 1e6)}@provider${Math.floor(rnd() * 50)}.ru:pw${Math.floor(rnd() * 1e4)}`;
  /** Each entry between runs of non-matching lines, longer than grep's context (so its groups have gaps). */
  function corpus(): Buffer {
    const parts: string[] = [];
    for (const e of ENTRIES) {
      const n = 3 + Math.floor(rnd() * (3 * CONTEXT));
      for (let i = 0; i < n; i++) parts.push(noise());
      parts.push(e);
    }
    parts.push('x'.repeat(MAX_LINE + 10), 'y@sber.ru:after-a-long-line', 'last@sber.ru:no-newline');
    return Buffer.from(parts.join('\n'));
  }
  const full = (m: HuntMatch) => JSON.stringify(m);
  async function run(path: string, engine: ScanOptions['engine']) {
    const ms: HuntMatch[] = [];
    const m = new HuntMatcher(FIXED, { key: KEY, onMatch: (x) => ms.push(x) });
    const st = await scanFile(path, m, { engine });
    return { m: ms.map(full).sort(), lines: st.lines, matches: st.matches };
  }

  it('every format, IDN, folding, blocks, BOM, CRLF, a too-long line: identical matches and line count', async () => {
    const text = corpus();
    const path = fixture(text);
    const parse = await run(path, 'parse');
    expect(parse.m.length).toBeGreaterThan(20);
    expect(await run(path, 'grep')).toEqual(parse);
    const gz = fixture(gzipSync(text), 'gz');
    expect(await run(gz, 'grep')).toEqual(parse);
  });

  it('byte ranges through the prefilter: each line and block read once, at any cut', async () => {
    const text = corpus();
    const whole: string[] = [];
    const wm = new HuntMatcher(FIXED, { key: KEY, onMatch: (x) => whole.push(full(x)) });
    wm.feed(text);
    const ws = wm.end();
    const open = async (s: number, e: number) =>
      (async function* () {
        for (let i = s; i <= e; i += 4096) yield text.subarray(i, Math.min(i + 4096, e + 1));
      })();
    // cut points in the middle of blocks, lines and the long line (bounded: each range is a grep process)
    for (let round = 0; round < 12; round++) {
      const cuts = [0, ...Array.from({ length: 3 }, () => Math.floor(rnd() * text.length)).sort((a, b) => a - b), text.length];
      const got: string[] = [];
      let lines = 0;
      for (let i = 0; i + 1 < cuts.length; i++) {
        if (cuts[i + 1]! <= cuts[i]!) continue;
        const m = new HuntMatcher(FIXED, { key: KEY, onMatch: (x) => got.push(full(x)) });
        lines += (await scanRange(open, { start: cuts[i]!, end: cuts[i + 1]! }, text.length, m, { engine: 'grep' })).lines;
      }
      expect({ cuts, m: got.sort(), lines }).toEqual({ cuts, m: [...whole].sort(), lines: ws.lines });
    }
  });

  it('unrecognised lines are estimated from full-parse windows, and say so', async () => {
    const lines: string[] = [];
    let bytes = 0;
    const every = 8 * SAMPLE_BYTES;
    for (let i = 0; bytes < 3 * every + SAMPLE_BYTES; i++) {
      const l = i % 10 === 0 ? `nosep${i}x` : `u${i}@provider.ru:pw${i}`;
      lines.push(l);
      bytes += l.length + 1;
    }
    lines.push('hit@sber.ru:pw');
    const path = fixture(`${lines.join('\n')}\n`);
    const ms: HuntMatch[] = [];
    const m = new HuntMatcher(FIXED, { key: KEY, onMatch: (x) => ms.push(x) });
    const st = await scanFile(path, m, { engine: 'grep', sampleEvery: every });
    expect(ms.map((m) => m.login)).toEqual(['hit@sber.ru']);
    expect(st.lines).toBe(lines.length);
    expect(st.parsed).toBeGreaterThan(0);
    expect(st.parsed).toBeLessThan(st.lines / 4);
    expect(Math.abs(st.unrecognized / st.lines - 0.1)).toBeLessThan(0.01);
    expect(st.samples[0]).toMatch(/^a+9+a$/);
  });

  it('patterns: punycode, Unicode in both cases, Android order, folded providers; none with a login format', () => {
    const p = prefilterPatterns(FIXED)!;
    for (const x of ['sber', 'example', 'xn--80a1acny', 'почта', 'ПОЧТА', 'Почта', 'customer-777', 'gmail.com', 'googlemail.com'])
      expect(p).toContain(x);
    expect(prefilterPatterns(COMPANIES)).toBeNull();
    expect(prefilterPatterns([{ companyId: 5, domains: [], logins: ['ivan@почта.рф'] }])).toEqual(
      expect.arrayContaining(['ivan@почта.рф', 'ivan@xn--80a1acny.xn--p1ai', 'ПОЧТА', 'почта']),
    );
    // login formats as the company settings write them: a literal run of 3+ characters is a pattern
    expect(patternLiteral(loginPatternRegex('corp-####'))).toBe('corp-');
    expect(patternLiteral(loginPatternRegex('a.b*@сбер.рф'))).toBe('@сбер.рф');
    expect(patternLiteral(loginPatternRegex('ab#?#cd'))).toBeNull();
    expect(patternLiteral('\\d{10}')).toBeNull();
    expect(prefilterPatterns([{ companyId: 9, domains: [], patterns: [loginPatternRegex('Emp-#####')] }])).toEqual(['emp-']);
  });

  it('a login format goes through the prefilter when it has a literal run', async () => {
    const cs = [{ companyId: 9, domains: [], patterns: [loginPatternRegex('emp-#####')] }];
    const text = Buffer.from(
      `${Array.from({ length: 50 }, (_, i) => `u${i}@x.ru:p`).join('\n')}\nEMP-12345:pw\nemp-1234:short\n`,
    );
    const path = fixture(text);
    const got = async (engine: ScanOptions['engine']) => {
      const ms: HuntMatch[] = [];
      await scanFile(path, new HuntMatcher(cs, { key: KEY, onMatch: (x) => ms.push(x) }), { engine });
      return ms.map((m) => `${m.login} ${m.via.join('+')}`);
    };
    expect(await got('grep')).toEqual(['EMP-12345 pattern']);
    expect(await got('parse')).toEqual(['EMP-12345 pattern']);
  });
});
