import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FILE_SIZE_UNITS,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatHour,
  formatNumber,
  formatRub,
  pluralRu,
  WEEKDAYS_RU,
  WEEKDAYS_RU_SHORT,
} from './format';

const NBSP = '\u00a0';

describe('formatDate / formatDateTime', () => {
  // built from local components, so the expectations hold in any time zone
  const d = new Date(2024, 2, 5, 9, 7, 42);

  it('formats dates', () => {
    expect(formatDate(d)).toBe('05.03.2024');
    expect(formatDate(d.getTime())).toBe('05.03.2024');
    expect(formatDate(d.toISOString())).toBe('05.03.2024');
    expect(formatDate(new Date(1999, 11, 31, 23, 59))).toBe('31.12.1999');
    expect(formatDate('2024-03-05')).toBe('05.03.2024'); // date-only string = local calendar day
  });

  it('formats date and time', () => {
    expect(formatDateTime(d)).toBe('05.03.2024 09:07');
    expect(formatDateTime(new Date(2024, 0, 1, 0, 0))).toBe('01.01.2024 00:00');
    expect(formatDateTime(new Date(2024, 11, 31, 23, 59, 59))).toBe('31.12.2024 23:59');
    expect(formatDateTime(d.toISOString())).toBe('05.03.2024 09:07');
  });

  it('shows a dash for invalid dates', () => {
    expect(formatDate('не дата')).toBe('—');
    expect(formatDate(Number.NaN)).toBe('—');
    expect(formatDate(new Date('x'))).toBe('—');
    expect(formatDateTime('')).toBe('—');
  });
});

describe('formatHour', () => {
  it('pads to HH:00', () => {
    expect(formatHour(0)).toBe('00:00');
    expect(formatHour(9)).toBe('09:00');
    expect(formatHour(23)).toBe('23:00');
    expect(formatHour(24)).toBe('00:00');
    expect(formatHour(-1)).toBe('23:00');
    expect(formatHour(1.5)).toBe('—');
  });
});

describe('weekdays', () => {
  it('are Monday-first', () => {
    expect(WEEKDAYS_RU).toEqual(['Понедельник', 'Вторник', 'Среда', 'Четверг', 'Пятница', 'Суббота', 'Воскресенье']);
    expect(WEEKDAYS_RU_SHORT).toEqual(['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс']);
  });
});

describe('formatRub / formatNumber', () => {
  it('formats roubles with NBSP grouping', () => {
    expect(formatRub(1234567.5)).toBe(`1${NBSP}234${NBSP}567,50${NBSP}₽`);
    expect(formatRub(0)).toBe(`0,00${NBSP}₽`);
    expect(formatRub(999.999)).toBe(`1${NBSP}000,00${NBSP}₽`);
    expect(formatRub(-5)).toBe(`-5,00${NBSP}₽`);
    expect(formatRub(Number.NaN)).toBe('—');
  });

  it('formats numbers', () => {
    expect(formatNumber(1234567.891)).toBe(`1${NBSP}234${NBSP}567,891`);
    expect(formatNumber(1234)).toBe(`1${NBSP}234`);
    expect(formatNumber(42)).toBe('42');
    expect(formatNumber(0.5)).toBe('0,5');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('—');
  });

  it('never uses other space characters', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (n) => {
        expect(formatRub(n)).not.toMatch(/[ \u202f\u2009]/);
        expect(formatNumber(n)).not.toMatch(/[ \u202f\u2009]/);
      }),
    );
  });
});

describe('formatFileSize', () => {
  it.each([
    [0, '0 Байт'],
    [1, '1 Байт'],
    [1023, '1023 Байт'],
    [1024, '1 КБ'],
    [1536, '1,5 КБ'],
    [1100, '1,1 КБ'],
    [10 * 1024 + 1, '10 КБ'],
    [1048575, '1 МБ'], // 1023,999 КБ rounds up into the next unit
    [1048576, '1 МБ'],
    [1.25 * 1024 ** 3, '1,3 ГБ'],
    [1024 ** 4, '1 ТБ'],
    [2048 * 1024 ** 4, '2048 ТБ'],
  ])('%d → %s', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });

  it('shows a dash for invalid input', () => {
    expect(formatFileSize(-1)).toBe('—');
    expect(formatFileSize(Number.NaN)).toBe('—');
  });

  /** Parses '1,5 КБ' back to bytes. */
  function parse(s: string): number {
    const m = /^(\d+(?:,\d)?) (\S+)$/.exec(s);
    expect(m, s).not.toBeNull();
    const unit = FILE_SIZE_UNITS.indexOf((m?.[2] ?? '') as (typeof FILE_SIZE_UNITS)[number]);
    expect(unit, s).toBeGreaterThanOrEqual(0);
    return Number((m?.[1] ?? '').replace(',', '.')) * 1024 ** unit;
  }

  it('is monotone, has at most one decimal and stays within 5% of the value', () => {
    const size = fc.oneof(
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: 0, max: 4096 }),
      // near unit boundaries
      fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: -200, max: 200 })).map(([k, d]) => Math.max(0, 1024 ** k + d)),
    );
    fc.assert(
      fc.property(size, size, (x, y) => {
        const [a, b] = x <= y ? [x, y] : [y, x];
        const pa = parse(formatFileSize(a));
        const pb = parse(formatFileSize(b));
        expect(pa).toBeLessThanOrEqual(pb);
        if (a >= 1) expect(Math.abs(pa - a) / a).toBeLessThanOrEqual(0.05);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('pluralRu', () => {
  const p = (n: number) => pluralRu(n, 'файл', 'файла', 'файлов');
  it.each([
    [0, 'файлов'],
    [1, 'файл'],
    [2, 'файла'],
    [4, 'файла'],
    [5, 'файлов'],
    [11, 'файлов'],
    [12, 'файлов'],
    [14, 'файлов'],
    [21, 'файл'],
    [22, 'файла'],
    [25, 'файлов'],
    [101, 'файл'],
    [111, 'файлов'],
    [112, 'файлов'],
    [1001, 'файл'],
    [-1, 'файл'],
    [-3, 'файла'],
    [1.5, 'файла'],
  ])('%d → %s', (n, expected) => {
    expect(p(n)).toBe(expected);
  });
});
