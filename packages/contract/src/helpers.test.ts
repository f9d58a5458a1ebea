import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanEmpty,
  generatePassword,
  groupCardNumber,
  hasCyrillic,
  idnAsciiForm,
  isCyrillicHost,
  isMixedScriptHost,
  latinLookalikeOf,
  maskCardNumber,
  punycodeDecode,
  punycodeEncode,
  punycodeToUnicode,
  refang,
  unicodeToPunycode,
  urlHost,
} from './helpers';
import {
  COPIED_INDICATOR_MS,
  ERROR_PAGE_STATUSES,
  ERROR_TOAST_MS,
  ERROR_TOAST_OFFSET,
  HTTP_RETRY,
  HTTP_TIMEOUT_MS,
  isErrorPageStatus,
  LOADING_INDICATOR,
  NOTIFICATION_MS,
  ONE_HOUR_MS,
  RELOAD_GUARD_MS,
  retryDelayMs,
  VERSION_POLL_MS,
} from './http-constants';
import { isDomain, isStrongPassword } from './validation';

// ---------------------------------------------------------------------------
// cleanEmpty
// ---------------------------------------------------------------------------

function isEmpty(v: unknown): boolean {
  if (v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.keys(v).length === 0;
  }
  return false;
}

/** No key at any depth (objects, and objects nested in arrays) holds an empty value. */
function hasNoEmptyKeys(v: unknown): boolean {
  if (Array.isArray(v)) return v.every(hasNoEmptyKeys);
  if (v !== null && typeof v === 'object') {
    return Object.entries(v).every(([, x]) => !isEmpty(x) && hasNoEmptyKeys(x));
  }
  return true;
}

const leaf = fc.oneof(
  fc.constant(''),
  fc.constant([]),
  fc.constant({}),
  fc.constant(null),
  fc.constant(0),
  fc.constant(false),
  fc.string({ maxLength: 3 }),
  fc.integer(),
  fc.boolean(),
);

const tree = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('node'), { maxLength: 4 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', '__proto__', 'constructor'), tie('node'), {
    maxKeys: 4,
  }),
})).object as fc.Arbitrary<Record<string, unknown>>;

describe('cleanEmpty', () => {
  it('removes empty strings, arrays and objects recursively and keeps the rest', () => {
    const input = {
      a: '',
      b: [],
      c: {},
      d: { e: '', f: {}, g: { h: [] } },
      zero: 0,
      no: false,
      nil: null,
      text: 'x',
      space: ' ',
      list: [{ a: '' }, '', 1],
      keep: { x: { y: 1, z: '' } },
    };
    expect(cleanEmpty(input)).toEqual({
      zero: 0,
      no: false,
      nil: null,
      text: 'x',
      space: ' ',
      list: [{}, '', 1],
      keep: { x: { y: 1 } },
    });
  });

  it('keeps Dates and other non-plain objects', () => {
    const date = new Date(0);
    const map = new Map();
    const out = cleanEmpty({ date, map });
    expect(out.date).toBe(date);
    expect(out.map).toBe(map);
  });

  it('accepts null-prototype objects', () => {
    const input = Object.assign(Object.create(null) as Record<string, unknown>, { a: '', b: 1 });
    expect(cleanEmpty(input)).toEqual({ b: 1 });
  });

  it('treats a "__proto__" key as data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": 1, "e": ""}, "b": ""}') as Record<string, unknown>;
    const out = cleanEmpty(input) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: 1 });
  });

  it('never leaves empty values, is idempotent and never mutates', () => {
    fc.assert(
      fc.property(tree, (obj) => {
        // JSON text as the comparison: vitest's equality treats own 'constructor' keys specially
        const before = JSON.stringify(obj);
        const once = cleanEmpty(obj);
        expect(hasNoEmptyKeys(once)).toBe(true);
        expect(JSON.stringify(cleanEmpty(once))).toBe(JSON.stringify(once));
        expect(JSON.stringify(obj)).toBe(before);
        if (Object.keys(obj).length > 0) expect(once).not.toBe(obj);
      }),
      { numRuns: 1000 },
    );
  });
});

// ---------------------------------------------------------------------------
// Cards
// ---------------------------------------------------------------------------

describe('groupCardNumber / maskCardNumber', () => {
  it('groups digits in fours', () => {
    expect(groupCardNumber('1234567890123456')).toBe('1234 5678 9012 3456');
    expect(groupCardNumber('1234-5678 9012-3456')).toBe('1234 5678 9012 3456');
    expect(groupCardNumber('1234567890123456789')).toBe('1234 5678 9012 3456 789');
    expect(groupCardNumber('4222222222222')).toBe('4222 2222 2222 2');
    expect(groupCardNumber('')).toBe('');
  });

  it('keeps the stars of a masked number, however it was spaced', () => {
    expect(groupCardNumber('4276********1234')).toBe('4276 **** **** 1234');
    expect(groupCardNumber('4276 **** **** 1234')).toBe('4276 **** **** 1234');
    expect(groupCardNumber(maskCardNumber('4276123456781234'))).toBe(maskCardNumber('4276123456781234'));
    expect(groupCardNumber('**** 1234')).toBe('**** 1234');
  });

  it('16 digits always give exactly four groups of four', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{16}$/), (digits) => {
        const grouped = groupCardNumber(digits);
        expect(grouped).toMatch(/^\d{4} \d{4} \d{4} \d{4}$/);
        expect(grouped.replaceAll(' ', '')).toBe(digits);
      }),
    );
  });

  it('masks all but the first and last four digits', () => {
    expect(maskCardNumber('4276123456781234')).toBe('4276 **** **** 1234');
    expect(maskCardNumber('4276 1234 5678 1234')).toBe('4276 **** **** 1234');
    expect(maskCardNumber('4276123456781234567')).toBe('4276 **** **** ***4 567');
    expect(maskCardNumber('1234567890')).toBe('**** **78 90'); // short: last 4 only
    expect(maskCardNumber('1234')).toBe('1234');
    expect(maskCardNumber('')).toBe('');
  });

  it('never reveals more than the first and last four digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{12,19}$/), (digits) => {
        const masked = maskCardNumber(digits).replaceAll(' ', '');
        expect(masked).toBe(digits.slice(0, 4) + '*'.repeat(digits.length - 8) + digits.slice(-4));
      }),
    );
  });
});

// ---------------------------------------------------------------------------
// Cyrillic / punycode
// ---------------------------------------------------------------------------

describe('punycode', () => {
  it('RFC 3492 sample strings', () => {
    const samples: [string, string][] = [
      ['почемужеонинеговорятпорусски', 'b1abfaaepdrnnbgefbadotcwatmq2g4l'], // (I) Russian
      ['ليهمابتكلموشعربي؟', 'egbpdaj6bu4bxfgehfvwxn'], // (A) Arabic
      ['PorquénopuedensimplementehablarenEspañol', 'PorqunopuedensimplementehablarenEspaol-fmd56a'], // (J)
      ['3年B組金八先生', '3B-ww4c5e180e575a65lsy2b'], // (L)
      ['пример', 'e1afmkfd'],
      ['рф', 'p1ai'],
    ];
    for (const [unicode, ascii] of samples) {
      expect(punycodeEncode(unicode)).toBe(ascii);
      expect(punycodeDecode(ascii)).toBe(unicode);
    }
  });

  it('converts host names both ways', () => {
    expect(unicodeToPunycode('пример.рф')).toBe('xn--e1afmkfd.xn--p1ai');
    expect(unicodeToPunycode('Пример.РФ')).toBe('xn--e1afmkfd.xn--p1ai');
    expect(unicodeToPunycode('www.пример.рф')).toBe('www.xn--e1afmkfd.xn--p1ai');
    expect(unicodeToPunycode('bücher.de')).toBe('xn--bcher-kva.de');
    expect(unicodeToPunycode('example.com')).toBe('example.com');
    expect(punycodeToUnicode('xn--e1afmkfd.xn--p1ai')).toBe('пример.рф');
    expect(punycodeToUnicode('XN--E1AFMKFD.XN--P1AI')).toBe('пример.рф');
    expect(punycodeToUnicode('www.xn--bcher-kva.de')).toBe('www.bücher.de');
    expect(punycodeToUnicode('example.com')).toBe('example.com');
    expect(punycodeToUnicode('xn--80ak6aa92e.com')).toBe('аррӏе.com'); // homograph of apple.com
  });

  it('leaves invalid punycode labels unchanged', () => {
    expect(punycodeDecode('99999999999999')).toBeNull(); // overflow
    expect(punycodeDecode('a!b')).toBeNull();
    expect(punycodeDecode('abc-9')).toBeNull(); // truncated
    expect(punycodeToUnicode('xn--a!b.com')).toBe('xn--a!b.com');
  });

  it('round-trips Cyrillic host names', () => {
    const cyr = Array.from('абвгдеёжзийклмнопрстуфхцчшщъыьэюя');
    const label = fc
      .tuple(
        fc.constantFrom(...cyr),
        fc.array(fc.constantFrom(...cyr, ...'0123456789-abc'), { maxLength: 12 }),
        fc.constantFrom(...cyr),
      )
      .map(([a, mid, b]) => a + mid.join('') + b);
    fc.assert(
      fc.property(fc.array(label, { minLength: 2, maxLength: 4 }), (labels) => {
        const host = labels.join('.');
        const ascii = unicodeToPunycode(host);
        expect(ascii).toMatch(/^[a-z0-9.-]+$/);
        expect(ascii.split('.').every((l) => l.startsWith('xn--'))).toBe(true);
        expect(punycodeToUnicode(ascii)).toBe(host);
        expect(unicodeToPunycode(host.toUpperCase())).toBe(ascii);
        expect(isCyrillicHost(ascii)).toBe(true);
        expect(isDomain(host)).toBe(true);
        expect(isDomain(ascii)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('round-trips any Unicode label', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (s) => {
        expect(punycodeDecode(punycodeEncode(s))).toBe(s);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('hasCyrillic / isCyrillicHost', () => {
  it('hasCyrillic', () => {
    expect(hasCyrillic('пример')).toBe(true);
    expect(hasCyrillic('ex\u0430mple')).toBe(true); // Cyrillic 'а'
    expect(hasCyrillic('Ёлка')).toBe(true);
    expect(hasCyrillic('example')).toBe(false);
    expect(hasCyrillic('bücher')).toBe(false);
    expect(hasCyrillic('')).toBe(false);
  });

  it('isCyrillicHost', () => {
    expect(isCyrillicHost('пример.рф')).toBe(true);
    expect(isCyrillicHost('xn--e1afmkfd.xn--p1ai')).toBe(true);
    expect(isCyrillicHost('XN--P1AI')).toBe(true);
    expect(isCyrillicHost('xn--80ak6aa92e.com')).toBe(true);
    expect(isCyrillicHost('xn--80ak6aa92e.com:8443')).toBe(true);
    expect(isCyrillicHost('example.com')).toBe(false);
    expect(isCyrillicHost('xn--bcher-kva.de')).toBe(false);
    expect(isCyrillicHost('xn--a!b.com')).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// generatePassword
// ---------------------------------------------------------------------------

describe('generatePassword', () => {
  it('defaults to 20 characters', () => {
    const p = generatePassword();
    expect(p).toHaveLength(20);
    expect(isStrongPassword(p)).toBe(true);
  });

  it('is always strong and at least 16 characters long', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10, max: 64 }), (length) => {
        const p = generatePassword(length);
        expect(p).toHaveLength(Math.max(16, length));
        expect(isStrongPassword(p)).toBe(true);
        expect(p).toMatch(/[a-z]/);
        expect(p).toMatch(/[A-Z]/);
        expect(p).toMatch(/\d/);
        expect(p).toMatch(/[^a-zA-Z0-9]/);
      }),
      { numRuns: 1000 },
    );
  });

  it('handles odd lengths', () => {
    expect(generatePassword(Number.NaN)).toHaveLength(16);
    expect(generatePassword(20.7)).toHaveLength(20);
    expect(generatePassword(10_000)).toHaveLength(1024);
  });

  it('is random and uses the whole alphabet', () => {
    const many = Array.from({ length: 200 }, () => generatePassword(32));
    expect(new Set(many).size).toBe(200);
    const seen = new Set(many.join(''));
    expect(seen.size).toBeGreaterThan(80); // 26 + 26 + 10 + 25 specials = 87
    // roughly uniform: every lowercase letter shows up
    for (const c of 'abcdefghijklmnopqrstuvwxyz') expect(seen.has(c), c).toBe(true);
  });
});

// ---------------------------------------------------------------------------
// HTTP constants
// ---------------------------------------------------------------------------

describe('http-constants', () => {
  it('match the spec', () => {
    expect(HTTP_TIMEOUT_MS).toBe(10000);
    expect(HTTP_RETRY).toEqual({
      limit: 2,
      methods: ['get', 'put', 'head', 'delete', 'options', 'trace'],
      statusCodes: [408, 413, 429, 500, 502, 503, 504],
    });
    expect([1, 2, 3].map(retryDelayMs)).toEqual([300, 600, 1200]);
    expect(ERROR_TOAST_MS).toBe(3000);
    expect(ERROR_TOAST_OFFSET).toBe(16);
    expect(NOTIFICATION_MS).toBe(4500);
    expect(ERROR_PAGE_STATUSES).toEqual([403, 404, 500, 503]);
    expect(isErrorPageStatus(404)).toBe(true);
    expect(isErrorPageStatus(401)).toBe(false);
    expect(LOADING_INDICATOR).toEqual({ duration: 2000, throttle: 200, hideDelay: 500, resetDelay: 400 });
    expect(COPIED_INDICATOR_MS).toBe(1500);
    expect(RELOAD_GUARD_MS).toBe(10000);
    expect(VERSION_POLL_MS).toBe(60000);
    expect(ONE_HOUR_MS).toBe(3600000);
  });
});

describe('isMixedScriptHost', () => {
  it('flags a label mixing Latin and Cyrillic letters, as typed or as punycode', () => {
    const mixed = 'ex\u0430mple.com'; // Cyrillic «а» among Latin letters
    expect(isMixedScriptHost(mixed)).toBe(true);
    expect(isMixedScriptHost(unicodeToPunycode(mixed))).toBe(true);
    expect(isMixedScriptHost('s\u0435rbank.ru:443')).toBe(true);
    expect(isMixedScriptHost('пaypal.рф')).toBe(true); // Latin «a» among Cyrillic letters
    expect(isMixedScriptHost('g\u03bfogle.com')).toBe(true); // Greek omicron
  });

  it('does not flag one script per label, digits, hyphens or IPs', () => {
    expect(isMixedScriptHost('пример.рф')).toBe(false);
    expect(isMixedScriptHost('xn--e1afmkfd.xn--p1ai')).toBe(false);
    expect(isMixedScriptHost('example.com')).toBe(false);
    expect(isMixedScriptHost('sber.рф')).toBe(false);
    expect(isMixedScriptHost('сбер-2024.рф')).toBe(false);
    expect(isMixedScriptHost('bücher.de')).toBe(false);
    expect(isMixedScriptHost('東京タワー.jp')).toBe(false);
    expect(isMixedScriptHost('192.0.2.1')).toBe(false);
    expect(isMixedScriptHost('2001:db8::1')).toBe(false);
    expect(isMixedScriptHost('')).toBe(false);
  });
});

describe('idnAsciiForm', () => {
  it('gives the punycode of every Unicode host, one script or mixed', () => {
    expect(idnAsciiForm('пример.рф')).toBe('xn--e1afmkfd.xn--p1ai');
    expect(idnAsciiForm('bücher.de')).toBe('xn--bcher-kva.de');
    expect(idnAsciiForm('ex\u0430mple.com')).toBe(unicodeToPunycode('ex\u0430mple.com'));
    expect(idnAsciiForm('sber.рф')).toBe('sber.xn--p1ai');
  });

  it('is null for an ASCII host, however it is spelt', () => {
    expect(idnAsciiForm('example.com')).toBeNull();
    expect(idnAsciiForm('Example.COM')).toBeNull();
    expect(idnAsciiForm('xn--e1afmkfd.xn--p1ai')).toBeNull();
    expect(idnAsciiForm('192.0.2.1')).toBeNull();
  });
});

describe('latinLookalikeOf', () => {
  it('reads a label of Cyrillic or Greek letters that pass for Latin ones, under a Latin TLD', () => {
    expect(latinLookalikeOf('xn--80ak6aa92e.com')).toBe('apple.com'); // the known «аррӏе.com»
    expect(latinLookalikeOf('\u0430\u0440\u0440\u04cf\u0435.com')).toBe('apple.com');
    expect(latinLookalikeOf('www.\u0440\u0430\u0443.ru:443')).toBe('www.pay.ru'); // «рау»
    expect(latinLookalikeOf('\u0410\u0420\u0420\u0415.COM')).toBe('appe.com'); // upper case folds
    expect(latinLookalikeOf('\u03bf\u03ba-2024.com')).toBe('ok-2024.com'); // Greek, digits and hyphens kept
  });

  it('leaves real words, own-script TLDs, mixed labels and ASCII alone', () => {
    expect(latinLookalikeOf('пример.рф')).toBeNull(); // a Russian word
    expect(latinLookalikeOf('пример.com')).toBeNull(); // «и», «м» look like no Latin letter
    expect(latinLookalikeOf('\u0430\u0441\u0435.рф')).toBeNull(); // «асе» under a Cyrillic TLD
    expect(latinLookalikeOf('ex\u0430mple.com')).toBeNull(); // mixed: isMixedScriptHost's case
    expect(latinLookalikeOf('example.com')).toBeNull();
    expect(latinLookalikeOf('123-456.com')).toBeNull();
    expect(latinLookalikeOf('')).toBeNull();
  });
});

describe('refang and urlHost', () => {
  it('reads defanged indicators as they are meant, and leaves other text alone', () => {
    expect(refang('hxxps://evil[.]com/login')).toBe('https://evil.com/login');
    expect(refang('hXXp[:]//185.1.2[.]3/x')).toBe('http://185.1.2.3/x');
    expect(refang('evil(.)com')).toBe('evil.com');
    expect(refang('sub{.}evil[dot]ru')).toBe('sub.evil.ru');
    expect(refang('https://example.com/a?q=[x]')).toBe('https://example.com/a?q=[x]');
    expect(refang('hxxpx://no')).toBe('hxxpx://no');
  });

  it('gives the host of a URL in its ASCII form', () => {
    expect(urlHost('https://Sber-Bonus.RU:8443/login')).toBe('sber-bonus.ru');
    expect(urlHost('https://пример.рф/')).toBe('xn--e1afmkfd.xn--p1ai');
    expect(urlHost('http://[2001:db8::1]/x')).toBe('2001:db8::1');
    expect(urlHost('hxxps://evil[.]com/x')).toBe('evil.com');
    expect(urlHost('not a url')).toBeNull();
    expect(urlHost('')).toBeNull();
  });
});
