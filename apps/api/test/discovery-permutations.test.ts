/*
 * The permutation engine of discovery (apps/api/src/modules/discovery/permutations.ts): known members
 * of each family for Latin, Cyrillic (.рф) and IDN input, IDNA forms, dedupe, errors, validity of every
 * candidate (fast-check), and coverage of dnstwist's candidate lists (fixtures/dnstwist, see README).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { domainToASCII, domainToUnicode } from 'node:url';
import { FUZZER_LABELS, FUZZERS } from '@forpost/contract/fuzzers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Candidate,
  DiscoveryInputError,
  generatePermutations,
  PERMUTATION_MSG,
  parseTarget,
} from '../src/modules/discovery/permutations';
import { DEFAULT_TLDS } from '../src/modules/discovery/permutations/tlds';

const byUnicode = (list: Candidate[]) => new Map(list.map((c) => [c.unicode, c]));
const byAscii = (list: Candidate[]) => new Map(list.map((c) => [c.domain, c]));

/** Independent check of a candidate: DNS rules on the ASCII form, IDNA 2008 hyphen rules, both forms agree. */
function validCandidate(c: Candidate): boolean {
  const ldh = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
  const labels = c.domain.split('.');
  return (
    c.domain.length <= 253 &&
    labels.length >= 2 &&
    labels.every((l) => ldh.test(l) && (l.slice(2, 4) !== '--' || l.startsWith('xn--'))) &&
    c.unicode.split('.').every((l) => !l.startsWith('-') && !l.endsWith('-') && l.slice(2, 4) !== '--') &&
    domainToASCII(c.unicode) === c.domain &&
    domainToUnicode(c.domain) === c.unicode &&
    FUZZERS.includes(c.fuzzer)
  );
}

describe('Latin domain: sberbank.ru', () => {
  const list = generatePermutations('sberbank.ru');
  const u = byUnicode(list);
  const fuzzerOf = (name: string) => u.get(name)?.fuzzer;

  it.each([
    ['sberbank1.ru', 'addition'],
    ['sberbanka.ru', 'addition'],
    ['cberbank.ru', 'bitsquatting'],
    ['sbdrbank.ru', 'bitsquatting'],
    ['sderbank.ru', 'homoglyph'],
    ['sderdank.ru', 'homoglyph'],
    ['ѕberbank.ru', 'homoglyph'],
    ['sberbаnk.ru', 'homoglyph'],
    ['ѕbеrbank.ru', 'homoglyph'],
    ['śberbank.ru', 'homoglyph'],
    ['ѕьеrьаnк.ru', 'homoglyph'],
    ['sber-bank.ru', 'hyphenation'],
    ['sberbanjk.ru', 'insertion'],
    ['sbwerbank.ru', 'insertion'],
    ['sberbnk.ru', 'omission'],
    ['ssberbank.ru', 'repetition'],
    ['sberbanl.ru', 'replacement'],
    ['sber.bank.ru', 'subdomain'],
    ['sbrebank.ru', 'transposition'],
    ['sberbonk.ru', 'vowel-swap'],
    ['sbersbank.ru', 'plural'],
    ['sberbankru.ru', 'various'],
    ['sberbank-ru.com', 'various'],
    ['sberbankru.com', 'various'],
    ['sberbank.рф', 'tld-swap'],
    ['sberbank.su', 'tld-swap'],
    ['sberbank.online', 'tld-swap'],
    ['sberbank.com.ru', 'tld-swap'],
    ['sberbank-online.ru', 'dictionary'],
    ['lk-sberbank.ru', 'dictionary'],
    ['lksberbank.ru', 'dictionary'],
    ['sberbankcashback.ru', 'dictionary'],
    ['kabinet-sberbank.ru', 'dictionary'],
  ])('%s is a %s candidate', (name, fuzzer) => {
    expect(fuzzerOf(name)).toBe(fuzzer);
  });

  it('gives punycode in domain and Unicode in unicode', () => {
    expect(u.get('ѕberbank.ru')?.domain).toBe('xn--berbank-iog.ru');
    expect(u.get('sberbаnk.ru')?.domain).toBe('xn--sberbnk-6fg.ru');
    expect(u.get('sberbank.рф')?.domain).toBe('sberbank.xn--p1ai');
    expect(u.get('sber-bank.ru')?.domain).toBe('sber-bank.ru');
  });

  it('never includes the input, has no duplicates, attributes a name to the first family', () => {
    expect(u.has('sberbank.ru')).toBe(false);
    expect(new Set(list.map((c) => c.domain)).size).toBe(list.length);
    // sberbanks is both an addition and a plural: addition comes first.
    expect(fuzzerOf('sberbanks.ru')).toBe('addition');
    const order = list.map((c) => FUZZERS.indexOf(c.fuzzer));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(new Set(list.map((c) => c.fuzzer))).toEqual(new Set(FUZZERS));
  });

  it('drops names that are not host names: no hyphen at label ends, no «--» at 3–4 outside xn--', () => {
    expect(list.every(validCandidate)).toBe(true);
    expect(u.has('-sberbank.ru')).toBe(false);
    expect(generatePermutations('ab-cd.ru').some((c) => c.domain === 'ab--cd.ru')).toBe(false);
  });

  it('the same input typed otherwise gives the same candidates', () => {
    const plain = list.map((c) => c.domain);
    expect(generatePermutations('  SBERBANK.RU.  ').map((c) => c.domain)).toEqual(plain);
    expect(generatePermutations('https://sberbank.ru/path?x=1').map((c) => c.domain)).toEqual(plain);
  });
});

describe('Cyrillic domain: сбербанк.рф', () => {
  const list = generatePermutations('сбербанк.рф');
  const u = byUnicode(list);
  const fuzzerOf = (name: string) => u.get(name)?.fuzzer;

  it.each([
    ['сбербанкя.рф', 'addition'],
    ['сбербанк1.рф', 'addition'],
    ['с6ербанк.рф', 'homoglyph'],
    ['сбeрбанк.рф', 'homoglyph'],
    ['сбёрбанк.рф', 'homoglyph'],
    ['c6ep6ahk.рф', 'homoglyph'],
    ['сбер-банк.рф', 'hyphenation'],
    ['сбербанук.рф', 'insertion'],
    ['сбрбанк.рф', 'omission'],
    ['сбербаннк.рф', 'repetition'],
    ['сбербане.рф', 'replacement'],
    ['сбербанв.рф', 'replacement'],
    ['сбер.банк.рф', 'subdomain'],
    ['сбребанк.рф', 'transposition'],
    ['сбербонк.рф', 'vowel-swap'],
    ['сбербанкрф.рф', 'various'],
    ['сбербанк-рф.com', 'various'],
    ['sberbank.ru', 'various'],
    ['сбербанк.рус', 'tld-swap'],
    ['сбербанк.su', 'tld-swap'],
    ['сбербанк-онлайн.рф', 'dictionary'],
    ['лк-сбербанк.рф', 'dictionary'],
    ['сбербанкбонус.рф', 'dictionary'],
    ['сбербанк-online.рф', 'dictionary'],
  ])('%s is a %s candidate', (name, fuzzer) => {
    expect(fuzzerOf(name)).toBe(fuzzer);
  });

  it('has punycode forms and never the input', () => {
    expect(u.get('с6ербанк.рф')?.domain).toBe('xn--6-8sbcp1arsf.xn--p1ai');
    expect(u.get('сбербанк-онлайн.рф')?.domain).toBe('xn----7sbbbax6afkrcdiwm.xn--p1ai');
    expect(byAscii(list).has('xn--80abap1arsf.xn--p1ai')).toBe(false);
    expect(list.every(validCandidate)).toBe(true);
  });

  it('flips bits of the label as DNS carries it (its A-label) and keeps only A-labels that decode', () => {
    const flips = list.filter((c) => c.fuzzer === 'bitsquatting');
    expect(flips.length).toBeGreaterThan(10);
    // xnm-80abap1arsf (a flip in the ACE prefix) is a plain LDH label; yn--… (R-LDH) and A-labels
    // that do not decode are dropped.
    for (const c of flips) expect(c.domain).toMatch(/^[a-z0-9-]+\.xn--p1ai$/);
    expect(flips.some((c) => c.domain.startsWith('xn--') && /[а-я]/.test(c.unicode))).toBe(true);
    expect(flips.some((c) => c.domain.startsWith('yn--'))).toBe(false);
  });

  it('plurals: мышь → мыши, company → companies, inside a compound label', () => {
    expect(byUnicode(generatePermutations('мышь.рф')).get('мыши.рф')?.fuzzer).toBe('plural');
    expect(byUnicode(generatePermutations('company.com')).get('companies.com')?.fuzzer).toBe('plural');
    expect(fuzzerOf('сберыбанк.рф')).toBe('plural');
  });

  it('punycode input is the same domain as Unicode input', () => {
    expect(generatePermutations('xn--80abap1arsf.xn--p1ai').map((c) => c.domain)).toEqual(list.map((c) => c.domain));
    expect(generatePermutations('СБЕРБАНК.РФ').map((c) => c.domain)).toEqual(list.map((c) => c.domain));
  });

  it('Latin dictionary words only for Latin labels: no «sberbank-онлайн»', () => {
    expect(byUnicode(generatePermutations('sberbank.ru')).has('sberbank-онлайн.ru')).toBe(false);
  });
});

describe('IDN Latin domain and multi-label suffixes', () => {
  it('müller.de: typed in Unicode or punycode, candidates round-trip', () => {
    const list = generatePermutations('xn--mller-kva.de');
    expect(list.map((c) => c.domain)).toEqual(generatePermutations('müller.de').map((c) => c.domain));
    const u = byUnicode(list);
    expect(u.get('müler.de')?.fuzzer).toBe('omission');
    expect(u.get('müler.de')?.domain).toBe('xn--mler-0ra.de');
    expect(u.get('mülller.de')?.fuzzer).toBe('repetition');
    expect(u.get('müllеr.de')?.fuzzer).toBe('homoglyph');
    expect(u.has('müller.de')).toBe(false);
    expect(list.every(validCandidate)).toBe(true);
  });

  it('example.co.uk permutes «example» and keeps co.uk; example.uk and exampleco.uk are «various»', () => {
    expect(parseTarget('example.co.uk')).toMatchObject({ sub: '', label: 'example', suffix: 'co.uk' });
    const u = byUnicode(generatePermutations('example.co.uk'));
    expect(u.get('exmaple.co.uk')?.fuzzer).toBe('transposition');
    expect(u.get('example.uk')?.fuzzer).toBe('various');
    expect(u.get('exampleco.uk')?.fuzzer).toBe('various');
    expect(u.get('example.ru')?.fuzzer).toBe('tld-swap');
  });

  it('sub.example.ru keeps the subdomain and glues it in «various»; com.ru and msk.ru are suffixes', () => {
    expect(parseTarget('sub.example.ru')).toMatchObject({ sub: 'sub', label: 'example', suffix: 'ru' });
    expect(parseTarget('a.b.msk.ru')).toMatchObject({ sub: 'a', label: 'b', suffix: 'msk.ru' });
    expect(parseTarget('example.com.ru')).toMatchObject({ label: 'example', suffix: 'com.ru' });
    const u = byUnicode(generatePermutations('sub.example.ru'));
    expect(u.get('sub.exmaple.ru')?.fuzzer).toBe('transposition');
    expect(u.get('subexample.ru')?.fuzzer).toBe('various');
    expect(u.get('sub-example.ru')?.fuzzer).toBe('various');
    expect(u.has('sub.example.ru')).toBe(false);
  });

  it('a hyphenated label: letters before the hyphen, words replacing a part', () => {
    const u = byUnicode(generatePermutations('alfa-bank.ru'));
    expect(u.get('alfa1-bank.ru')?.fuzzer).toBe('addition');
    expect(u.get('alfa-online.ru')?.fuzzer).toBe('dictionary');
    expect(u.get('lk-bank.ru')?.fuzzer).toBe('dictionary');
  });
});

describe('options', () => {
  it('own zones and words replace the defaults; zones in either form, invalid words skipped', () => {
    const list = generatePermutations('sberbank.ru', {
      tlds: ['xn--p1ai', '.COM', 'ru', 'not a zone'],
      dictionary: ['Bonus', 'bad word!', ''],
    });
    expect(list.filter((c) => c.fuzzer === 'tld-swap').map((c) => c.unicode)).toEqual(['sberbank.рф', 'sberbank.com']);
    expect(list.filter((c) => c.fuzzer === 'dictionary').map((c) => c.domain)).toEqual([
      'sberbank-bonus.ru',
      'sberbankbonus.ru',
      'bonus-sberbank.ru',
      'bonussberbank.ru',
    ]);
  });

  it('combosquatting of a short brand (vtb.ru): brand + word and word + brand, TLD swap, bounded, no duplicates', () => {
    const list = generatePermutations('vtb.ru');
    const by = new Map(list.map((c) => [c.unicode, c.fuzzer]));
    for (const [name, fuzzer] of [
      ['vtb-lk.ru', 'dictionary'],
      ['lk-vtb.ru', 'dictionary'],
      ['vtbbonus.ru', 'dictionary'],
      ['vtb-cashback.ru', 'dictionary'],
      ['vtb-login.ru', 'dictionary'],
      ['vtb-support.ru', 'dictionary'],
      ['myvtb.ru', 'dictionary'],
      ['vtb-verify.ru', 'dictionary'],
      ['vtb.online', 'tld-swap'],
      ['vtb.рф', 'tld-swap'],
      ['vtb.com', 'tld-swap'],
      ['vtb.shop', 'tld-swap'],
      ['vtb.xyz', 'tld-swap'],
    ] as const)
      expect(by.get(name), name).toBe(fuzzer);
    expect(new Set(list.map((c) => c.domain)).size).toBe(list.length);
    expect(by.has('vtb.ru')).toBe(false);
    expect(list.length).toBeLessThan(20_000);
  });

  it("a company's own words are added to the default dictionary (not replacing it), invalid ones skipped", () => {
    const base = generatePermutations('vtb.ru');
    const list = generatePermutations('vtb.ru', { extraWords: ['Premier', 'lk', 'bad word!', 'лк'] });
    const by = new Map(list.map((c) => [c.unicode, c.fuzzer]));
    for (const name of ['vtb-premier.ru', 'vtbpremier.ru', 'premier-vtb.ru', 'premiervtb.ru'])
      expect(by.get(name), name).toBe('dictionary');
    // Defaults stay; a word already there adds nothing; a Cyrillic word is not glued to a Latin label.
    expect(by.get('vtb-lk.ru')).toBe('dictionary');
    expect(by.has('vtb-лк.ru')).toBe(false);
    expect(list.length - base.length).toBe(4);
    // A Cyrillic label takes Cyrillic words.
    expect(generatePermutations('втб.рф', { extraWords: ['премьер'] }).some((c) => c.unicode === 'втб-премьер.рф')).toBe(true);
  });

  it('the default zones are valid and Russian zones come first', () => {
    expect(DEFAULT_TLDS.slice(0, 3)).toEqual(['ru', 'рф', 'su']);
    for (const z of DEFAULT_TLDS) expect(domainToASCII(`x.${z}`), z).not.toBe('');
    expect(generatePermutations('sberbank.ru').filter((c) => c.fuzzer === 'tld-swap')).toHaveLength(
      new Set(DEFAULT_TLDS).size - 1,
    );
  });

  it('every family has a Russian label', () => {
    for (const f of FUZZERS) expect(FUZZER_LABELS[f]).toMatch(/[а-яё]/i);
  });
});

describe('input that is not a domain', () => {
  it.each([
    ['', PERMUTATION_MSG.empty],
    ['   ', PERMUTATION_MSG.empty],
    ['1.2.3.4', PERMUTATION_MSG.ip],
    ['[::1]', PERMUTATION_MSG.ip],
    ['2001:db8::1', PERMUTATION_MSG.ip],
    ['0x7f.1', PERMUTATION_MSG.ip],
    ['exa mple.ru', PERMUTATION_MSG.notDomain],
    ['a_b.ru', PERMUTATION_MSG.notDomain],
    ['-abc.ru', PERMUTATION_MSG.notDomain],
    ['ab--cd.ru', PERMUTATION_MSG.notDomain],
    ['xn--abc-.ru', PERMUTATION_MSG.notDomain],
    ['localhost', PERMUTATION_MSG.notDomain],
    ['example', PERMUTATION_MSG.notDomain],
    ['a..ru', PERMUTATION_MSG.notDomain],
    ['sberbank.ru:443', PERMUTATION_MSG.notDomain],
    ['ftp://', PERMUTATION_MSG.notDomain],
    [`${'a'.repeat(64)}.ru`, PERMUTATION_MSG.labelTooLong],
    [`${'abcdefghi.'.repeat(26)}ru`, PERMUTATION_MSG.tooLong],
    ['x'.repeat(5000), PERMUTATION_MSG.tooLong],
    ['co.uk', PERMUTATION_MSG.suffixOnly],
    ['ru', PERMUTATION_MSG.suffixOnly],
    ['рф', PERMUTATION_MSG.suffixOnly],
  ])('%j → %s', (input, message) => {
    let error: unknown;
    try {
      generatePermutations(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DiscoveryInputError);
    expect(error).toMatchObject({ message, statusCode: 400, data: { fields: { domain: message } } });
  });
});

describe('every candidate is a valid host name (property)', () => {
  const letters = [...'abcdefghijklmnopqrstuvwxyz0123456789', ...'абвгдежзийклмнопрстуфхцчшщъыьэюяё', 'ü', 'é', 'ß'];
  const label = fc
    .array(fc.constantFrom(...letters), { minLength: 1, maxLength: 9 })
    .chain((a) => fc.constantFrom(a.join(''), `${a.join('')}-x`, `x-${a.join('')}`));
  const domain = fc.tuple(
    fc.option(label, { nil: undefined }),
    label,
    fc.constantFrom('ru', 'рф', 'com', 'co.uk', 'msk.ru', 'su'),
  );

  it('valid, unique, never the input (bounded runs)', () => {
    fc.assert(
      fc.property(domain, ([sub, l, suffix]) => {
        const input = [sub, l, suffix].filter(Boolean).join('.');
        const list = generatePermutations(input);
        const own = domainToASCII(input);
        expect(list.length).toBeGreaterThan(0);
        expect(list.filter((c) => !validCandidate(c))).toEqual([]);
        expect(new Set(list.map((c) => c.domain)).size).toBe(list.length);
        expect(list.some((c) => c.domain === own)).toBe(false);
      }),
      { numRuns: 25, seed: 17 },
    );
  });
});

describe('coverage of dnstwist (fixtures/dnstwist)', () => {
  const dir = path.join(import.meta.dirname, 'fixtures/dnstwist');
  const fixtures = readdirSync(dir).filter((f) => f.endsWith('.txt'));

  it('has the fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
  });

  it.each(fixtures)('%s ⊆ our candidates', (file) => {
    // The first line is dnstwist's input (its «*original»), which we never include.
    const [input = '', ...theirs] = readFileSync(path.join(dir, file), 'utf8').split('\n').filter(Boolean);
    expect(theirs.length).toBeGreaterThan(50);
    const ours = new Set(generatePermutations(input).map((c) => c.domain));
    expect(theirs.filter((d) => !ours.has(d))).toEqual([]);
  });
});
