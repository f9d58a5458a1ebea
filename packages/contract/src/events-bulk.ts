/*
 * Bulk operations on «все N, подходящие под фильтр» of a module's list: a change of status, priority,
 * decision or tags, an action (modules with actions) or a deletion. The filter is the list's own
 * query string; a small set is changed at once, a large one by a background job with progress.
 */
import { z } from 'zod';
import { eventActionRequest, eventListQuery, eventPatchRequest, memo } from './events';
import { EVENT_MSG, hasDecisions } from './modules/index';

/** A filter that selects at most this many events is changed at once, in one transaction. */
export const BULK_INLINE_MAX = 500;
/** A job changes this many events per transaction (each chunk commits with its progress). */
export const BULK_CHUNK = 250;

export const BULK_MSG = {
  notFound: 'Массовая операция не найдена',
  emptyPatch: 'Выберите, что изменить',
  failed: 'Не удалось выполнить операцию, попробуйте ещё раз',
  crashed: 'Операция прервана: превышено число попыток',
  authorGone: 'Автор операции больше не может её выполнять',
  queueUnavailable: 'Очередь фоновых задач недоступна, попробуйте позже',
  /** A running job whose worker died; another worker takes it over within half a minute. */
  stalled: 'Обработчик не отвечает, продолжим автоматически',
} as const;

/** The list's filters (its query string without paging, sort and counts). */
export const bulkFilterQuery = memo((m) =>
  eventListQuery(m).omit({ page: true, page_size: true, sort: true, status_counts: true, after: true }),
);

/** The fields a bulk change may set: triage, not the event's own data (which would change its identity). */
const bulkPatch = memo((m) =>
  eventPatchRequest(m)
    .pick({
      status_id: true,
      priority_id: true,
      tags_add: true,
      tags_remove: true,
      assignee_id: true,
      ...(hasDecisions(m) ? { decision_id: true } : {}),
    })
    .refine((p) => Object.keys(p).length > 0, { error: BULK_MSG.emptyPatch }),
);

/** POST …/events/bulk: a change, or an action for modules with actions. */
export const bulkRequest = memo((m) => {
  const patch = z.object({ op: z.literal('patch', { error: EVENT_MSG.option }), patch: bulkPatch(m) }).strict();
  if (!m.actions?.length) return patch;
  return z.discriminatedUnion('op', [patch, eventActionRequest(m).extend({ op: z.literal('action') })], {
    error: EVENT_MSG.option,
  });
});
export type BulkRequest = { op: 'patch'; patch: Record<string, unknown> } | { op: 'action'; action: string; comment?: string };
/** What a job does (stored with it). */
export type BulkOp = BulkRequest | { op: 'delete' };

export const BULK_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

export const bulkJob = z
  .object({
    id: z.number().int(),
    module: z.string(),
    op: z.enum(['patch', 'action', 'delete']),
    /** The change (op `patch`). */
    patch: z.record(z.string(), z.unknown()).nullable(),
    /** The action's code (op `action`). */
    action: z.string().nullable(),
    status: z.enum(BULK_STATUSES),
    /** Events the filter selected at the start. */
    total: z.number().int(),
    /** Events done so far (those deleted by someone else meanwhile are not counted). */
    processed: z.number().int(),
    message: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    /** A running job whose worker stopped answering; another worker takes it over automatically. */
    stalled: z.boolean(),
    /** «Отменить» of a finished change (op `patch`): POST …/events/undo/{token}. */
    undo_token: z.string().nullable(),
  })
  .meta({ id: 'EventBulkJob' });
export type BulkJob = z.infer<typeof bulkJob>;
