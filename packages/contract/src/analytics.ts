/*
 * Home dashboard analytics: query and response shapes, periods and the reporting time zone.
 * Day buckets are calendar days in ANALYTICS_TZ (the rollups in the database use the same zone).
 */
import { z } from 'zod';
import { ANALYTICS_MSG, daysBetween, MAX_PERIOD_DAYS } from './analytics-period';
import { companyQuery } from './common';
import { isDay, PERIOD_PRESETS } from './enums';
import { csvOf } from './events';
import { MODULE_CODES } from './modules/types';

export * from './analytics-period';

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
