/*
 * Route rules (issue #16): an admin-managed table of redirects from old console paths. The server's
 * SPA fallback and the console's «not found» handling look a path up; a rule's target is a console
 * path (followed by the router) or an absolute http(s) URL (the whole window navigates).
 */
import { z } from 'zod';
import { pageQuery } from './events';
import { MSG } from './messages';
import { CONTROL_CHARS, normalizeRuleTarget, ROUTE_RULE_MSG } from './redirect';

export * from './redirect';

/**
 * The stored form of a path: percent-decoded where valid, without a trailing slash (except «/»).
 * null when it is not a path ('/' first, not '//' — that is another host).
 */
export function normalizeRulePath(raw: string): string | null {
  let p = raw.trim();
  if (!p.startsWith('/') || p.startsWith('//')) return null;
  try {
    p = decodeURIComponent(p);
  } catch {
    // Keep an undecodable path as typed: it is compared the same way at lookup.
  }
  if (p.length > 1) p = p.replace(/\/+$/, '') || '/';
  return p;
}

const pathSchema = z
  .string({ error: MSG.required })
  .refine((p) => !CONTROL_CHARS.test(p), { error: ROUTE_RULE_MSG.control, abort: true })
  .trim()
  .min(1, { error: MSG.required })
  .max(500, { error: MSG.tooLong(500) })
  .refine((p) => p.startsWith('/') && !p.startsWith('//'), { error: ROUTE_RULE_MSG.pathStart })
  .refine((p) => !/[?#]/.test(p), { error: ROUTE_RULE_MSG.pathQuery })
  .transform((p) => normalizeRulePath(p) ?? p);
const targetSchema = z
  .string({ error: MSG.required })
  .max(2000, { error: MSG.tooLong(2000) })
  .refine((t) => t.trim() !== '', { error: MSG.required, abort: true })
  .transform((t, ctx) => {
    const n = normalizeRuleTarget(t);
    if ('target' in n) return n.target;
    ctx.addIssue({ code: 'custom', message: n.error });
    return z.NEVER;
  })
  .refine((t) => t.length <= 2000, { error: MSG.tooLong(2000) });
const commentSchema = z
  .string()
  .trim()
  .max(500, { error: MSG.tooLong(500) })
  .nullable();

export const routeRuleItem = z.object({
  id: z.number().int(),
  path: z.string(),
  target: z.string(),
  external: z.boolean(),
  permanent: z.boolean(),
  comment: z.string().nullable(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type RouteRule = z.infer<typeof routeRuleItem>;

export const routeRuleListQuery = z.object({ q: z.string().trim().max(500).optional(), ...pageQuery }).strict();
export const routeRuleListResponse = z.object({
  items: z.array(routeRuleItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export const routeRuleCreateRequest = z
  .object({
    path: pathSchema,
    target: targetSchema,
    permanent: z.boolean().default(false),
    comment: commentSchema.optional(),
  })
  .strict();
export type RouteRuleCreate = z.input<typeof routeRuleCreateRequest>;
export const routeRulePatchRequest = z
  .object({
    path: pathSchema.optional(),
    target: targetSchema.optional(),
    permanent: z.boolean().optional(),
    comment: commentSchema.optional(),
  })
  .strict();

/** GET /route-rules/lookup?path=: the redirect for a path that is no console route, or null. */
export const routeRuleLookupQuery = z.object({ path: z.string().max(2000, { error: MSG.tooLong(2000) }) }).strict();
export const routeRuleLookupResponse = z.object({
  redirect: z.object({ to: z.string(), external: z.boolean(), permanent: z.boolean() }).nullable(),
});
export type RouteRuleLookup = z.infer<typeof routeRuleLookupResponse>;
