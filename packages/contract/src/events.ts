/*
 * Request/response schemas of the event engine. Per-module schemas are generated from the registry
 * (memoised per descriptor), so the API validates and documents each module's own fields.
 */
import { z } from 'zod';
import { BIGSERIAL_MAX, idRule, textId } from './common';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './enums';
import { MSG } from './messages';
import {
  datetimeSchema,
  EVENT_MSG,
  FIELD_KINDS,
  type FieldDescriptor,
  type FieldKind,
  hasDecisions,
  indicatorOf,
  inputFields,
  ML_STATES,
  type ModuleDescriptor,
  parseIndicator,
  SOURCES,
  sortKeysOf,
  WHITELIST_KINDS,
} from './modules/index';
import { eventSla, SLA_FILTERS } from './sla';

export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE };
/** Lists count matching rows exactly up to this many; beyond it `total_capped` is true. */
export const COUNT_CAP = 10_000;
/** With a free-text `q` the count stops earlier (each match costs a row read; a search is for finding). */
export const SEARCH_COUNT_CAP = 1_000;
export const MAX_TAGS_PER_EVENT = 50;
export const MAX_BATCH = 1000;
export const MAX_RULES = 10;

/** Ids in event bodies (company, status, priority, decision: `serial` columns) — the contract's one id rule. */
const posInt = idRule(z.number({ error: EVENT_MSG.integer }));
/** Event ids (`bigserial`) in a body and in the path. */
const eventId = idRule(z.number({ error: EVENT_MSG.integer }), BIGSERIAL_MAX);
export const idParams = z.object({ id: textId(BIGSERIAL_MAX) });
export const noContent = z.null().describe('Нет содержимого');

// ---------------------------------------------------------------------------
// Query-string helpers (values arrive as strings; arrays are comma-joined)
// ---------------------------------------------------------------------------

export const csvInts = z
  .string()
  .trim()
  .regex(/^\d{1,10}(,\d{1,10}){0,99}$/, { error: EVENT_MSG.csvInts })
  .transform((s) => [...new Set(s.split(',').map(Number))]);

export const csvOf = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .trim()
    .min(1)
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()))])
    .pipe(z.array(z.enum(values as unknown as [T, ...T[]], { error: EVENT_MSG.option })).max(100));

/** 'YYYY-MM-DD' (a whole day) or an ISO date-time. */
export const dateBound = z
  .string()
  .trim()
  .refine((s) => /^\d{4}-\d{2}-\d{2}$/.test(s) || datetimeSchema.safeParse(s).success, { error: EVENT_MSG.datetime });
export const boolParam = z.enum(['true', 'false'], { error: EVENT_MSG.boolean }).transform((v) => v === 'true');
export const queryInt = z.coerce.number({ error: EVENT_MSG.integer }).int({ error: EVENT_MSG.integer });
const numParam = z.coerce.number({ error: EVENT_MSG.number });

export const pageQuery = {
  page: queryInt.min(1, { error: EVENT_MSG.tooSmall(1) }).default(1),
  page_size: queryInt
    .min(1, { error: EVENT_MSG.tooSmall(1) })
    .max(MAX_PAGE_SIZE, { error: EVENT_MSG.tooBig(MAX_PAGE_SIZE) })
    .default(DEFAULT_PAGE_SIZE),
};

// ---------------------------------------------------------------------------
// Modules and reference lists
// ---------------------------------------------------------------------------

export const moduleItem = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export const modulesResponse = z.object({ items: z.array(moduleItem) });

export const statusItem = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  is_final: z.boolean(),
  color: z.string(),
  sort: z.number().int(),
});
export const priorityItem = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  level: z.number().int(),
  color: z.string(),
});
export const decisionItem = z.object({ id: z.number().int(), code: z.string(), name: z.string(), sort: z.number().int() });
export const statusesResponse = z.object({ items: z.array(statusItem) });
export const prioritiesResponse = z.object({ items: z.array(priorityItem) });
export const decisionsResponse = z.object({ items: z.array(decisionItem) });
export type StatusItem = z.infer<typeof statusItem>;
export type PriorityItem = z.infer<typeof priorityItem>;
export type DecisionItem = z.infer<typeof decisionItem>;

/** Static categories (merchant breach / questionable categories). */
export const categoriesResponse = z.object({ items: z.array(z.object({ code: z.string(), name: z.string() })) });

// ---------------------------------------------------------------------------
// Per-module event schemas
// ---------------------------------------------------------------------------

/** A stored value's wire schema, by the field kind's JSON type. */
const OUTPUT_OF: Record<FieldKind['json'], () => z.ZodType> = {
  number: () => z.number().nullable(),
  boolean: () => z.boolean().nullable(),
  string_list: () => z.array(z.string()).nullable(),
  string: () => z.string().nullable(),
};
const outputOf = (f: FieldDescriptor): z.ZodType => OUTPUT_OF[FIELD_KINDS[f.type].json]();

/** A schema per module descriptor, built once. */
export const memo = <T>(build: (m: ModuleDescriptor) => T) => {
  const cache = new WeakMap<ModuleDescriptor, T>();
  return (m: ModuleDescriptor): T => {
    let v = cache.get(m);
    if (v === undefined) {
      v = build(m);
      cache.set(m, v);
    }
    return v;
  };
};

const titleInput = z
  .string({ error: MSG.required })
  .trim()
  .min(1, { error: MSG.required })
  .max(500, { error: MSG.tooLong(500) });
const tagIds = z
  .array(posInt, { error: EVENT_MSG.list })
  .max(MAX_TAGS_PER_EVENT, { error: EVENT_MSG.listTooLong(MAX_TAGS_PER_EVENT) });

/** Common event fields in a response; module fields are added per module. */
export const commonEventShape = {
  id: z.number().int(),
  module: z.string(),
  company_id: z.number().int(),
  company_name: z.string(),
  title: z.string(),
  status_id: z.number().int(),
  priority_id: z.number().int().nullable(),
  source: z.enum(SOURCES),
  ml_state: z.enum(ML_STATES),
  whitelist_kind: z.enum(WHITELIST_KINDS).nullable(),
  tags: z.array(z.number().int()),
  detected_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  author_id: z.number().int().nullable(),
  author_name: z.string().nullable(),
  import_id: z.number().int().nullable(),
  /** Who works on the event (a user who may read it); null: unassigned. */
  assignee_id: z.number().int().nullable(),
  assignee_name: z.string().nullable(),
  /** SLA: the pending deadline (contract sla.ts). */
  sla: eventSla,
};

/** One event in a list (common fields + the module's own; card numbers masked). */
export const eventResponse = memo((m) => {
  const shape: Record<string, z.ZodType> = { ...commonEventShape };
  if (hasDecisions(m)) shape.decision_id = z.number().int().nullable();
  for (const f of m.fields) shape[f.key] = outputOf(f);
  return z.object(shape).meta({ id: `Event_${m.code}` });
});

export const attachmentItem = z.object({
  id: z.number().int(),
  kind: z.string(),
  name: z.string(),
  mimetype: z.string(),
  size: z.number().int(),
  created_at: z.string(),
});

/** One event with its attachments and comment count (GET by id, create, patch). */
export const eventDetailResponse = memo((m) =>
  (eventResponse(m) as z.ZodObject)
    .extend({ comments_count: z.number().int(), attachments: z.array(attachmentItem) })
    .meta({ id: `EventDetail_${m.code}` }),
);

export const ruleMatch = z.object({ item_id: z.number().int(), rule_index: z.number().int() });

export const eventListResponse = memo((m) =>
  z.object({
    items: z.array(eventResponse(m)),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
    /** The filter matched more than COUNT_CAP rows (SEARCH_COUNT_CAP with `q`); `total` is that cap. */
    total_capped: z.boolean(),
    /**
     * Per-status counts of the same filter without the status filter (when `status_counts=true`);
     * statuses without events are left out. A list (no `q`) counts each status up to COUNT_CAP:
     * `capped` — more events have that status, `count` is COUNT_CAP.
     */
    status_counts: z
      .array(z.object({ status_id: z.number().int(), count: z.number().int(), capped: z.boolean().optional() }))
      .optional(),
    /**
     * A free-text search whose filter (without the status) matches more than SEARCH_COUNT_CAP events:
     * the per-status counts are not computed (`status_counts` is empty).
     */
    status_counts_capped: z.boolean().optional(),
    /** The rules the list was filtered by (when `rules` was given), and which rule matched each item. */
    rules: z.array(z.record(z.string(), z.unknown())).optional(),
    rules_map: z.array(ruleMatch).optional(),
    /**
     * Sorted by creation date: the cursor of the page after this one (`after`), null on the last
     * page; absent with other sorts.
     */
    next_cursor: z.string().nullable().optional(),
  }),
);

function moduleInputShape(m: ModuleDescriptor, mode: 'create' | 'patch'): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  for (const f of inputFields(m)) {
    if (mode === 'create') shape[f.key] = f.required ? f.input : f.input.nullish();
    else shape[f.key] = f.required ? f.input.optional() : f.input.nullish();
  }
  return shape;
}

/** POST /modules/{code}/events: common fields + the module's own; fields of other modules are refused. */
export const eventCreateRequest = memo((m) => {
  const shape: Record<string, z.ZodType> = {
    company_id: posInt.optional(),
    title: titleInput.optional(),
    status_id: posInt.optional(),
    priority_id: posInt.nullish(),
    source: z.enum(SOURCES, { error: EVENT_MSG.option }).optional(),
    ml_state: z.enum(ML_STATES, { error: EVENT_MSG.option }).optional(),
    detected_at: datetimeSchema.nullish(),
    tags: tagIds.optional(),
  };
  if (hasDecisions(m)) shape.decision_id = posInt.nullish();
  return z
    .object({ ...shape, ...moduleInputShape(m, 'create') })
    .strict()
    .meta({ id: `EventCreate_${m.code}` });
});

/** PATCH /modules/{code}/events/{id}: any subset; `tags` replaces, `tags_add`/`tags_remove` adjust. */
export const eventPatchRequest = memo((m) => {
  const shape: Record<string, z.ZodType> = {
    title: titleInput.optional(),
    status_id: posInt.optional(),
    priority_id: posInt.nullish(),
    source: z.enum(SOURCES, { error: EVENT_MSG.option }).optional(),
    ml_state: z.enum(ML_STATES, { error: EVENT_MSG.option }).optional(),
    detected_at: datetimeSchema.nullish(),
    tags: tagIds.optional(),
    tags_add: tagIds.optional(),
    tags_remove: tagIds.optional(),
    /** The assignee (a user id); null unassigns. */
    assignee_id: posInt.nullish(),
  };
  if (hasDecisions(m)) shape.decision_id = posInt.nullish();
  return z
    .object({ ...shape, ...moduleInputShape(m, 'patch') })
    .strict()
    .meta({ id: `EventPatch_${m.code}` });
});

/** `assignee`: `me` (the caller), `none` (unassigned) or a user id. */
export const assigneeParam = z.union([z.enum(['me', 'none']), z.coerce.number().int().positive().max(2_147_483_647)], {
  error: 'Исполнитель: me, none или номер пользователя',
});
export type AssigneeFilter = z.infer<typeof assigneeParam>;

/** `kind:value` of an indicator, brought to its normal form (so `phone:8 999 …` finds `phone:7999…`). */
export const indicatorParam = z
  .string()
  .max(400, { error: MSG.tooLong(400) })
  .transform((s, ctx) => {
    const p = parseIndicator(s);
    const normal = p ? indicatorOf(p.kind, p.value) : null;
    if (!normal) {
      ctx.addIssue({ code: 'custom', message: EVENT_MSG.badIndicator });
      return z.NEVER;
    }
    return normal;
  });

/** Filter parameters of a module's list (also the shape of one rule in `rules`). */
export const eventFilterShape = memo((m) => {
  const shape: Record<string, z.ZodType> = {
    q: z
      .string()
      .trim()
      .max(200, { error: MSG.tooLong(200) })
      .optional(),
    status: csvInts.optional(),
    priority: csvInts.optional(),
    source: csvOf(SOURCES).optional(),
    ml_state: csvOf(ML_STATES).optional(),
    whitelist_kind: csvOf([...WHITELIST_KINDS, 'none'] as const).optional(),
    tags: csvInts.optional(),
    created_from: dateBound.optional(),
    created_to: dateBound.optional(),
    detected_from: dateBound.optional(),
    detected_to: dateBound.optional(),
    import_id: queryInt.positive().optional(),
    author_id: queryInt.positive().optional(),
    assignee: assigneeParam.optional(),
    /** Events sharing an indicator, `kind:value` (modules/indicators.ts): the related events' filter. */
    indicator: indicatorParam.optional(),
    /** SLA state of the pending deadline (sla.ts SLA_FILTERS), comma-joined. */
    sla: csvOf(SLA_FILTERS).optional(),
  };
  if (hasDecisions(m)) shape.decision = csvInts.optional();
  for (const f of m.fields) {
    if (!f.filter) continue;
    switch (f.filter) {
      case 'eq':
      case 'contains':
        shape[f.key] = z
          .string()
          .trim()
          .min(1)
          .max(500, { error: MSG.tooLong(500) })
          .optional();
        break;
      case 'in':
        shape[f.key] = (
          FIELD_KINDS[f.type].filterValue === 'id' ? csvInts : csvOf((f.options ?? []).map((o) => o.value))
        ).optional();
        break;
      case 'bool':
        shape[f.key] = boolParam.optional();
        break;
      case 'range': {
        const bound =
          FIELD_KINDS[f.type].filterValue === 'date' || FIELD_KINDS[f.type].filterValue === 'datetime' ? dateBound : numParam;
        shape[`${f.key}_from`] = bound.optional();
        shape[`${f.key}_to`] = bound.optional();
        break;
      }
    }
  }
  return shape;
});

/** One rule of `rules`: the list's filters (values as in the query string, arrays allowed). */
export const eventRuleSchema = memo((m) =>
  z.preprocess(
    (v) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>).map(([k, x]) => [
              k,
              Array.isArray(x) ? x.join(',') : typeof x === 'number' || typeof x === 'boolean' ? String(x) : x,
            ]),
          )
        : v,
    z.object(eventFilterShape(m)).strict(),
  ),
);

export const eventListQuery = memo((m) => {
  const keys = sortKeysOf(m);
  const sorts = [...keys, ...keys.map((k) => `-${k}`)] as [string, ...string[]];
  return z
    .object({
      ...pageQuery,
      sort: z.enum(sorts, { error: EVENT_MSG.sortUnknown }).default('-created_at'),
      company_id: queryInt.min(-1).optional(),
      status_counts: boolParam.optional(),
      /**
       * Keyset paging: `next_cursor` of the previous page (sort `-created_at` or `created_at` only);
       * the page follows that event, whatever was added before it since, at the cost of page 1.
       */
      after: z.string().max(200, { error: EVENT_MSG.cursorInvalid }).optional(),
      /** JSON array of rule objects (each: the list's filters); items matching any rule are listed. */
      rules: z
        .string()
        .max(20_000, { error: MSG.tooLong(20_000) })
        .optional(),
      ...eventFilterShape(m),
    })
    .strict();
});

export type EventListQuery = {
  page: number;
  page_size: number;
  sort: string;
  company_id?: number;
  status_counts?: boolean;
  after?: string;
  rules?: string;
} & Record<string, unknown>;

export const eventHistoryItem = z.object({
  id: z.number().int(),
  at: z.string(),
  /** `undo`: the field went back by «Отменить» of an earlier change. */
  action: z.enum(['create', 'update', 'action', 'link', 'unlink', 'undo']),
  field: z.string().nullable(),
  field_label: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  actor_id: z.number().int().nullable(),
  actor_name: z.string().nullable(),
});
export const eventHistoryResponse = z.object({ items: z.array(eventHistoryItem) });
export type EventHistoryItem = z.infer<typeof eventHistoryItem>;

// ---------------------------------------------------------------------------
// Batch changes on the collection (every module), actions, card reveal
// ---------------------------------------------------------------------------

const batchIds = z
  .array(eventId, { error: EVENT_MSG.list })
  .min(1, { error: MSG.required })
  .max(MAX_BATCH, { error: EVENT_MSG.listTooLong(MAX_BATCH) });
export const batchDeleteRequest = z.object({ ids: batchIds }).strict();
export const batchPatchRequest = memo((m) => z.object({ ids: batchIds, patch: eventPatchRequest(m) }).strict());
export const batchResponse = z.object({ ids: z.array(z.number().int()), count: z.number().int() });
/** PATCH …/events: also the token of «Отменить» (null: nothing changed). */
export const batchPatchResponse = batchResponse.extend({ undo_token: z.string().nullable() });

// ---------------------------------------------------------------------------
// «Отменить» a change of many events (the collection PATCH or a change by filter)
// ---------------------------------------------------------------------------

/** How long after a change its author may undo it (the console offers it for 10 s). */
export const UNDO_TTL_SECONDS = 300;
export const UNDO_MSG = {
  notFound: 'Изменение для отмены не найдено',
  expired: 'Время для отмены изменения истекло',
  done: 'Изменение уже отменено',
} as const;
export const undoParam = z.object({ token: z.uuid({ error: UNDO_MSG.notFound }) });
export const undoResponse = z.object({
  /** Events whose fields went back. */
  restored: z.number().int(),
  /** Events (some of) whose changed fields were changed since by someone else, or are gone: left as they are. */
  skipped: z.number().int(),
  ids: z.array(z.number().int()),
});
export type UndoResponse = z.infer<typeof undoResponse>;

export const eventActionRequest = memo((m) => {
  const codes = (m.actions ?? []).map((a) => a.code) as [string, ...string[]];
  return z
    .object({
      action: z.enum(codes, { error: EVENT_MSG.actionUnknown }),
      comment: z
        .string()
        .trim()
        .max(2000, { error: MSG.tooLong(2000) })
        .optional(),
    })
    .strict();
});
export const eventActionResponse = z.object({
  action: z.string(),
  label: z.string(),
  at: z.string(),
  history_id: z.number().int(),
  /** The allowlist entry created by the `allowlist` action. */
  allowlist_id: z.number().int().optional(),
  /** The `recheck` action queued a snapshot of the domain (false: the queue is not available). */
  snapshot_queued: z.boolean().optional(),
  /** The `recheck` action found a check of this domain already queued this minute (nothing new queued). */
  snapshot_throttled: z.boolean().optional(),
});

/** POST …/events/actions: one action for a list of events, all or nothing, each recorded on its event. */
export const batchActionRequest = memo((m) => eventActionRequest(m).extend({ ids: batchIds }));
export const batchActionResponse = batchResponse.extend({
  action: z.string(),
  label: z.string(),
  at: z.string(),
  /** Per event: its history entry and what the action's extra work returned. */
  items: z.array(eventActionResponse.omit({ action: true, label: true, at: true }).extend({ id: z.number().int() })),
});

export const cardRevealResponse = z.object({ card_number: z.string() });
