import { z } from 'zod';

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

export const idParam = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const isoDate = z.iso.datetime({ offset: true });
/** Company selector in a query: absent or -1 means every company the user may see. */
export const companyQuery = z.coerce.number().int().min(-1).max(2_147_483_647).optional();
