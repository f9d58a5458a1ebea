/*
 * Whitelists: a company's own and the global one. An event whose domain, URL, e-mail, IP, name or
 * ИНН matches an entry is marked with the entry's kind (client, partner, undefined).
 */
import { z } from 'zod';
import { listResponse, pageQuery, textId } from './common';
import { WHITELIST_SORTS, WHITELIST_TYPES, type WhitelistType } from './enums';
import { unicodeToPunycode } from './helpers';
import { MSG } from './messages';
import { WHITELIST_KINDS } from './modules/common';
import { isDomain, isEmail, isInn, isIPv4, isIPv6, isIpOrCidr, isUrl } from './validation';

export { WHITELIST_TYPES, type WhitelistType };
export const WHITELIST_TYPE_LABELS: Record<WhitelistType, string> = {
  domain: 'Домен',
  url: 'URL',
  email: 'Email',
  ip: 'IP или подсеть',
  name: 'Наименование',
  inn: 'ИНН',
};

// The kinds are an event field too: one definition, in the event modules' common enumerations.
export { WHITELIST_KIND_LABELS, WHITELIST_KINDS, type WhitelistKind } from './modules/common';

export const WHITELIST_MSG = {
  duplicate: 'Такая запись уже есть в белом списке',
  duplicateInText: 'Повтор строки выше',
  name: 'Наименование должно содержать буквы',
  tooManyLines: (n: number) => `Не более ${n} строк за один раз`,
  notFound: 'Запись белого списка не найдена',
  badChar: 'Недопустимый символ в тексте',
  companyNotFound: 'Компания не найдена',
  emptyText: 'Вставьте хотя бы одну строку',
} as const;

export const WHITELIST_BULK_MAX_LINES = 5000;
const VALUE_MAX = 2000;

// ---------------------------------------------------------------------------
// Normalisation (shared by the API's duplicate check and matching, and the console's preview)
// ---------------------------------------------------------------------------

function expandIPv6(s: string): number[] | null {
  let str = s;
  let tail: number[] = [];
  if (str.includes('.')) {
    const i = str.lastIndexOf(':');
    const v4 = str.slice(i + 1);
    if (!isIPv4(v4)) return null;
    const o = v4.split('.').map(Number) as [number, number, number, number];
    tail = [o[0] * 256 + o[1], o[2] * 256 + o[3]];
    str = str.slice(0, i + 1);
    if (!str.endsWith('::')) str = str.slice(0, -1);
  }
  const want = 8 - tail.length;
  let groups: string[];
  const dbl = str.indexOf('::');
  if (dbl >= 0) {
    const head = str.slice(0, dbl) ? str.slice(0, dbl).split(':') : [];
    const rest = str.slice(dbl + 2) ? str.slice(dbl + 2).split(':') : [];
    const missing = want - head.length - rest.length;
    if (missing < 0) return null;
    groups = [...head, ...Array<string>(missing).fill('0'), ...rest];
  } else {
    groups = str ? str.split(':') : [];
  }
  if (groups.length !== want) return null;
  const out = groups.map((g) => Number.parseInt(g, 16));
  if (out.some((n) => !Number.isInteger(n) || n < 0 || n > 0xffff)) return null;
  return [...out, ...tail];
}

/** RFC 5952 text of 8 groups: lower-case, longest zero run (≥ 2) compressed. */
function compressIPv6(g: number[]): string {
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = g.map((n) => n.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/**
 * Canonical text of an IP or CIDR: IPv4 as is; IPv6 compressed and lower-cased; an IPv4-mapped
 * IPv6 address ('::ffff:10.0.0.1', '/104' and longer prefixes) becomes plain IPv4. Null if invalid.
 */
export function canonicalIp(input: string): string | null {
  const s = input.trim().toLowerCase();
  if (!isIpOrCidr(s)) return null;
  const [addr = '', prefixS] = s.split('/');
  const prefix = prefixS === undefined ? null : Number(prefixS);
  if (isIPv4(addr)) return prefix === null ? addr : `${addr}/${prefix}`;
  if (!isIPv6(addr)) return null;
  const g = expandIPv6(addr);
  if (!g) return null;
  const mapped = g.slice(0, 5).every((n) => n === 0) && g[5] === 0xffff;
  if (mapped && (prefix === null || prefix >= 96)) {
    const a = g[6] ?? 0;
    const b = g[7] ?? 0;
    const v4 = `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
    return prefix === null ? v4 : `${v4}/${prefix - 96}`;
  }
  const text = compressIPv6(g);
  return prefix === null ? text : `${text}/${prefix}`;
}

/** Host in its ASCII (punycode) form, lower-cased, without a trailing dot. */
export function domainKey(domain: string): string {
  return unicodeToPunycode(domain.trim().replace(/\.$/, '')).toLowerCase();
}

/** URL compared without scheme and fragment: 'HTTPS://Ex.com/a/' → 'ex.com/a'. */
export function urlKey(url: string): string | null {
  try {
    const u = new URL(url.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    const host = domainKey(u.hostname);
    const port = u.port ? `:${u.port}` : '';
    const path = u.pathname.replace(/\/+$/, '');
    return `${host}${port}${path}${u.search}`;
  } catch {
    return null;
  }
}

/** Names compare case-, ё- and quote-insensitively, with single spaces. */
export function nameKey(name: string): string {
  return name
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(/[«»"'“”„`]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function emailKey(email: string): string {
  const s = email.trim().toLowerCase();
  const at = s.lastIndexOf('@');
  return `${s.slice(0, at)}@${domainKey(s.slice(at + 1))}`;
}

export type NormalisedEntry = { ok: true; value: string; key: string } | { ok: false; error: string };

/**
 * Validates `raw` as a whitelist value of `type`. `value` is what is shown (trimmed, tidied),
 * `key` what duplicates and matching compare.
 */
export function normaliseWhitelistValue(type: WhitelistType, raw: string): NormalisedEntry {
  const s = raw.trim();
  if (s === '') return { ok: false, error: MSG.required };
  if (s.includes('\u0000')) return { ok: false, error: WHITELIST_MSG.badChar };
  if (s.length > VALUE_MAX) return { ok: false, error: MSG.tooLong(VALUE_MAX) };
  switch (type) {
    case 'domain': {
      const d = s.toLowerCase().replace(/\.$/, '');
      return isDomain(d) ? { ok: true, value: d, key: domainKey(d) } : { ok: false, error: MSG.domain };
    }
    case 'url': {
      const key = isUrl(s) ? urlKey(s) : null;
      return key ? { ok: true, value: s, key } : { ok: false, error: MSG.url };
    }
    case 'email': {
      const e = s.toLowerCase();
      return isEmail(e) ? { ok: true, value: e, key: emailKey(e) } : { ok: false, error: MSG.email };
    }
    case 'ip': {
      const c = canonicalIp(s);
      return c ? { ok: true, value: c, key: c } : { ok: false, error: MSG.ip };
    }
    case 'inn':
      return isInn(s) ? { ok: true, value: s, key: s } : { ok: false, error: MSG.inn };
    case 'name': {
      const v = s.replace(/\s+/g, ' ');
      return /\p{L}/u.test(v) ? { ok: true, value: v, key: nameKey(v) } : { ok: false, error: WHITELIST_MSG.name };
    }
  }
}

/**
 * Guesses the type of a pasted line: IP/CIDR-looking → ip, scheme or path → url, '@' → email,
 * digits → inn, a dotted word without spaces → domain, anything else → name. The guess only
 * picks the validator; a malformed value still gets that type's message.
 */
export function detectWhitelistType(raw: string): WhitelistType {
  const s = raw.trim();
  if (/^[0-9.]+(\/\d+)?$/.test(s) && s.includes('.')) return 'ip';
  if (/^[0-9a-f:.]+(\/\d+)?$/i.test(s) && (s.match(/:/g)?.length ?? 0) >= 2) return 'ip';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s) || (/^[^\s/@]+\.[^\s/@]+\/\S*$/.test(s) && !s.includes(' '))) return 'url';
  if (s.includes('@') && !/\s/.test(s)) return 'email';
  if (/^\d+$/.test(s)) return 'inn';
  if (s.includes('.') && !/\s/.test(s)) return 'domain';
  return 'name';
}

// ---------------------------------------------------------------------------
// HTTP shapes
// ---------------------------------------------------------------------------

/** PostgreSQL text cannot hold NUL: refuse it instead of failing at the database. */
const noNul = (s: string) => !s.includes('\u0000');
const text = () => z.string().refine(noNul, { error: WHITELIST_MSG.badChar });
const comment = text().trim().max(1000, MSG.tooLong(1000));
const expiresAt = z.iso.datetime({ offset: true, error: 'Неверная дата' });

/** Adds the value's own message to `value` when it does not fit its type. */
function checkValue(v: { type?: WhitelistType; value?: string }, ctx: z.RefinementCtx) {
  if (v.type === undefined || v.value === undefined) return;
  const r = normaliseWhitelistValue(v.type, v.value);
  if (!r.ok) ctx.addIssue({ code: 'custom', path: ['value'], message: r.error });
}

export const createWhitelistItemRequest = z
  .strictObject({
    type: z.enum(WHITELIST_TYPES),
    value: z.string({ error: MSG.required }).max(VALUE_MAX, MSG.tooLong(VALUE_MAX)),
    kind: z.enum(WHITELIST_KINDS).default('undefined'),
    comment: comment.nullable().optional(),
    expires_at: expiresAt.nullable().optional(),
  })
  .superRefine(checkValue);
export type CreateWhitelistItem = z.infer<typeof createWhitelistItemRequest>;

export const updateWhitelistItemRequest = z
  .strictObject({
    type: z.enum(WHITELIST_TYPES).optional(),
    value: z.string().max(VALUE_MAX, MSG.tooLong(VALUE_MAX)).optional(),
    kind: z.enum(WHITELIST_KINDS).optional(),
    comment: comment.nullable().optional(),
    expires_at: expiresAt.nullable().optional(),
  })
  .superRefine(checkValue);
export type UpdateWhitelistItem = z.infer<typeof updateWhitelistItemRequest>;

export const bulkWhitelistRequest = z.strictObject({
  text: z.string({ error: MSG.required }).max(1_000_000, MSG.tooLong(1_000_000)),
  /** Type of every line; absent = detected per line. */
  type: z.enum(WHITELIST_TYPES).optional(),
  kind: z.enum(WHITELIST_KINDS).default('undefined'),
  comment: comment.nullable().optional(),
  expires_at: expiresAt.nullable().optional(),
});
export type BulkWhitelistRequest = z.infer<typeof bulkWhitelistRequest>;

export const bulkWhitelistLine = z.object({
  /** 1-based line number in the pasted text. */
  line: z.number().int(),
  value: z.string(),
  type: z.enum(WHITELIST_TYPES),
  ok: z.boolean(),
  error: z.string().optional(),
  id: z.number().int().optional(),
});
export const bulkWhitelistResponse = z.object({
  items: z.array(bulkWhitelistLine),
  created: z.number().int(),
  failed: z.number().int(),
});

export const whitelistItemResponse = z.object({
  id: z.number().int(),
  /** null: the global whitelist. */
  company_id: z.number().int().nullable(),
  type: z.enum(WHITELIST_TYPES),
  value: z.string(),
  kind: z.enum(WHITELIST_KINDS),
  comment: z.string().nullable(),
  expires_at: z.string().nullable(),
  is_expired: z.boolean(),
  created_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WhitelistItem = z.infer<typeof whitelistItemResponse>;

export { WHITELIST_SORTS };

export const whitelistListQuery = pageQuery.extend({
  q: text().trim().max(200).optional(),
  type: z.enum(WHITELIST_TYPES).optional(),
  kind: z.enum(WHITELIST_KINDS).optional(),
  /** true: only expired, false: only active; absent: both. */
  expired: z.enum(['true', 'false']).optional(),
  sort: z.enum(WHITELIST_SORTS).default('-created_at'),
});
export type WhitelistListQuery = z.infer<typeof whitelistListQuery>;
export const whitelistListResponse = listResponse(whitelistItemResponse);

export const whitelistCompanyParams = z.object({ id: textId() });
export const whitelistItemParams = z.object({
  id: textId(),
  itemId: textId(),
});

/** What an event offers for matching. Every field is optional. */
export interface WhitelistSubject {
  domain?: string | null;
  url?: string | null;
  email?: string | null;
  ip?: string | null;
  inn?: string | null;
  name?: string | null;
}
