/*
 * Home dashboard analytics: query and response shapes, periods and the reporting time zone.
 * Day buckets are calendar days in ANALYTICS_TZ (the rollups in the database use the same zone).
 */
import { z } from 'zod';
import { companyQuery } from './common';
import { isDay, PERIOD_PRESETS, type PeriodPreset } from './enums';
import { csvOf } from './events';
import { MODULE_CODES, type ModuleCode } from './modules/types';

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

// ---------------------------------------------------------------------------
// Query
// ---------------------------------------------------------------------------

export const daySchema = z.string().trim().refine(isDay, { error: ANALYTICS_MSG.day });

export const analyticsQuery = z
  .object({
    /** Absent or -1: every company the caller may see. */
    company_id: companyQuery,
    /** A preset ending today; ignored when `from` and `to` are given. Default 30d. */
    period: z.enum(PERIOD_PRESETS).optional(),
    from: daySchema.optional(),
    to: daySchema.optional(),
    /** Module codes, comma-joined (absent = all the caller may see). */
    modules: csvOf(MODULE_CODES).optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    if ((q.from === undefined) !== (q.to === undefined))
      ctx.addIssue({ code: 'custom', path: [q.from ? 'to' : 'from'], message: ANALYTICS_MSG.both });
    if (q.from && q.to && isDay(q.from) && isDay(q.to)) {
      if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['from'], message: ANALYTICS_MSG.order });
      else if (daysBetween(q.from, q.to).length > MAX_PERIOD_DAYS)
        ctx.addIssue({ code: 'custom', path: ['to'], message: ANALYTICS_MSG.tooLong });
    }
  });
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

/** The days a query covers: its explicit range, or the preset ending today in ANALYTICS_TZ. */
export function resolvePeriod(
  q: { period?: PeriodPreset; from?: string; to?: string },
  now: Date = new Date(),
): { from: string; to: string } {
  if (q.from && q.to) return { from: q.from, to: q.to };
  const to = dayIn(now);
  return { from: addDays(to, -(PERIOD_PRESET_DAYS[q.period ?? DEFAULT_PERIOD] - 1)), to };
}

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

/** Where a chart element leads: a console path and its query (the client adds the period and company). */
export const chartLink = z.object({ path: z.string(), query: z.record(z.string(), z.string()) });
export type ChartLink = z.infer<typeof chartLink>;

export const timeSeries = z.object({
  key: z.string(),
  name: z.string(),
  /** Ant Design colour name (statuses, priorities, sentiment); null = the chart's palette. */
  color: z.string().nullable(),
  total: z.number().int(),
  /** One count per day of `days`. */
  data: z.array(z.number().int()),
  link: chartLink,
});
export type TimeSeries = z.infer<typeof timeSeries>;

/** Counts per day, one series per module / status / sentiment. */
export const timeSeriesResponse = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(z.string()),
  series: z.array(timeSeries),
  total: z.number().int(),
});
export type TimeSeriesResponse = z.infer<typeof timeSeriesResponse>;

/** Counts per category (module) and series (priority): a stacked bar. */
export const matrixResponse = z.object({
  from: z.string(),
  to: z.string(),
  categories: z.array(z.object({ key: z.string(), name: z.string() })),
  series: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      color: z.string().nullable(),
      total: z.number().int(),
      data: z.array(z.number().int()),
      links: z.array(chartLink.nullable()),
    }),
  ),
  total: z.number().int(),
});
export type MatrixResponse = z.infer<typeof matrixResponse>;

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
