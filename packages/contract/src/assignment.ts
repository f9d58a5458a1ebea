/*
 * Assignment: an event's assignee (events.assignee_id) — the picker's list of users who may see the
 * events of a company and module, and «Мои события», the caller's assigned events across modules.
 */
import { z } from 'zod';
import { MY_EVENTS_DEFAULT_SORT, MY_EVENTS_SORTS } from './enums';
import { boolParam, commonEventShape, pageQuery, queryInt } from './events';
import { MSG } from './messages';
import { EVENT_MSG, MODULE_CODES } from './modules/index';
import { eventSla } from './sla';

export const ASSIGN_MSG = {
  cannotSee: 'Пользователь не может видеть это событие',
} as const;

/**
 * GET /modules/{code}/assignees: who may be assigned events of a company in this module. Without
 * `company_id`: the caller's only company, or — for staff — staff users (they see every company).
 */
export const assigneesQuery = z
  .object({
    company_id: queryInt.positive({ error: EVENT_MSG.companyRequired }).optional(),
    q: z
      .string()
      .trim()
      .max(200, { error: MSG.tooLong(200) })
      .optional(),
  })
  .strict();
export const assigneeItem = z.object({ id: z.number().int(), name: z.string(), email: z.string() });
export type AssigneeItem = z.infer<typeof assigneeItem>;
export const assigneesResponse = z.object({ items: z.array(assigneeItem) });

export { MY_EVENTS_DEFAULT_SORT, MY_EVENTS_SORTS };

/** GET /events/assigned: the caller's events across the modules and companies they may read. */
export const myEventsQuery = z
  .object({
    ...pageQuery,
    /** The nearest deadline first by default (a personal queue): `sla_due_at`, then the newest. */
    sort: z.enum(MY_EVENTS_SORTS, { error: EVENT_MSG.sortUnknown }).default(MY_EVENTS_DEFAULT_SORT),
    /** Status codes (new, in_progress, …: the same code in every module). */
    status: z
      .string()
      .max(500, { error: MSG.tooLong(500) })
      .transform((v) =>
        v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      )
      .optional(),
    /** Only events whose status is not final (the default of the page). */
    open: boolParam.optional(),
    module: z.enum(MODULE_CODES, { error: EVENT_MSG.moduleNotFound }).optional(),
  })
  .strict();
export type MyEventsQuery = z.infer<typeof myEventsQuery>;

/** An assigned event: its common columns, with its status and priority named (they differ per module). */
export const myEventItem = z
  .object(commonEventShape)
  .pick({
    id: true,
    module: true,
    company_id: true,
    company_name: true,
    title: true,
    status_id: true,
    priority_id: true,
    created_at: true,
    updated_at: true,
  })
  .extend({
    status_name: z.string(),
    status_color: z.string(),
    status_final: z.boolean(),
    priority_name: z.string().nullable(),
    priority_color: z.string().nullable(),
    /** The pending deadline, as in the module lists. */
    sla: eventSla,
    assignee_id: z.number().int().nullable(),
    assignee_name: z.string().nullable(),
  });
export type MyEventItem = z.infer<typeof myEventItem>;
export const myEventsResponse = z.object({
  items: z.array(myEventItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  total_capped: z.boolean(),
});
