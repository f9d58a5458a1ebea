import { neutraliseCell } from '@forpost/contract/exports';
import {
  autoMapping,
  IMPORT_DELIMITER_LABELS,
  IMPORT_DELIMITERS,
  IMPORT_ENCODING_LABELS,
  IMPORT_ENCODINGS,
} from '@forpost/contract/imports';
import { getModule } from '@forpost/contract/modules';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { parseBoolean, parseDate, parseDateTime, parseNumber } from './cells';
import { detectDelimiter, detectEncoding } from './sniff';

describe('cells as people type them', () => {
  it('numbers with spaces, a decimal comma, thousands separators', () => {
    expect(parseNumber('1 234,5')).toBe(1234.5);
    expect(parseNumber('1\u00a0000')).toBe(1000);
    expect(parseNumber('1,234.5')).toBe(1234.5);
    expect(parseNumber('-7')).toBe(-7);
    expect(parseNumber('12abc')).toBeNull();
    expect(parseNumber('')).toBeNull();
  });

  it('yes and no in Russian and English', () => {
    expect(parseBoolean('Да')).toBe(true);
    expect(parseBoolean('no')).toBe(false);
    expect(parseBoolean('может быть')).toBeNull();
  });

  it('dates dd.MM.yyyy and ISO; date-times without an offset are Moscow time', () => {
    expect(parseDate('01.03.2026')).toBe('2026-03-01');
    expect(parseDate('1/3/2026')).toBe('2026-03-01');
    expect(parseDate('2026-03-01T10:00:00Z')).toBe('2026-03-01');
    expect(parseDate('завтра')).toBeNull();
    expect(parseDate('30.02.2026')).toBeNull();
    expect(parseDate('2026-02-30')).toBeNull();
    expect(parseDate('29.02.2028')).toBe('2028-02-29');
    expect(parseDateTime('01.03.2026 10:30')).toBe('2026-03-01T10:30:00+03:00');
    expect(parseDateTime('2026-03-01 10:30')).toBe('2026-03-01T10:30:00+03:00');
    expect(parseDateTime('2026-03-01T10:30:00Z')).toBe('2026-03-01T10:30:00Z');
    expect(parseDateTime('2026-03-01T10:30:00+0500')).toBe('2026-03-01T10:30:00+05:00');
    expect(parseDateTime('01.03.2026')).toBe('2026-03-01T00:00:00+03:00');
  });
});

describe('file sniffing', () => {
  it('tells UTF-8, Windows-1251 and KOI8-R apart', () => {
    const text = 'Домен;Регистратор\nпример.рф;Регистратор доменов\n'.repeat(5);
    expect(detectEncoding(Buffer.from(text, 'utf8'))).toBe('utf-8');
    expect(detectEncoding(iconv.encode(text, 'win1251'))).toBe('windows-1251');
    expect(detectEncoding(iconv.encode(text, 'koi8-r'))).toBe('koi8-r');
    expect(detectEncoding(Buffer.from('plain ascii;x\n'))).toBe('utf-8');
  });

  it('finds the delimiter that splits every line the same way', () => {
    expect(detectDelimiter('a;b;c\n1;2;3\n')).toBe(';');
    expect(detectDelimiter('a,b\n"1,5",2\n')).toBe(',');
    expect(detectDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(detectDelimiter('Домен\nexample.com\n')).toBe(',');
    // A «#» banner (abuse.ch feeds) is not counted: the data lines decide.
    expect(detectDelimiter('#####\n# Feed, updated daily\n# id;url\n1;http://a.ru/\n2;http://b.ru/\n')).toBe(';');
  });

  it('detects only what the contract lists (with a Russian label), and every listed encoding can be read', () => {
    const text = 'Домен;Регистратор|x,y\tz\nпример.рф;Регистратор доменов|1,2\t3\n'.repeat(5);
    const samples = [
      Buffer.from(text, 'utf8'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(text, 'utf-16le')]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(text, 'utf-16be')]),
      iconv.encode(text, 'windows-1251'),
      iconv.encode(text, 'koi8-r'),
    ];
    const found = samples.map((b) => detectEncoding(b));
    expect(new Set(found)).toEqual(new Set(IMPORT_ENCODINGS));
    for (const e of IMPORT_ENCODINGS) {
      expect(iconv.encodingExists(e), e).toBe(true);
      expect(IMPORT_ENCODING_LABELS[e]).toMatch(/\S/);
    }
    for (const line of ['a;b\n1;2\n', 'a,b\n1,2\n', 'a\tb\n1\t2\n', 'a|b\n1|2\n']) {
      const d = detectDelimiter(line);
      expect(IMPORT_DELIMITERS).toContain(d);
      expect(IMPORT_DELIMITER_LABELS[d]).toMatch(/\S/);
    }
  });
});

describe('contract helpers', () => {
  it('neutralises cells a spreadsheet would run as formulas', () => {
    for (const s of ['=1+1', '+7', '-2', '@SUM(A1)', '\tx', '\rx', '  =x']) expect(neutraliseCell(s)).toBe(`'${s}`);
    for (const s of ['text', 'a=b', '', ' plain']) expect(neutraliseCell(s)).toBe(s);
  });

  it('maps Russian and English headers once each, ignoring case, ё and underscores', () => {
    expect(autoMapping(getModule('domains'), ['ДОМЕН', 'ip_address', 'Регистратор', 'Домен', 'Приоритет', 'что-то'])).toEqual([
      'domain',
      'ip',
      'registrar',
      null,
      'priority_id',
      null,
    ]);
    expect(autoMapping(null, ['Название', 'Тип утечки', 'records'])).toEqual(['name', 'leak_type_id', 'records_count']);
  });
});
