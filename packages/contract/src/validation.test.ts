import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { groupCardNumber } from './helpers';
import { MSG } from './messages';
import {
  cardNumberSchema,
  domainSchema,
  emailSchema,
  innSchema,
  ipInCidr,
  ipOrCidrSchema,
  isCardNumber,
  isDomain,
  isEmail,
  isInn,
  isIPv4,
  isIPv6,
  isIpOrCidr,
  isOgrn,
  isStrongPassword,
  isUrl,
  luhnValid,
  ogrnSchema,
  optionalPasswordSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordSchema,
  urlSchema,
  validateAllowedIpEntry,
} from './validation';

/** Messages of a failed parse, [] on success. */
function messages(schema: z.ZodType, value: unknown): string[] {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

// ---------------------------------------------------------------------------
// Passwords
// ---------------------------------------------------------------------------

const REF_LOWER = 'abcdefghijklmnopqrstuvwxyzабвгдеёжзийклмнопрстуфхцчшщъыьэюя';
const REF_UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ';
const REF_DIGIT = '0123456789';
const REF_SPECIAL = '!@#$%^&*()_+-=[]{};:\'",.<>/?\\|`~ €№«»—';

/** Independent reference: explicit alphabets instead of Unicode classes. */
function refStrong(s: string): boolean {
  const chars = Array.from(s);
  return (
    chars.length >= 16 &&
    chars.some((c) => REF_LOWER.includes(c)) &&
    chars.some((c) => REF_UPPER.includes(c)) &&
    chars.some((c) => REF_DIGIT.includes(c)) &&
    chars.some((c) => REF_SPECIAL.includes(c))
  );
}

describe('isStrongPassword', () => {
  it('has the spec limits', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(16);
    expect(PASSWORD_MAX_LENGTH).toBe(1024);
  });

  it('accepts and rejects examples', () => {
    expect(isStrongPassword('Aa1!aaaaaaaaaaaa')).toBe(true); // exactly 16
    expect(isStrongPassword('Aa1!aaaaaaaaaaa')).toBe(false); // 15
    expect(isStrongPassword('Пароль-Надёжный-2024')).toBe(true); // Cyrillic letters count
    expect(isStrongPassword('пароль-надёжный-2024')).toBe(false); // no uppercase
    expect(isStrongPassword('ПАРОЛЬ-НАДЁЖНЫЙ-2024')).toBe(false); // no lowercase
    expect(isStrongPassword('Пароль-Надёжный-Два')).toBe(false); // no digit
    expect(isStrongPassword('ПарольНадёжный2024')).toBe(false); // no special
    expect(isStrongPassword('Correct horse 1 battery')).toBe(true); // space is special
    expect(isStrongPassword('')).toBe(false);
  });

  it('counts characters, not UTF-16 units', () => {
    // 8 emoji are 16 UTF-16 units but only 8 characters
    expect(isStrongPassword('Aa1!😀😀😀😀😀😀😀😀')).toBe(false);
    expect(isStrongPassword('Aa1!😀😀😀😀😀😀😀😀😀😀😀😀')).toBe(true);
  });

  it('agrees with a reference predicate', () => {
    const alphabet = Array.from(REF_LOWER + REF_UPPER + REF_DIGIT + REF_SPECIAL);
    const anyChars = fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }).map((a) => a.join(''));
    // Mostly-strong candidates: one of each class plus filler, so both outcomes are common.
    const nearlyStrong = fc
      .tuple(
        fc.constantFrom(...Array.from(REF_LOWER)),
        fc.constantFrom(...Array.from(REF_UPPER)),
        fc.constantFrom(...Array.from(REF_DIGIT)),
        fc.constantFrom(...Array.from(REF_SPECIAL)),
        fc.array(fc.constantFrom(...alphabet), { minLength: 8, maxLength: 16 }),
        fc.integer({ min: 0, max: 4 }),
      )
      .map(([l, u, d, s, rest, drop]) => {
        const parts = [l, u, d, s];
        parts.splice(drop, 1); // drop == 4 keeps all four classes
        return [...parts, ...rest].join('');
      });
    fc.assert(
      fc.property(fc.oneof(anyChars, nearlyStrong), (s) => {
        expect(isStrongPassword(s)).toBe(refStrong(s));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('passwordSchema', () => {
  const strong = 'Aa1!aaaaaaaaaaaa';
  it('reports one message per failure', () => {
    expect(messages(passwordSchema, undefined)).toEqual([MSG.required]);
    expect(messages(passwordSchema, '')).toEqual([MSG.required]);
    expect(messages(passwordSchema, 'short')).toEqual([MSG.weakPassword]);
    expect(messages(passwordSchema, strong + 'a'.repeat(1024 - 16 + 1))).toEqual([MSG.passwordTooLong]);
    expect(messages(passwordSchema, 'a'.repeat(2000))).toEqual([MSG.passwordTooLong]);
  });
  it('accepts strong passwords up to 1024 characters, untrimmed', () => {
    const max = strong + 'a'.repeat(1024 - 16);
    expect(max.length).toBe(1024);
    expect(passwordSchema.parse(max)).toBe(max);
    expect(passwordSchema.parse(` ${strong} `)).toBe(` ${strong} `);
  });
  it('optionalPasswordSchema allows empty and undefined only', () => {
    expect(optionalPasswordSchema.parse(undefined)).toBeUndefined();
    expect(optionalPasswordSchema.parse('')).toBe('');
    expect(optionalPasswordSchema.parse(strong)).toBe(strong);
    expect(messages(optionalPasswordSchema, 'short')).toEqual([MSG.weakPassword]);
    expect(messages(optionalPasswordSchema, strong + 'a'.repeat(1009))).toEqual([MSG.passwordTooLong]);
  });
});

// ---------------------------------------------------------------------------
// E-mail, URL, domain
// ---------------------------------------------------------------------------

describe('isEmail / emailSchema', () => {
  it.each([
    'user@example.com',
    'first.last+tag@sub.example.co.uk',
    "o'neil@example.org",
    'ivan@пример.рф',
    'a@b.co',
    'user@xn--e1afmkfd.xn--p1ai',
  ])('accepts %s', (s) => expect(isEmail(s)).toBe(true));

  it.each([
    '',
    'plainaddress',
    'user@localhost',
    '@example.com',
    'user@',
    'a@@example.com',
    'a@b@example.com',
    'a b@example.com',
    'user@exa mple.com',
    'user@example..com',
    'user@example.com.',
    '.user@example.com',
    'user.@example.com',
    'us..er@example.com',
    'user@-example.com',
    'us(er)@example.com',
    `${'a'.repeat(65)}@example.com`,
    `user@${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`,
  ])('rejects %s', (s) => expect(isEmail(s)).toBe(false));

  it('limits the total length to 254', () => {
    const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.com`; // 195
    const local = 'x'.repeat(58);
    expect(`${local}@${domain}`.length).toBe(254);
    expect(isEmail(`${local}@${domain}`)).toBe(true);
    expect(isEmail(`${local}x@${domain}`)).toBe(false);
  });

  it('schema trims and lower-cases', () => {
    expect(emailSchema.parse('  Ivan.Petrov@Example.COM ')).toBe('ivan.petrov@example.com');
    expect(emailSchema.parse('Ivan@Пример.РФ')).toBe('ivan@пример.рф');
    expect(messages(emailSchema, 'nope')).toEqual([MSG.email]);
    expect(messages(emailSchema, '   ')).toEqual([MSG.required]);
    expect(messages(emailSchema, undefined)).toEqual([MSG.required]);
  });
});

describe('isUrl / urlSchema', () => {
  it.each([
    'https://example.com',
    'http://localhost:3000/path?q=1#x',
    'https://пример.рф/',
    'HTTPS://EXAMPLE.COM',
    'http://10.0.0.1:8080',
    'http://[::1]/',
  ])('accepts %s', (s) => expect(isUrl(s)).toBe(true));

  it.each([
    '',
    'example.com',
    'ftp://example.com',
    'javascript:alert(1)',
    'http://',
    'https:///path',
    'http:/example.com',
    'http://exa mple.com',
    ' https://example.com',
    'mailto:a@b.c',
  ])('rejects %s', (s) => expect(isUrl(s)).toBe(false));

  it('schema trims and reports', () => {
    expect(urlSchema.parse(' https://example.com/a ')).toBe('https://example.com/a');
    expect(messages(urlSchema, 'example.com')).toEqual([MSG.url]);
    expect(messages(urlSchema, '')).toEqual([MSG.required]);
  });
});

describe('isDomain / domainSchema', () => {
  it.each([
    'example.com',
    'sub.example.co.uk',
    'a-b.com',
    '1.com',
    'пример.рф',
    'ПРИМЕР.РФ',
    'сайт.москва',
    'xn--e1afmkfd.xn--p1ai',
    'XN--E1AFMKFD.XN--P1AI',
    'bücher.de',
    'exa_mple.com',
    '_dmarc.example.com',
    `${'a'.repeat(63)}.com`,
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`, // 253
  ])('accepts %s', (s) => expect(isDomain(s)).toBe(true));

  it.each([
    '',
    'localhost',
    'example.com.',
    '.example.com',
    'example..com',
    '-example.com',
    'example-.com',
    'exa mple.com',
    '1.2.3.4',
    'example.123',
    'xn--.com',
    'xn--e1afmkfd-.com',
    `${'a'.repeat(64)}.com`,
    `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`, // 254
    `${'я'.repeat(63)}.рф`, // 63 Cyrillic letters are far longer than 63 in punycode
    'https://example.com',
  ])('rejects %s', (s) => expect(isDomain(s)).toBe(false));

  it('schema trims, lower-cases and reports', () => {
    expect(domainSchema.parse(' Пример.РФ ')).toBe('пример.рф');
    expect(messages(domainSchema, 'localhost')).toEqual([MSG.domain]);
    expect(messages(domainSchema, '')).toEqual([MSG.required]);
  });
});

// ---------------------------------------------------------------------------
// Cards
// ---------------------------------------------------------------------------

/** Appends the Luhn check digit to a payload of digits. */
function withLuhnDigit(payload: number[]): string {
  let sum = 0;
  // the check digit will be the rightmost one, so the payload's last digit is doubled
  payload
    .slice()
    .reverse()
    .forEach((d, i) => {
      const v = i % 2 === 0 ? d * 2 : d;
      sum += v > 9 ? v - 9 : v;
    });
  return payload.join('') + String((10 - (sum % 10)) % 10);
}

describe('Luhn and card numbers', () => {
  it('examples', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('4111 1111 1111 1111')).toBe(false); // digits only
    expect(isCardNumber('4111 1111 1111 1111')).toBe(true);
    expect(isCardNumber('4111-1111-1111-1111')).toBe(true);
    expect(isCardNumber('4111111111111112')).toBe(false);
    expect(isCardNumber('4222222222222')).toBe(true); // 13 digits
    expect(isCardNumber('400000000000000')).toBe(false); // 15 digits, bad checksum
    expect(isCardNumber('0000000000')).toBe(false); // Luhn-valid but too short
    expect(isCardNumber('00000000000000000000')).toBe(false); // 20 digits
    expect(isCardNumber('4111a11111111111')).toBe(false);
  });

  it('a generated valid number passes and any single changed digit fails', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 18 }),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (payload, at, delta) => {
          const valid = withLuhnDigit(payload);
          expect(luhnValid(valid)).toBe(true);
          expect(isCardNumber(valid)).toBe(true);
          expect(isCardNumber(groupCardNumber(valid))).toBe(true);
          const i = at % valid.length;
          const changed = (Number(valid[i]) + delta) % 10;
          const broken = valid.slice(0, i) + String(changed) + valid.slice(i + 1);
          expect(luhnValid(broken)).toBe(false);
          expect(isCardNumber(broken)).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('schema returns digits only and reports', () => {
    expect(cardNumberSchema.parse(' 4111 1111-1111 1111 ')).toBe('4111111111111111');
    expect(messages(cardNumberSchema, '4111 1111 1111 1112')).toEqual([MSG.card]);
    expect(messages(cardNumberSchema, '')).toEqual([MSG.required]);
  });
});

// ---------------------------------------------------------------------------
// IP addresses
// ---------------------------------------------------------------------------

const V4_MAX = 2 ** 32 - 1;
const V6_MAX = 2n ** 128n - 1n;

function v4ToString(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}

function v6Groups(n: bigint): number[] {
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((n >> BigInt(i * 16)) & 0xffffn));
  return groups;
}

function v6Full(n: bigint): string {
  return v6Groups(n)
    .map((g) => g.toString(16))
    .join(':');
}

/** RFC 5952-ish: longest run of zero groups (length ≥ 1 here, as RFC 4291 allows) becomes '::'. */
function v6Compressed(n: bigint): string {
  const g = v6Groups(n).map((x) => x.toString(16));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === '0') j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (bestStart < 0) return g.join(':');
  return `${g.slice(0, bestStart).join(':')}::${g.slice(bestStart + bestLen).join(':')}`;
}

describe('isIPv4', () => {
  it('examples', () => {
    for (const ok of ['0.0.0.0', '255.255.255.255', '192.168.1.1', '10.0.0.1']) expect(isIPv4(ok), ok).toBe(true);
    for (const bad of [
      '',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '01.2.3.4',
      '1.2.3.4.',
      ' 1.2.3.4',
      '1.2.3.-1',
      'a.b.c.d',
      '1..2.3',
      '0x1.2.3.4',
    ])
      expect(isIPv4(bad), bad).toBe(false);
  });

  it('accepts generated addresses and rejects mutated ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: V4_MAX }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 256, max: 999 }),
        (n, at, big) => {
          const s = v4ToString(n);
          expect(isIPv4(s)).toBe(true);
          expect(isIPv6(s)).toBe(false);
          const octets = s.split('.');
          const withBig = octets.map((o, i) => (i === at ? String(big) : o)).join('.');
          const withZero = octets.map((o, i) => (i === at ? `0${o}` : o)).join('.');
          expect(isIPv4(withBig)).toBe(false);
          expect(isIPv4(withZero)).toBe(false);
          expect(isIPv4(octets.slice(0, 3).join('.'))).toBe(false);
          expect(isIPv4(`${s}.1`)).toBe(false);
          expect(isIPv4(`${s}.`)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts fast-check ipV4()', () => {
    fc.assert(
      fc.property(fc.ipV4(), (s) => {
        expect(isIPv4(s)).toBe(true);
      }),
    );
  });
});

describe('isIPv6', () => {
  it.each([
    '::',
    '::1',
    '1::',
    '2001:db8::1',
    '2001:DB8::1',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    'fe80::1:2:3:4:5:6', // '::' for two groups
    '1:2:3:4:5:6:7::', // '::' for a single group (RFC 4291)
    '::2:3:4:5:6:7:8',
    '::ffff:1.2.3.4',
    '::1.2.3.4',
    '64:ff9b::192.0.2.33',
    '1:2:3:4:5:6:1.2.3.4',
  ])('accepts %s', (s) => expect(isIPv6(s)).toBe(true));

  it.each([
    '',
    ':',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8::',
    '::1:2:3:4:5:6:7:8',
    '12345::',
    'g::1',
    ':1::',
    '1::2:',
    'fe80::1%eth0',
    '::ffff:256.1.1.1',
    '::ffff:1.2.3',
    '1.2.3.4',
    '1:2:3:4:5:6:7:1.2.3.4',
    '::1.2.3.4:5',
    '[::1]',
    '::1/64',
  ])('rejects %s', (s) => expect(isIPv6(s)).toBe(false));

  it('accepts generated addresses in full and compressed form and rejects mutated ones', () => {
    fc.assert(
      fc.property(
        // many zero groups so that '::' actually occurs
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 0, max: 7 }),
        (groups, at) => {
          const n = groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n);
          const full = v6Full(n);
          const short = v6Compressed(n);
          expect(isIPv6(full)).toBe(true);
          expect(isIPv6(short)).toBe(true);
          expect(isIPv6(full.toUpperCase())).toBe(true);
          expect(ipInCidr(short, `${full}/128`)).toBe(true); // same address
          const parts = full.split(':');
          expect(isIPv6(`${full}:1`)).toBe(false);
          expect(isIPv6(parts.slice(0, 7).join(':'))).toBe(false);
          expect(isIPv6(parts.map((p, i) => (i === at ? `1${p.padStart(4, '0')}` : p)).join(':'))).toBe(false);
          expect(isIPv6(parts.map((p, i) => (i === at ? 'g' : p)).join(':'))).toBe(false);
          expect(isIPv6(`${parts.slice(0, 4).join(':')}::${parts.slice(4).join(':')}`)).toBe(false);
          expect(isIPv6(`${short}%eth0`)).toBe(false);
          expect(isIPv4(short)).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('accepts fast-check ipV6()', () => {
    fc.assert(
      fc.property(fc.ipV6(), (s) => {
        expect(isIPv6(s)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('isIpOrCidr', () => {
  it('examples', () => {
    for (const ok of [
      '1.2.3.4',
      '1.2.3.4/0',
      '10.0.0.0/8',
      '1.2.3.4/32',
      '::',
      '::/0',
      '2001:db8::/32',
      '::1/128',
      '::ffff:1.2.3.4/120',
    ])
      expect(isIpOrCidr(ok), ok).toBe(true);
    for (const bad of [
      '',
      '1.2.3.4/33',
      '1.2.3.4/',
      '1.2.3.4/08',
      '1.2.3.4/-1',
      '::/129',
      '::1/1/2',
      '/24',
      'abc',
      ' 1.2.3.4',
      'example.com/24',
    ])
      expect(isIpOrCidr(bad), bad).toBe(false);
  });
});

describe('validateAllowedIpEntry', () => {
  it('accepts valid and empty entries', () => {
    expect(validateAllowedIpEntry('', [])).toBeNull();
    expect(validateAllowedIpEntry('   ', ['1.2.3.4'])).toBeNull();
    expect(validateAllowedIpEntry('1.2.3.4', [])).toBeNull();
    expect(validateAllowedIpEntry(' 10.0.0.0/8 ', ['1.2.3.4'])).toBeNull();
    expect(validateAllowedIpEntry('2001:DB8::/32', [])).toBeNull();
    expect(validateAllowedIpEntry('1.2.3.4', ['1.2.3.4/32'])).toBeNull();
    expect(validateAllowedIpEntry('1.2.3.5', ['1.2.3.4', 'garbage'])).toBeNull();
  });
  it('reports malformed entries', () => {
    for (const bad of ['1.2.3', '1.2.3.4/33', '::/129', 'abc', 'fe80::1%eth0', '1.2.3.4/'])
      expect(validateAllowedIpEntry(bad, []), bad).toBe(MSG.ip);
  });
  it('reports duplicates after normalisation', () => {
    expect(validateAllowedIpEntry(' 1.2.3.4 ', ['1.2.3.4'])).toBe(MSG.ipDuplicate);
    expect(validateAllowedIpEntry('1.2.3.4', ['  1.2.3.4  '])).toBe(MSG.ipDuplicate);
    expect(validateAllowedIpEntry('2001:DB8::1', ['2001:db8::1'])).toBe(MSG.ipDuplicate);
    expect(validateAllowedIpEntry('2001:db8:0:0::1', ['2001:db8::1'])).toBe(MSG.ipDuplicate);
    expect(validateAllowedIpEntry('10.0.0.0/8', ['1.1.1.1', '10.0.0.0/8'])).toBe(MSG.ipDuplicate);
  });
});

describe('ipInCidr', () => {
  it.each([
    ['10.1.2.3', '10.0.0.0/8', true],
    ['11.0.0.0', '10.0.0.0/8', false],
    ['9.255.255.255', '10.0.0.0/8', false],
    ['10.1.2.3', '10.9.9.9/8', true], // host bits ignored
    ['1.2.3.4', '1.2.3.4', true],
    ['1.2.3.5', '1.2.3.4', false],
    ['1.2.3.4', '0.0.0.0/0', true],
    ['::ffff:10.1.2.3', '10.0.0.0/8', true],
    ['::FFFF:10.1.2.3', '10.0.0.0/8', true],
    ['::ffff:a01:203', '10.0.0.0/8', true], // same mapped address in hex
    ['::ffff:11.1.2.3', '10.0.0.0/8', false],
    ['10.1.2.3', '::ffff:10.0.0.0/104', true],
    ['::ffff:1.2.3.4', '1.2.3.4', true],
    ['2001:db8::1', '0.0.0.0/0', false],
    ['2001:db8::1', '::/0', true],
    ['2001:db8::1', '2001:db8::/32', true],
    ['2001:db9::1', '2001:db8::/32', false],
    ['2001:DB8::1', '2001:db8::1', true],
    ['::1', '::1', true],
    ['::1', '127.0.0.1', false],
    ['127.0.0.1', '::1', false],
    [' 10.1.2.3 ', ' 10.0.0.0/8 ', true],
    ['fe80::1%eth0', '::/0', false],
    ['bad', '::/0', false],
    ['1.2.3.4', 'bad', false],
    ['1.2.3.4/32', '1.2.3.4', false],
    ['', '0.0.0.0/0', false],
  ] as const)('%s in %s → %s', (ip, cidr, expected) => {
    expect(ipInCidr(ip, cidr)).toBe(expected);
  });

  it('IPv4: an address inside a prefix is in it, the first ones outside are not', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: V4_MAX }),
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 0, max: V4_MAX }),
        (base, prefix, offset) => {
          const size = 2 ** (32 - prefix);
          const network = base - (base % size);
          const cidr = `${v4ToString(base)}/${prefix}`;
          const inside = network + (offset % size);
          expect(ipInCidr(v4ToString(inside), cidr)).toBe(true);
          expect(ipInCidr(`::ffff:${v4ToString(inside)}`, cidr)).toBe(true);
          expect(ipInCidr(v4ToString(network), cidr)).toBe(true);
          expect(ipInCidr(v4ToString(network + size - 1), cidr)).toBe(true);
          if (network + size <= V4_MAX) {
            expect(ipInCidr(v4ToString(network + size), cidr)).toBe(false);
            expect(ipInCidr(`::ffff:${v4ToString(network + size)}`, cidr)).toBe(false);
          }
          if (network > 0) expect(ipInCidr(v4ToString(network - 1), cidr)).toBe(false);
          // the same range written as IPv4-mapped IPv6
          expect(ipInCidr(v4ToString(inside), `::ffff:${v4ToString(network)}/${96 + prefix}`)).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('IPv6: an address inside a prefix is in it, the first ones outside are not', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: V6_MAX }),
        fc.integer({ min: 0, max: 128 }),
        fc.bigInt({ min: 0n, max: V6_MAX }),
        (base, prefix, offset) => {
          const size = 1n << BigInt(128 - prefix);
          const network = base - (base % size);
          const cidr = `${v6Compressed(base)}/${prefix}`;
          const inside = network + (offset % size);
          expect(ipInCidr(v6Compressed(inside), cidr)).toBe(true);
          expect(ipInCidr(v6Full(inside), cidr)).toBe(true);
          expect(ipInCidr(v6Compressed(network + size - 1n), cidr)).toBe(true);
          if (network + size <= V6_MAX) expect(ipInCidr(v6Compressed(network + size), cidr)).toBe(false);
          if (network > 0n) expect(ipInCidr(v6Full(network - 1n), cidr)).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('IPv4-mapped IPv6 clients follow the IPv4 rules', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.ipV4(), fc.integer({ min: 0, max: 32 }), (ip, net, prefix) => {
        const cidr = `${net}/${prefix}`;
        expect(ipInCidr(`::ffff:${ip}`, cidr)).toBe(ipInCidr(ip, cidr));
      }),
      { numRuns: 500 },
    );
  });

  it('ipOrCidrSchema', () => {
    expect(ipOrCidrSchema.parse(' 2001:DB8::/32 ')).toBe('2001:db8::/32');
    expect(messages(ipOrCidrSchema, '1.2.3.4/40')).toEqual([MSG.ip]);
    expect(messages(ipOrCidrSchema, '')).toEqual([MSG.required]);
  });
});

// ---------------------------------------------------------------------------
// ИНН / ОГРН
// ---------------------------------------------------------------------------

function checkDigit(digits: string, weights: number[], mod: number): string {
  const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  return String((sum % mod) % 10);
}

describe('isInn', () => {
  it('examples', () => {
    expect(isInn('7707083893')).toBe(true); // ПАО Сбербанк
    expect(isInn('7736207543')).toBe(true); // ООО «Яндекс»
    expect(isInn('500100732259')).toBe(true); // individual
    expect(isInn('7707083894')).toBe(false);
    expect(isInn('500100732258')).toBe(false);
    expect(isInn('500100732269')).toBe(false); // 11th digit wrong
    expect(isInn('770708389')).toBe(false);
    expect(isInn('77070838931')).toBe(false); // 11 digits
    expect(isInn('0000000000')).toBe(false);
    expect(isInn(' 7707083893')).toBe(false);
    expect(isInn('77070838a3')).toBe(false);
  });

  it('generated INNs with correct check digits pass; a wrong check digit fails', () => {
    const w10 = [2, 4, 10, 3, 5, 9, 4, 6, 8];
    const w11 = [7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
    const w12 = [3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8];
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 99 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 8, maxLength: 8 }),
        fc.integer({ min: 1, max: 9 }),
        (region, rest, delta) => {
          const head9 = String(region).padStart(2, '0') + rest.slice(0, 7).join('');
          const inn10 = head9 + checkDigit(head9, w10, 11);
          expect(isInn(inn10)).toBe(true);
          const bad10 = head9 + String((Number(inn10[9]) + delta) % 10);
          expect(isInn(bad10)).toBe(false);

          const head10 = String(region).padStart(2, '0') + rest.join('');
          const head11 = head10 + checkDigit(head10, w11, 11);
          const inn12 = head11 + checkDigit(head11, w12, 11);
          expect(isInn(inn12)).toBe(true);
          expect(isInn(head11 + String((Number(inn12[11]) + delta) % 10))).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('schema', () => {
    expect(innSchema.parse(' 7707083893 ')).toBe('7707083893');
    expect(messages(innSchema, '1234567890')).toEqual([MSG.inn]);
    expect(messages(innSchema, '')).toEqual([MSG.required]);
  });
});

describe('isOgrn', () => {
  it('examples', () => {
    expect(isOgrn('1027700132195')).toBe(true); // ПАО Сбербанк
    expect(isOgrn('1027700229193')).toBe(true); // ООО «Яндекс»
    expect(isOgrn('304500116000157')).toBe(true); // ОГРНИП
    expect(isOgrn('1027700132196')).toBe(false);
    expect(isOgrn('304500116000158')).toBe(false);
    expect(isOgrn('2027700132195')).toBe(false); // not an OGRN prefix
    expect(isOgrn('102770013219')).toBe(false);
    expect(isOgrn('10277001321951')).toBe(false); // 14 digits
    expect(isOgrn('')).toBe(false);
  });

  it('generated numbers with correct check digits pass; a wrong one fails', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('1', '5'),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 13, maxLength: 13 }),
        fc.integer({ min: 1, max: 9 }),
        (first, rest, delta) => {
          const head12 = first + rest.slice(0, 11).join('');
          const check13 = Number(BigInt(head12) % 11n) % 10;
          expect(isOgrn(head12 + String(check13))).toBe(true);
          expect(isOgrn(head12 + String((check13 + delta) % 10))).toBe(false);

          const head14 = `3${rest.join('')}`;
          const check15 = Number(BigInt(head14) % 13n) % 10;
          expect(isOgrn(head14 + String(check15))).toBe(true);
          expect(isOgrn(head14 + String((check15 + delta) % 10))).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('schema', () => {
    expect(ogrnSchema.parse('1027700132195')).toBe('1027700132195');
    expect(messages(ogrnSchema, '1027700132196')).toEqual([MSG.ogrn]);
  });
});
