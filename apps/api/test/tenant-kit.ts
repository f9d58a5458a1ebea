/*
 * Kit of the tenant isolation test (tenant-isolation.test.ts): the principals of company A, one
 * request shape for JSON and multipart calls (cookie or API key), the id slots of every route
 * (read from the route table and the OpenAPI document), a fingerprint of company B's data, and the
 * findings with their summary.
 */
import { API_MSG } from '@forpost/contract/errors';
import { MODULE_CODES } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import type { Client, TestContext } from './helpers';
import { ORIGIN } from './helpers';
import { type FilePart, multipart } from './imports-kit';

/** In every name and text of company B's objects (and in B's company name): never in an answer to A. */
export const MARKER = 'zzbeta';
/** An id no object has (within the int4 range of every id column). */
export const GHOST = 2_147_000_000;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export interface Req {
  method: Method;
  /** Under /api/v1, with the query string. */
  url: string;
  body?: unknown;
  /** multipart/form-data (POST): fields first, then the file. */
  form?: { fields: Record<string, string>; file: FilePart };
}
export interface Res {
  status: number;
  body: string;
  raw: Buffer;
  message: string | undefined;
  json: () => unknown;
}

/** Who calls: a signed-in user (cookies) or an API key (Bearer). */
export interface Principal {
  name: string;
  client: Client;
  headers: Record<string, string>;
  isKey: boolean;
}

const messageOf = (body: string): string | undefined => {
  try {
    const m = (JSON.parse(body) as { message?: unknown }).message;
    return typeof m === 'string' ? m : undefined;
  } catch {
    return undefined;
  }
};

export async function send(ctx: TestContext, p: Principal, r: Req): Promise<Res> {
  let res: Awaited<ReturnType<Client['req']>>;
  if (r.form) {
    const { payload, contentType } = multipart(r.form.fields, r.form.file);
    const cookie = [...p.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1${r.url}`,
      headers: { ...(cookie ? { cookie } : {}), origin: ORIGIN, 'content-type': contentType, ...p.headers },
      payload,
    });
  } else {
    res = await p.client.req(r.method, r.url, r.body, p.headers);
  }
  const body = res.body;
  return { status: res.statusCode, body, raw: res.rawPayload, message: messageOf(body), json: () => JSON.parse(body) };
}

/** Answers of the route gate (the principal may not use the route at all, whatever the id). */
const sessionOnly = (API_MSG as Record<string, unknown>).sessionOnly;
const GATE_MESSAGES: ReadonlySet<unknown> = new Set([API_MSG.forbidden, sessionOnly].filter(Boolean));
export const isGate = (r: Res) => r.status === 403 && GATE_MESSAGES.has(r.message);

// ---------------------------------------------------------------------------
// Id slots of the routes
// ---------------------------------------------------------------------------

const MODULE_SEGMENT = new RegExp(`/modules/(${MODULE_CODES.join('|')})(?=/)`);
/** '/api/v1/modules/brand/events/:id' → '/modules/{m}/events/:id' (one key for the sixteen modules). */
export const routeKey = (method: string, url: string) =>
  `${method} ${url.replace(/^\/api\/v1/, '').replace(MODULE_SEGMENT, '/modules/{m}')}`;
export const moduleOf = (url: string) => MODULE_SEGMENT.exec(url)?.[1];

/** Names that hold an id: `id`, `ids`, `…_id`, `…_ids`. */
const ID_NAME = /(^|_)ids?$/;

type Schema = {
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
};
interface OpenApi {
  paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: unknown }>>;
  components?: { schemas?: Record<string, Schema> };
}

function bodyIdFields(doc: OpenApi, schema: Schema | undefined, prefix: string, seen: Set<string>, out: Set<string>) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? '';
    if (seen.has(name)) return;
    bodyIdFields(doc, doc.components?.schemas?.[name], prefix, new Set([...seen, name]), out);
    return;
  }
  for (const [k, v] of Object.entries(schema.properties ?? {})) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (ID_NAME.test(k)) out.add(`body:${p}`);
    bodyIdFields(doc, v, p, seen, out);
  }
  if (schema.items) bodyIdFields(doc, schema.items, prefix, seen, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    bodyIdFields(doc, schema.additionalProperties, prefix, seen, out);
  for (const s of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
    bodyIdFields(doc, s, prefix, seen, out);
}

/**
 * The id slots of every non-public route, by route key: path parameters (`path:id`), id fields of the
 * JSON body (`body:company_id`, `body:companies.company_id`) and id query parameters (`query:event_id`).
 * `company_id` of a GET's query string is not a slot here: the list sweep calls every GET list with
 * another company's id.
 */
export function idSlots(ctx: TestContext): Map<string, { routes: { method: string; url: string }[]; slots: Set<string> }> {
  const doc = ctx.app.swagger() as unknown as OpenApi;
  const out = new Map<string, { routes: { method: string; url: string }[]; slots: Set<string> }>();
  for (const r of ctx.app.routeTable) {
    if (r.permission === 'public') continue;
    const slots = new Set<string>();
    for (const m of r.url.matchAll(/:(\w+)/g)) slots.add(`path:${m[1]}`);
    if (r.url.includes('*')) slots.add('path:*');
    const op = doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
    for (const prm of op?.parameters ?? []) {
      if (prm.in === 'query' && ID_NAME.test(prm.name) && !(r.method === 'GET' && prm.name === 'company_id'))
        slots.add(`query:${prm.name}`);
    }
    const body = (op?.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content?.['application/json']
      ?.schema;
    bodyIdFields(doc, body, '', new Set(), slots);
    if (!slots.size) continue;
    const key = routeKey(r.method, r.url);
    const e = out.get(key) ?? { routes: [], slots: new Set<string>() };
    e.routes.push({ method: r.method, url: r.url });
    for (const s of slots) e.slots.add(s);
    out.set(key, e);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Company B's data (and the staff owner's company-less objects), for "nothing changed"
// ---------------------------------------------------------------------------

/** One JSON line per table: the rows an attempt by A must never change. */
export async function fingerprint(
  ctx: TestContext,
  s: { B: number; ownerId: number; bUserId: number },
): Promise<Record<string, string>> {
  const { B, ownerId, bUserId } = s;
  const q = async (name: string, query: ReturnType<typeof sql>) => {
    const r = await ctx.database.db.execute(query);
    return [name, JSON.stringify(r.rows)] as const;
  };
  const bEvents = sql`(SELECT id FROM events WHERE company_id = ${B})`;
  const rows = await Promise.all([
    q('companies', sql`SELECT to_jsonb(c) AS j FROM companies c WHERE id = ${B}`),
    q(
      'events',
      sql`SELECT id, module, title, status_id, priority_id, decision_id, tags, data, ml_state, company_id, updated_at FROM events WHERE company_id = ${B} ORDER BY id`,
    ),
    q('event_history', sql`SELECT count(*)::int AS n, max(id) AS last FROM event_history WHERE event_id IN ${bEvents}`),
    q('event_ml', sql`SELECT to_jsonb(m) AS j FROM event_ml m WHERE event_id IN ${bEvents} ORDER BY event_id`),
    q('event_comments', sql`SELECT id, text, updated_at FROM event_comments WHERE event_id IN ${bEvents} ORDER BY id`),
    q(
      'docs',
      sql`SELECT id, name, company_id, event_id, storage_key, updated_at FROM docs WHERE company_id = ${B} OR company_id IS NULL ORDER BY id`,
    ),
    q('domain_snapshots', sql`SELECT id FROM domain_snapshots WHERE event_id IN ${bEvents} ORDER BY id`),
    q('domain_allowlist', sql`SELECT to_jsonb(a) AS j FROM domain_allowlist a WHERE company_id = ${B} ORDER BY id`),
    q('discovery_assets', sql`SELECT to_jsonb(a) AS j FROM discovery_assets a WHERE company_id = ${B} ORDER BY id`),
    q('discovery_runs', sql`SELECT to_jsonb(r) AS j FROM discovery_runs r WHERE company_id = ${B} ORDER BY id`),
    q('notifications', sql`SELECT id, read_at FROM notifications WHERE user_id IN (${ownerId}, ${bUserId}) ORDER BY id`),
    q('sla_policies', sql`SELECT to_jsonb(p) AS j FROM sla_policies p WHERE company_id = ${B} ORDER BY id`),
    q('repository_files', sql`SELECT to_jsonb(f) AS j FROM repository_files f WHERE event_id IN ${bEvents} ORDER BY id`),
    q('account_leaks', sql`SELECT event_id, leak_id FROM account_leaks WHERE event_id IN ${bEvents} ORDER BY 1, 2`),
    q(
      'imports',
      sql`SELECT id, module, company_id, doc_id, status, mapping, mode, scope, errors_count FROM imports WHERE company_id = ${B} OR company_id IS NULL ORDER BY id`,
    ),
    q(
      'exports',
      sql`SELECT id, user_id, status, name, storage_key FROM exports WHERE user_id IN (${ownerId}, ${bUserId}) AND key_id IS NULL ORDER BY id`,
    ),
    q('reports', sql`SELECT id, name, status, doc_id, company_id FROM reports WHERE company_id = ${B} ORDER BY id`),
    q(
      'report_sends',
      sql`SELECT count(*)::int AS n FROM report_sends WHERE report_id IN (SELECT id FROM reports WHERE company_id = ${B})`,
    ),
    q(
      'mailings',
      sql`SELECT id, name, company_id, recipients, filters, params, is_active, updated_at FROM mailings WHERE company_id = ${B} OR company_id IS NULL ORDER BY id`,
    ),
    q('whitelist_items', sql`SELECT to_jsonb(w) AS j FROM whitelist_items w WHERE company_id = ${B} ORDER BY id`),
    q('telegram_channels', sql`SELECT to_jsonb(t) AS j FROM telegram_channels t WHERE company_id = ${B} ORDER BY id`),
    q('filtrator_messages', sql`SELECT id, text, company_id FROM filtrator_messages WHERE company_id = ${B} ORDER BY id`),
    q(
      'api_keys',
      sql`SELECT id, name, is_active, secret_hash, roles, collector, expires_at, allowed_ips, company_id FROM api_keys WHERE company_id = ${B} ORDER BY id`,
    ),
    q(
      'users',
      sql`SELECT id, email, name, role, is_active, allowed_ips, avatar_doc_id FROM users WHERE id IN (${ownerId}, ${bUserId}) ORDER BY id`,
    ),
    q('company_members', sql`SELECT user_id, role FROM company_members WHERE company_id = ${B} ORDER BY user_id`),
    q('sessions', sql`SELECT id, revoked_at FROM sessions WHERE user_id IN (${ownerId}, ${bUserId}) ORDER BY id`),
    q('product_keys', sql`SELECT to_jsonb(k) AS j FROM product_keys k WHERE company_id = ${B} ORDER BY id`),
    q(
      'saved_views',
      sql`SELECT to_jsonb(v) AS j FROM saved_views v WHERE company_id = ${B} OR owner_id IN (${ownerId}, ${bUserId}) ORDER BY id`,
    ),
  ]);
  return Object.fromEntries(rows);
}

export const changedTables = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).filter((k) => a[k] !== b[k]);

// ---------------------------------------------------------------------------
// What an answer to A may not contain
// ---------------------------------------------------------------------------

/** Objects in a JSON answer that belong to company B (`company_id: B`, `company: {id: B}`, `company_ids` with B). */
function foreignRefs(x: unknown, B: number, path = '$', out: string[] = []): string[] {
  if (Array.isArray(x)) {
    for (const [i, v] of x.entries()) foreignRefs(v, B, `${path}[${i}]`, out);
  } else if (x && typeof x === 'object') {
    for (const [k, v] of Object.entries(x as Record<string, unknown>)) {
      if ((k === 'company_id' && v === B) || (k === 'company' && (v as { id?: unknown } | null)?.id === B))
        out.push(`${path}.${k}`);
      if (k === 'company_ids' && Array.isArray(v) && v.includes(B)) out.push(`${path}.${k}`);
      foreignRefs(v, B, `${path}.${k}`, out);
    }
  }
  return out;
}

/** Why an answer shows B's data ('' when it does not). */
export function showsB(r: Res, B: number): string {
  const text = r.raw.toString('utf8').toLowerCase();
  const why: string[] = [];
  if (text.includes(MARKER)) {
    const at = text.indexOf(MARKER);
    why.push(
      `contains «${r.raw
        .toString('utf8')
        .slice(Math.max(0, at - 40), at + 40)
        .replace(/\s+/g, ' ')}»`,
    );
  }
  try {
    const refs = foreignRefs(JSON.parse(r.body), B);
    if (refs.length) why.push(`company_id ${B} at ${refs.slice(0, 3).join(', ')}`);
  } catch {
    // not JSON
  }
  return why.join('; ');
}

// ---------------------------------------------------------------------------
// Findings
// ---------------------------------------------------------------------------

export interface Finding {
  /** leak: B's data or existence shown, or B's data changed; broken: the case itself did not work. */
  kind: 'leak' | 'broken' | 'unjustified';
  area: string;
  route: string;
  principal: string;
  what: string;
}
export const fmt = (f: Finding) => `[${f.kind}] ${f.route} | ${f.principal} | ${f.what}`;
