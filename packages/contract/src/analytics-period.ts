/*
 * The analytics periods, calendar days in the reporting time zone and the dashboard's chart list,
 * without zod (analytics.ts re-exports all of it with its schemas): the console's home page needs them,
 * not the schemas (issue #16).
 */
import { isDay, PERIOD_PRESETS, type PeriodPreset } from './enums';
import type { ModuleCode } from './modules/types';

/** Calendar days of the dashboards, reports and mail digests. */
export const ANALYTICS_TZ = 'Europe/Moscow';
/** The longest period a dashboard or report may cover, days. */
export const MAX_PERIOD_DAYS = 366;

export { PERIOD_PRESETS, type PeriodPreset };
export const PERIOD_PRESET_LABELS: Record<PeriodPreset, string> = { '7d': '7 дней', '30d': '30 дней', '90d': '90 дней' };
export const PERIOD_PRESET_DAYS: Record<PeriodPreset, number> = { '7d': 7, '30d': 30, '90d': 90 };
export const DEFAULT_PERIOD: PeriodPreset = '30d';

export const ANALYTICS_MSG = {
  day: 'Неверная дата (ожидается ГГГГ-ММ-ДД)',
  order: 'Начало периода позже конца',
  tooLong: `Период не может быть длиннее ${MAX_PERIOD_DAYS} дней`,
  both: 'Укажите и начало, и конец периода',
} as const;

// ---------------------------------------------------------------------------
// Calendar days in a time zone (pure; browser and Node)
// ---------------------------------------------------------------------------

export { isDay };

const dayFormat = new Map<string, Intl.DateTimeFormat>();
/** The calendar day ('YYYY-MM-DD') of an instant in `tz`. */
export function dayIn(instant: Date, tz: string = ANALYTICS_TZ): string {
  let f = dayFormat.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormat.set(tz, f);
  }
  return f.format(instant);
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Days from `from` to `to` inclusive (one date walked forward: this runs on every dashboard request). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  if (!isDay(from) || !isDay(to)) return out;
  const d = new Date(`${from}T00:00:00Z`);
  for (let day = from; day <= to && out.length <= MAX_PERIOD_DAYS + 1; ) {
    out.push(day);
    d.setUTCDate(d.getUTCDate() + 1);
    day = `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
  }
  return out;
}

const partsFormat = new Map<string, Intl.DateTimeFormat>();
/** Minutes `tz` is ahead of UTC at `instant` (Moscow: 180). */
export function tzOffsetMinutes(instant: Date, tz: string = ANALYTICS_TZ): number {
  let f = partsFormat.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormat.set(tz, f);
  }
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** The instant a local time (`day` at `hour`:`minute`) in `tz` happens. */
export function zonedInstant(day: string, hour = 0, minute = 0, tz: string = ANALYTICS_TZ): Date {
  const guess = Date.parse(`${day}T00:00:00Z`) + (hour * 60 + minute) * 60_000;
  const off = tzOffsetMinutes(new Date(guess), tz);
  const first = guess - off * 60_000;
  const off2 = tzOffsetMinutes(new Date(first), tz);
  return new Date(guess - off2 * 60_000);
}

const offsetText = (minutes: number) => {
  const sign = minutes < 0 ? '-' : '+';
  const a = Math.abs(minutes);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
};

/**
 * The `created_from` / `created_to` values of an event list covering whole days `from`..`to` in `tz`
 * (ISO date-times with the zone's offset, e.g. 2026-03-01T00:00:00+03:00).
 */
export function dayRangeParams(
  from: string,
  to: string,
  tz: string = ANALYTICS_TZ,
): { created_from: string; created_to: string } {
  const start = zonedInstant(from, 0, 0, tz);
  const end = zonedInstant(addDays(to, 1), 0, 0, tz);
  return {
    created_from: `${from}T00:00:00${offsetText(tzOffsetMinutes(start, tz))}`,
    created_to: `${to}T23:59:59.999${offsetText(tzOffsetMinutes(new Date(end.getTime() - 1), tz))}`,
  };
}

/** The days a query covers: its explicit range, or the preset ending today in ANALYTICS_TZ. */
export function resolvePeriod(
  q: { period?: PeriodPreset; from?: string; to?: string },
  now: Date = new Date(),
): { from: string; to: string } {
  if (q.from && q.to) return { from: q.from, to: q.to };
  const to = dayIn(now);
  return { from: addDays(to, -(PERIOD_PRESET_DAYS[q.period ?? DEFAULT_PERIOD] - 1)), to };
}

/** The six dashboard endpoints (under /modules/analytics/dashboard). */
export const DASHBOARD_CHARTS = {
  newevents: { path: 'common/newevents', title: 'Новые события', shape: 'series' },
  criticalevents: { path: 'common/criticalevents', title: 'Критические события', shape: 'series' },
  priorityevents: { path: 'common/priorityevents', title: 'События по приоритетам', shape: 'matrix' },
  connotationevents: { path: 'media/connotationevents', title: 'Тональность публикаций', shape: 'series' },
  domainevents: { path: 'domains/events', title: 'Домены', shape: 'series' },
  accountevents: { path: 'account/events', title: 'Аккаунты', shape: 'series' },
} as const;
export type DashboardChart = keyof typeof DASHBOARD_CHARTS;

export const NO_PRIORITY = { key: 'none', name: 'Без приоритета', color: 'default' } as const;

/** Modules a chart is about (null = the query's modules). */
export const CHART_MODULES: Record<DashboardChart, readonly ModuleCode[] | null> = {
  newevents: null,
  criticalevents: null,
  priorityevents: null,
  connotationevents: ['media'],
  domainevents: ['domains'],
  accountevents: ['accounts'],
};
