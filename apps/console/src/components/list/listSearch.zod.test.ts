/*
 * The URL validators (listSearch.ts) are plain functions so that zod stays out of the sign-in page's
 * bundle (issue #16). They replaced zod schemas; this checks, on random URL-like input, that they give
 * exactly what those schemas gave: the same keys in the same order, the same values.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pageFields, searchBool, searchBoolText, searchDay, searchEnum, searchInt, searchSchema, searchText } from './listSearch';

/* The zod schemas the validators replaced, verbatim. */
const zInt = (min = 1, max = 2_147_483_647) => z.coerce.number().int().min(min).max(max).optional().catch(undefined);
const zText = (max = 200) =>
  z
    .preprocess((v) => (v === undefined || v === null ? undefined : String(v)), z.string().trim().max(max).optional())
    .transform((s) => (s === '' ? undefined : s))
    .catch(undefined);
const zBool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean().optional()).catch(undefined);
const zDay = z
  .preprocess(
    (v) => (v === undefined || v === null ? undefined : String(v)),
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  )
  .catch(undefined);
const zBoolText = z
  .preprocess((v) => (typeof v === 'boolean' ? String(v) : v), z.enum(['true', 'false']).optional())
  .catch(undefined);
const SORTS = ['created_at', '-created_at'] as const;
const zEnum = z.enum(SORTS).optional().catch(undefined);

const light = searchSchema({
  q: searchText(),
  short: searchText(5),
  n: searchInt(),
  ...pageFields,
  active: searchBool,
  expired: searchBoolText,
  from: searchDay,
  sort: searchEnum(SORTS),
});
const zod = z.object({
  q: zText(),
  short: zText(5),
  n: zInt(),
  page: zInt(),
  page_size: zInt(1, 500),
  active: zBool,
  expired: zBoolText,
  from: zDay,
  sort: zEnum,
});

/** What the router may hand a validator: strings (also numeric, padded, empty), numbers, booleans, arrays, null. */
const value = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom('', ' ', ' 7 ', '1e2', '0x10', '-1', '2.5', '500', '501', 'true', 'false', 'TRUE', '2026-01-31', ' 2026-01-31'),
  fc.constantFrom('created_at', '-created_at', 'x'.repeat(201), ` ${'y'.repeat(200)} `, 'abcdef', ' abcde '),
  fc.integer({ min: -3, max: 2_147_483_650 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 3 }),
);
const KEYS = ['q', 'short', 'n', 'page', 'page_size', 'active', 'expired', 'from', 'sort', 'other'];

describe('URL validators without zod', () => {
  it('give what the zod schemas gave, key for key', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...KEYS), value), (raw) => {
        const a = light(raw);
        const b = zod.parse(raw);
        expect(a).toStrictEqual(b);
        expect(Object.keys(a)).toEqual(Object.keys(b));
      }),
      { numRuns: 3000 },
    );
  });
});
