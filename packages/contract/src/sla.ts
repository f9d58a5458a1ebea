/*
 * SLA of events: how long an event may wait for its first triage and for its resolution, per
 * priority (installation default, overridable per company). The definitions (docs/decisions.md, «SLA»):
 *  - first triage — the first status change away from the initial status «Новое»;
 *  - resolution — reaching a final status («Решено», «Ложное срабатывание»); leaving it clears it;
 *  - both deadlines count calendar time (no business hours) from the event's `created_at`;
 *  - the pending deadline is the triage one until triage, then the resolution one, none once resolved;
 *  - breached when now > due (exactly at due it is not yet overdue) — `slaOverdue`, the one rule here
 *    (the database's filter `sla_due_at < now` is the same rule).
 * The database computes the stored due time (function `sla_due`, trigger `events_sla`: migration 0029).
 */
import { z } from 'zod';
import { formatSlaDuration } from './format';
import { DEFAULT_PRIORITIES } from './modules/common';

/** Priority codes of the policies (the events' priority codes; an event without priority follows `medium`). */
export const SLA_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type SlaPriority = (typeof SLA_PRIORITIES)[number];
/** The policy of an event without a priority. */
export const SLA_NO_PRIORITY: SlaPriority = 'medium';
export const SLA_PRIORITY_LABELS = Object.fromEntries(DEFAULT_PRIORITIES.map((p) => [p.code, p.name])) as Record<
  SlaPriority,
  string
>;

export const SLA_STAGES = ['triage', 'resolve'] as const;
export type SlaStage = (typeof SLA_STAGES)[number];
export const SLA_STAGE_LABELS: Record<SlaStage, string> = { triage: 'Разбор', resolve: 'Решение' };

/** The list filter `sla=`. */
export const SLA_FILTERS = ['overdue', 'due_soon', 'on_track', 'none'] as const;
export type SlaFilter = (typeof SLA_FILTERS)[number];
export const SLA_FILTER_LABELS: Record<SlaFilter, string> = {
  overdue: 'Просрочено',
  due_soon: 'Скоро срок',
  on_track: 'В срок',
  none: 'Без срока',
};
/** «Скоро срок»: the pending deadline is at most this far ahead. */
export const SLA_DUE_SOON_MINUTES = 120;

/** Defaults of the installation, minutes (seeded by migration 0029; documented in docs/decisions.md). */
export const SLA_DEFAULTS: Record<SlaPriority, { triage_minutes: number; resolve_minutes: number }> = {
  critical: { triage_minutes: 60, resolve_minutes: 24 * 60 },
  high: { triage_minutes: 4 * 60, resolve_minutes: 3 * 24 * 60 },
  medium: { triage_minutes: 24 * 60, resolve_minutes: 7 * 24 * 60 },
  low: { triage_minutes: 3 * 24 * 60, resolve_minutes: 30 * 24 * 60 },
};

/** The longest deadline, minutes (one year). */
export const SLA_MAX_MINUTES = 366 * 24 * 60;

export const SLA_MSG = {
  minutes: 'Укажите целое число минут',
  min: 'Не меньше 1 минуты',
  max: 'Не больше 366 дней',
  order: 'Срок решения не может быть короче срока разбора',
  priorities: 'Укажите сроки для всех четырёх приоритетов',
  overdue: 'Просрочено',
} as const;

/** Breached: strictly after the due time. */
export const slaOverdue = (dueAt: string | Date | null, now: Date | number): boolean =>
  dueAt !== null && (typeof now === 'number' ? now : now.getTime()) > new Date(dueAt).getTime();

/** Seconds from `now` to the due time (negative when overdue); null without a deadline. */
export const slaRemainingSeconds = (dueAt: string | Date | null, now: Date | number): number | null =>
  dueAt === null ? null : Math.trunc((new Date(dueAt).getTime() - (typeof now === 'number' ? now : now.getTime())) / 1000);

/** The `sla` of an event in list and card responses. */
export const eventSla = z
  .object({
    /** The pending deadline (ISO 8601), null when resolved. */
    due_at: z.string().nullable(),
    stage: z.enum(SLA_STAGES).nullable(),
    /** now > due_at at the moment of the answer (the console recomputes it from due_at as time passes). */
    overdue: z.boolean(),
    triaged_at: z.string().nullable(),
    resolved_at: z.string().nullable(),
  })
  .meta({ id: 'EventSla' });
export type EventSla = z.infer<typeof eventSla>;

const minutes = z
  .number({ error: SLA_MSG.minutes })
  .int({ error: SLA_MSG.minutes })
  .min(1, { error: SLA_MSG.min })
  .max(SLA_MAX_MINUTES, { error: SLA_MSG.max });

export const slaPolicyItem = z
  .object({ priority: z.enum(SLA_PRIORITIES), triage_minutes: minutes, resolve_minutes: minutes })
  .strict()
  .refine((p) => p.resolve_minutes >= p.triage_minutes, { error: SLA_MSG.order, path: ['resolve_minutes'] });
export type SlaPolicyItem = z.infer<typeof slaPolicyItem>;

/** PUT body: the four priorities. A company's `items: []` removes its override (the default applies). */
export const slaPoliciesRequest = (allowEmpty: boolean) =>
  z
    .object({ items: z.array(slaPolicyItem).max(SLA_PRIORITIES.length, { error: SLA_MSG.priorities }) })
    .strict()
    .refine(
      (b) =>
        (allowEmpty && b.items.length === 0) ||
        (b.items.length === SLA_PRIORITIES.length && new Set(b.items.map((i) => i.priority)).size === SLA_PRIORITIES.length),
      { error: SLA_MSG.priorities, path: ['items'] },
    );
export const slaDefaultRequest = slaPoliciesRequest(false);
export const slaCompanyRequest = slaPoliciesRequest(true);

export const slaPoliciesResponse = z.object({
  /** The policies in force, in SLA_PRIORITIES order. */
  items: z.array(
    z.object({ priority: z.enum(SLA_PRIORITIES), triage_minutes: z.number().int(), resolve_minutes: z.number().int() }),
  ),
  /** Company answers: whether the company has its own policies (false: the installation default). */
  overridden: z.boolean(),
  /** Open events whose due times were recomputed (PUT answers only). */
  recomputed: z.number().int().optional(),
});
export type SlaPoliciesResponse = z.infer<typeof slaPoliciesResponse>;

/** One row of the home page's SLA card (a module, or a company for staff). */
export const slaSummaryRow = z.object({
  key: z.string(),
  name: z.string(),
  /** Open events past their pending deadline, now. */
  overdue: z.number().int(),
  /** Open events with a deadline, now. */
  open: z.number().int(),
  /** Median seconds from creation to first triage / to resolution, events created in the period. */
  median_triage_seconds: z.number().nullable(),
  median_resolve_seconds: z.number().nullable(),
});
export const slaSummaryResponse = z.object({
  modules: z.array(slaSummaryRow),
  /** Per company (staff with more than one company in scope); empty otherwise. */
  companies: z.array(slaSummaryRow),
  from: z.string(),
  to: z.string(),
});
export type SlaSummaryResponse = z.infer<typeof slaSummaryResponse>;

export { idParam as slaCompanyParams } from './common';

export { formatSlaDuration };

/** What the console shows for a deadline at `now`: «Осталось 3 ч 15 мин» or «Просрочено на 2 ч». */
export function slaText(dueAt: string | Date, now: Date | number): string {
  const left = slaRemainingSeconds(dueAt, now) as number;
  return slaOverdue(dueAt, now) ? `${SLA_MSG.overdue} на ${formatSlaDuration(left)}` : `Осталось ${formatSlaDuration(left)}`;
}

/**
 * The same, compact, for a list cell: «−1 д 4 ч» overdue (a minus sign, U+2212), «2 ч 15 мин» left,
 * «<1 мин» within a minute either way. The cell's tooltip carries slaText.
 */
export function slaShortText(dueAt: string | Date, now: Date | number): string {
  const left = slaRemainingSeconds(dueAt, now) as number;
  const d = Math.abs(left) < 60 ? '<1 мин' : formatSlaDuration(left);
  return slaOverdue(dueAt, now) ? `−${d}` : d;
}

/** The state of a deadline at `now` (the list filter's words; null: no pending deadline). */
export function slaStateOf(dueAt: string | Date | null, now: Date | number): Exclude<SlaFilter, 'none'> | null {
  if (dueAt === null) return null;
  if (slaOverdue(dueAt, now)) return 'overdue';
  const left = slaRemainingSeconds(dueAt, now) as number;
  return left <= SLA_DUE_SOON_MINUTES * 60 ? 'due_soon' : 'on_track';
}
