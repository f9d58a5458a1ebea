/* Russian display formatting, safe in the browser and in Node (no date libraries). */

/** Shown instead of a value that can't be formatted. */
export const EMPTY_VALUE = '—';

const NBSP = '\u00a0';
/** Some ICU versions group digits with NARROW NO-BREAK SPACE or THIN SPACE; we always use NBSP. */
const GROUP_SPACES = /[\u202f\u2009 ]/g;

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Date, epoch milliseconds or a date string → Date (null when invalid). A date-only ISO string
 * ('2024-03-05') is taken as that calendar day in local time, not UTC midnight.
 */
function toDate(d: Date | string | number): Date | null {
  let date: Date;
  if (typeof d === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d.trim());
    date = m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : new Date(d);
  } else {
    date = new Date(d);
  }
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'dd.MM.yyyy' in local time; '—' for an invalid date. */
export function formatDate(d: Date | string | number): string {
  const date = toDate(d);
  if (!date) return EMPTY_VALUE;
  return `${pad2(date.getDate())}.${pad2(date.getMonth() + 1)}.${String(date.getFullYear()).padStart(4, '0')}`;
}

/** 'dd.MM.yyyy HH:mm' in local time; '—' for an invalid date. */
export function formatDateTime(d: Date | string | number): string {
  const date = toDate(d);
  if (!date) return EMPTY_VALUE;
  return `${formatDate(date)} ${pad2(date.getHours())}:${pad2(date.getMinutes())}`;
}

/** Hour of day → 'HH:00' (9 → '09:00'); wraps modulo 24; '—' for a non-integer. */
export function formatHour(h: number): string {
  if (!Number.isInteger(h)) return EMPTY_VALUE;
  return `${pad2(((h % 24) + 24) % 24)}:00`;
}

/** Monday-first full weekday names (index 0 = Monday). */
export const WEEKDAYS_RU = ['Понедельник', 'Вторник', 'Среда', 'Четверг', 'Пятница', 'Суббота', 'Воскресенье'] as const;

/** Monday-first short weekday names (index 0 = Monday). */
export const WEEKDAYS_RU_SHORT = ['Пн', 'Вт', 'Ср', 'Чт', 'Пт', 'Сб', 'Вс'] as const;

const rubFormat = new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB' });
const numberFormat = new Intl.NumberFormat('ru-RU');
const fileSizeFormat = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 1, useGrouping: false });

/** Roubles with kopecks: 1234567.5 → '1 234 567,50 ₽' (spaces are U+00A0); '—' if not finite. */
export function formatRub(n: number): string {
  if (!Number.isFinite(n)) return EMPTY_VALUE;
  return rubFormat.format(n).replace(GROUP_SPACES, NBSP);
}

/** ru-RU number: 1234567.891 → '1 234 567,891' (U+00A0 grouping, up to 3 decimals); '—' if not finite. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return EMPTY_VALUE;
  return numberFormat.format(n).replace(GROUP_SPACES, NBSP);
}

export const FILE_SIZE_UNITS = ['Байт', 'КБ', 'МБ', 'ГБ', 'ТБ'] as const;

/**
 * Bytes → human size, base 1024, at most one decimal, comma separator:
 * 0 → '0 Байт', 1536 → '1,5 КБ', 1048576 → '1 МБ'. '—' for negative or non-finite input.
 */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return EMPTY_VALUE;
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  let rounded = unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  // 1023.96 КБ would round to '1024 КБ': show it as '1 МБ' instead.
  if (rounded >= 1024 && unit < FILE_SIZE_UNITS.length - 1) {
    rounded = 1;
    unit++;
  }
  return `${fileSizeFormat.format(rounded)} ${FILE_SIZE_UNITS[unit]}`;
}

/**
 * Russian plural form for n: pluralRu(1, 'файл', 'файла', 'файлов') → 'файл', 3 → 'файла',
 * 5 / 11 / 12 → 'файлов', 21 → 'файл'. Fractions take the `few` form (1,5 файла).
 */
export function pluralRu(n: number, one: string, few: string, many: string): string {
  const abs = Math.abs(n);
  if (!Number.isInteger(abs)) return few;
  const mod10 = abs % 10;
  const mod100 = abs % 100;
  if (mod10 === 1 && mod100 !== 11) return one;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return few;
  return many;
}

/** A duration for people: «2 д 3 ч», «3 ч 15 мин», «12 мин», «меньше минуты». */
export function formatSlaDuration(seconds: number): string {
  const s = Math.abs(Math.trunc(seconds));
  if (s < 60) return 'меньше минуты';
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return h > 0 ? `${d} д ${h} ч` : `${d} д`;
  if (h > 0) return m > 0 ? `${h} ч ${m} мин` : `${h} ч`;
  return `${m} мин`;
}
