import { z } from 'zod';
import { API_MSG } from './errors';

/** Query-string page parameters shared by every list: ?page=1&page_size=20&sort=-created_at */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(500).default(20),
});
export type PageQuery = z.infer<typeof pageQuery>;

/** A list response: {items, total, page, page_size}. */
export const listResponse = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });

/** Comma-joined array in a query string: `status=1,2` → [1, 2]. */
export const csvInts = z
  .string()
  .max(2000)
  .transform((s, ctx) => {
    const parts = s.split(',').filter(Boolean).map(Number);
    if (parts.some((n) => !Number.isInteger(n))) {
      ctx.addIssue({ code: 'custom', message: 'Ожидался список чисел через запятую' });
      return z.NEVER;
    }
    return parts;
  });
export const csvStrings = z
  .string()
  .max(4000)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

/** Largest id of a `serial` (int4) column; `bigserial` ids go up to JavaScript's safe integer. */
export const INT4_MAX = 2_147_483_647;
export const BIGSERIAL_MAX = Number.MAX_SAFE_INTEGER;
const ID_MSG = API_MSG.badId;

/**
 * The one id rule, for every id in a path, a query string or a body: a positive integer its column
 * can hold (`max`: INT4_MAX for `serial` tables, BIGSERIAL_MAX for `bigserial` ones). An id outside
 * that is refused here with «Неверный идентификатор», never sent to SQL to fail there.
 */
export function idRule(n: z.ZodNumber, max: number = INT4_MAX) {
  return n.int({ error: ID_MSG }).positive({ error: ID_MSG }).max(max, { error: ID_MSG });
}
/** An id in a JSON body (`required`: the message when it is absent or not a number). */
export const bodyId = (required: string = ID_MSG, max: number = INT4_MAX) => idRule(z.number({ error: required }), max);
/** Plain decimal digits, no sign, no leading zero, no spaces (`01`, `+1`, ` 1`, `0x1F`, `1e3` are refused). */
const ID_TEXT = /^[1-9][0-9]{0,15}$/;
/** An id in a path, a query string or a form field (text; a number is taken as is). */
export const textId = (max: number = INT4_MAX) =>
  z
    .union([z.number(), z.string().regex(ID_TEXT, { error: ID_MSG }).transform(Number)], { error: ID_MSG })
    .pipe(idRule(z.number({ error: ID_MSG }), max));
export const idParam = z.object({ id: textId() });
export const isoDate = z.iso.datetime({ offset: true });
/** Company selector in a query: absent or -1 means every company the user may see. */
export const companyQuery = z.coerce
  .number({ error: ID_MSG })
  .int({ error: ID_MSG })
  .min(-1, { error: ID_MSG })
  .max(INT4_MAX, { error: ID_MSG })
  .optional();

/**
 * A list of objects where `key` names each at most once (a company in a user's memberships, a user in
 * a company's members): the repeat is refused at its index instead of failing in SQL.
 */
export function uniqueBy<T extends z.ZodType>(item: T, key: string, message: string) {
  return z.array(item).superRefine((list, ctx) => {
    const seen = new Set<unknown>();
    list.forEach((x, i) => {
      const v = (x as Record<string, unknown>)[key];
      if (seen.has(v)) ctx.addIssue({ code: 'custom', message, path: [i, key] });
      seen.add(v);
    });
  });
}
