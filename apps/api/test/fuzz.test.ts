/*
 * Fuzz suite built from the OpenAPI document: every operation (paths × methods), plus the hidden
 * catch-all routes of the route table, gets hostile requests — mutated valid-looking bodies and
 * random garbage, NUL and lone surrogates in strings, out-of-range and non-numeric ids, bad comma
 * lists, huge strings, 5000-deep nesting, __proto__/constructor keys, wrong content types,
 * malformed/truncated JSON and multipart — as a signed-in SUPER_ADMIN (cookie session) and as a
 * company API key with write roles on every module.
 *
 * Every response: never 5xx; every 4xx is the standard JSON error {statusCode, statusMessage,
 * message, data?} with statusCode = HTTP status and a Russian message; the hostile input is never
 * echoed back; NUL / lone surrogates in a JSON body are never accepted (2xx); an API key's answers
 * never carry another company's data; and a batch of requests that were all refused (≥ 400) wrote
 * no rows (see CHANGING_TABLES / REFUSAL_AUDIT_ACTIONS in fuzz-kit.ts for what may change).
 *
 * Cases per operation and principal: FUZZ_RUNS (default 10). Seed: FUZZ_SEED (default fixed, printed).
 * Full report (JSON) of the violations: FUZZ_REPORT=path.
 *
 * Operations that end the caller's own session or key (logout, ending sessions, 2FA, password,
 * key rotation/deletion, company deactivation…) are fuzzed like all others. Path ids are hostile
 * forms or ≥ 900000, so they mostly miss live objects — but forms like `01` or ` 1` may resolve to
 * id 1 (whether they should is part of the test); the live company goes only into /companies/{id}/…
 * sub-resources and the live event only into non-DELETE event routes. After every batch the session
 * (still an active SUPER_ADMIN) and the key (valid, write on every module) are checked and re-created
 * when a request ended or demoted them: a fresh sign-in, else a fresh SUPER_ADMIN user (password
 * changed, 2FA turned on…); a new key, reactivating or re-creating its company. The summary lists
 * those renewals.
 * Excluded operations: none (EXCLUDED below; the coverage test fails when a route is neither fuzzed
 * nor listed there).
 *
 * The second part ("known defects") hits the exact defects found so far as plain regression cases,
 * over app.inject and, for the URL-level ones, over a real socket.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BAD_LISTS,
  BODY_TRANSPORTS,
  describeValue,
  echoProblem,
  encodeBody,
  FILE_CONTENTS,
  FILENAMES,
  HOSTILE_IDS,
  HOSTILE_STRINGS,
  hasBadText,
  hostileLeaf,
  LONG_5K,
  LONG_100K,
  type LogLine,
  MULTIPART_SHAPES,
  type MultipartCase,
  multipartBody,
  mutate,
  mutationArb,
  RAW_FRAGMENTS,
  RawJson,
  rowChanges,
  type Schema,
  SchemaArbs,
  setupFuzzApp,
  shapeProblem,
  snapshotRows,
  tablesOf,
  type Violation,
  type WireValue,
  wire,
  wireText,
} from './fuzz-kit';
import { ADMIN, createCompany, createUser, ORIGIN } from './helpers';

const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SEED = Number(process.env.FUZZ_SEED ?? 20260101);
const PREFIX = '/api/v1';
/** Routes deliberately not fuzzed, with the reason. Keep this empty or tiny. */
const EXCLUDED: Record<string, string> = {};

// ---------------------------------------------------------------------------
// The app, the data the fuzz may touch, the principals
// ---------------------------------------------------------------------------

const ctx = await setupFuzzApp({
  // A per-key limit of requests per minute would turn most key cases into 429s before validation.
  API_KEY_RATE_LIMIT: '0',
  // Load shedding guards the machine, not the input handling; on a busy shared runner it would add 503s.
  MAX_EVENT_LOOP_DELAY_MS: '0',
  DB_POOL_MAX_WAITING: '0',
});
const pool = ctx.database.pool;
const doc = ctx.app.swagger() as Schema;

let A = await createCompany(ctx, 'Альфа ФЗ');
/** Another company whose data an API key of A must never see or write (its name is the marker). */
const B_NAME = 'Чужая компания ФЗБ';
const B = await createCompany(ctx, B_NAME);
await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
const arbs = new SchemaArbs(doc, { ints: { company_id: [A.id, B.id] } });

interface Jar {
  cookies: Map<string, string>;
}
function cookieHeader(j: Jar) {
  return [...j.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
}
function takeCookies(j: Jar, res: LightMyRequestResponse) {
  for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
    if (c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now())) j.cookies.delete(c.name);
    else j.cookies.set(c.name, c.value);
  }
}

interface Principal {
  name: 'session' | 'apikey';
  ip: string;
  headers(method: string): Record<string, string>;
  take(res: LightMyRequestResponse): void;
  alive(): Promise<boolean>;
  renew(): Promise<void>;
}

const session: Jar & { email: string } = { cookies: new Map(), email: ADMIN.email };
let adminSeq = 0;
async function login(): Promise<boolean> {
  session.cookies.clear();
  const r = await ctx.app.inject({
    method: 'POST',
    url: `${PREFIX}/auth/login`,
    remoteAddress: '127.0.0.1',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    payload: JSON.stringify({ email: session.email, password: ADMIN.password }),
  });
  takeCookies(session, r);
  return r.statusCode === 200 && session.cookies.has('fp_access');
}
const sessionPrincipal: Principal = {
  name: 'session',
  ip: '10.66.0.1',
  headers: (method) => ({
    ...(session.cookies.size ? { cookie: cookieHeader(session) } : {}),
    ...(method !== 'GET' ? { origin: ORIGIN } : {}),
  }),
  take: (res) => takeCookies(session, res),
  /** Signed in, still an active SUPER_ADMIN (a fuzzed PATCH /users/01 may have demoted it). */
  async alive() {
    const r = await ctx.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: { cookie: cookieHeader(session) } });
    return r.statusCode === 200 && r.json().role === 'SUPER_ADMIN';
  },
  async renew() {
    if ((await login()) && (await sessionPrincipal.alive())) return;
    // The password was changed, 2FA turned on, the user deactivated…: a fresh SUPER_ADMIN.
    session.email = `fuzz-admin-${++adminSeq}@forpost.test`;
    await createUser(ctx, { email: session.email, role: 'SUPER_ADMIN' });
    if (!(await login())) throw new Error('fuzz: cannot sign in again');
  },
};

let keySecret = '';
const keyPrincipal: Principal = {
  name: 'apikey',
  ip: '10.66.0.2',
  headers: () => ({ authorization: `Bearer ${keySecret}` }),
  take: () => {},
  /** Valid, of company A, still with write roles on every module (a fuzzed POST /apikeys/01/roles may have cut them). */
  async alive() {
    const headers = { authorization: `Bearer ${keySecret}` };
    const c = await ctx.app.inject({ method: 'GET', url: `${PREFIX}/companies/${A.id}`, headers });
    if (c.statusCode !== 200) return false;
    const me = await ctx.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers });
    const roles = (me.statusCode === 200 ? me.json().roles : undefined) as { module: string; access: string }[] | undefined;
    return !roles || roles.some((r) => r.module === '*' && r.access === 'write');
  },
  async renew() {
    if (!(await sessionPrincipal.alive())) await sessionPrincipal.renew();
    const c = await pool.query('SELECT is_active FROM companies WHERE id = $1', [A.id]);
    if (!c.rows.length) {
      A = await createCompany(ctx, `Альфа ФЗ ${Date.now()}`);
      arbs.hints.ints.company_id = [A.id, B.id];
    } else if (!c.rows[0].is_active) await pool.query('UPDATE companies SET is_active = true WHERE id = $1', [A.id]);
    const r = await ctx.app.inject({
      method: 'POST',
      url: `${PREFIX}/apikeys`,
      remoteAddress: '127.0.0.1',
      headers: { cookie: cookieHeader(session), origin: ORIGIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: `Фазз ${Date.now()}`, company_id: A.id, roles: [{ module: '*', access: 'write' }] }),
    });
    if (r.statusCode !== 201) throw new Error(`fuzz: cannot create the API key: ${r.statusCode} ${r.body}`);
    keySecret = r.json().secret;
  },
};
const principals = [sessionPrincipal, keyPrincipal];
await sessionPrincipal.renew();
await keyPrincipal.renew();
const tables = await tablesOf(pool);

/** A live event of company A: its id goes into event routes (not DELETE) and `event_id` fields, so bodies reach the handlers. */
const liveEvent = await ctx.app.inject({
  method: 'POST',
  url: `${PREFIX}/modules/domains/events`,
  remoteAddress: '127.0.0.1',
  headers: { cookie: cookieHeader(session), origin: ORIGIN, 'content-type': 'application/json' },
  payload: JSON.stringify({ company_id: A.id, title: 'Событие для фазза', domain: 'fuzz-live.example' }),
});
if (liveEvent.statusCode !== 201)
  throw new Error(`fuzz: cannot create the live event: ${liveEvent.statusCode} ${liveEvent.body}`);
const EVENT_ID: number = liveEvent.json().id;
arbs.hints.ints.event_id = [EVENT_ID];

// ---------------------------------------------------------------------------
// Operations: the document's paths × methods, and the hidden routes of the route table
// ---------------------------------------------------------------------------

interface Param {
  name: string;
  in: 'path' | 'query';
  schema: Schema;
}
interface Op {
  method: string;
  path: string;
  id: string;
  params: Param[];
  body?: Schema;
  upload: boolean;
  hidden: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ops: Op[] = [];
for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
  for (const m of METHODS) {
    const o = item[m];
    if (!o) continue;
    const text = `${o.summary ?? ''} ${o.description ?? ''}`;
    ops.push({
      method: m.toUpperCase(),
      path: p,
      id: o.operationId,
      params: ((o.parameters ?? []) as Param[]).filter((x) => x.in === 'path' || x.in === 'query'),
      body: o.requestBody?.content?.['application/json']?.schema,
      upload: /multipart\/form-data/.test(text),
      hidden: false,
    });
  }
}
const inDoc = new Set(ops.map((o) => `${o.method} ${o.path}`));
const toTemplate = (url: string) => url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{wildcard}');
for (const r of ctx.app.routeTable) {
  const p = toTemplate(r.url);
  if (r.method === 'HEAD' || inDoc.has(`${r.method} ${p}`) || EXCLUDED[`${r.method} ${r.url}`]) continue;
  const names = [...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1] as string);
  ops.push({
    method: r.method,
    path: p,
    id: r.operationId ?? `hidden ${r.method} ${r.url}`,
    params: names.map((n) => ({ name: n, in: 'path', schema: { type: 'string' } })),
    body: r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
    upload: false,
    hidden: true,
  });
  inDoc.add(`${r.method} ${p}`);
}

// ---------------------------------------------------------------------------
// Case arbitraries
// ---------------------------------------------------------------------------

interface Case {
  path: Record<string, WireValue>;
  query: [WireValue, WireValue][];
  body?: ReturnType<typeof encodeBody>;
  multipart?: MultipartCase;
}

const raw = (s: string): WireValue => ({ raw: s });

function pathParamArb(op: Op, p: Param): fc.Arbitrary<WireValue> {
  const s = arbs.deref(p.schema);
  const hostile = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<WireValue>(...HOSTILE_IDS) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_FRAGMENTS).map(raw) },
  );
  if (s.type === 'integer' || s.type === 'number') {
    const arms: fc.WeightedArbitrary<WireValue>[] = [
      { weight: 7, arbitrary: hostile },
      { weight: 2, arbitrary: fc.integer({ min: 900_000, max: 999_999 }).map(String) },
    ];
    // Under /companies/{id}/… (whitelist, product keys) the live company lets bodies reach the handler.
    if (p.name === 'id' && /^\/api\/v1\/companies\/\{id\}\/./.test(op.path))
      arms.push({ weight: 5, arbitrary: fc.constant<WireValue>(String(A.id)) });
    if (p.name === 'id' && op.method !== 'DELETE' && /^\/api\/v1\/modules\/domains\/events\/\{id\}/.test(op.path))
      arms.push({ weight: 5, arbitrary: fc.constant<WireValue>(String(EVENT_ID)) });
    return fc.oneof(...arms);
  }
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<WireValue>(...HOSTILE_STRINGS.filter((x) => x.length < 10_000)) },
    { weight: 2, arbitrary: hostile },
    { weight: 2, arbitrary: arbs.valid(s, p.name).map((v) => `${String(v)}`) },
    { weight: 1, arbitrary: fc.constant<WireValue>('fuzz-no-such-thing') },
  );
}

const EXTRA_QUERY: [WireValue, WireValue][] = [
  ['__proto__[polluted]', '1'],
  [raw('__proto__'), raw('%00')],
  ['constructor[prototype][polluted]', '1'],
  ['fz_unknown', 'x'],
  ['page', '1'],
  ['page', '2'],
  ['', 'x'],
  [raw('%ED%B0%80'), 'v'],
  [raw('%'), raw('%zz')],
  ['q', LONG_5K],
];

function queryArb(op: Op): fc.Arbitrary<[WireValue, WireValue][]> {
  const declared = op.params.filter((p) => p.in === 'query');
  const value = (p: Param) =>
    fc.oneof(
      { weight: 4, arbitrary: arbs.valid(p.schema, p.name).map((v) => (v === null ? '' : String(v)) as WireValue) },
      { weight: 4, arbitrary: fc.constantFrom<WireValue>(...HOSTILE_STRINGS) },
      { weight: 2, arbitrary: fc.constantFrom<WireValue>(...BAD_LISTS) },
      { weight: 2, arbitrary: fc.constantFrom<WireValue>(...HOSTILE_IDS) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_FRAGMENTS).map(raw) },
      { weight: 1, arbitrary: fc.constant<WireValue>(LONG_100K) },
    );
  const parts = declared.map((p) =>
    fc.option(
      value(p).map((v) => [p.name, v] as [WireValue, WireValue]),
      { freq: 2, nil: undefined },
    ),
  );
  return fc
    .tuple(fc.tuple(...parts), fc.subarray(EXTRA_QUERY, { maxLength: 3 }), fc.boolean())
    .map(([ps, extra, withExtra]) => [
      ...ps.filter((x): x is [WireValue, WireValue] => x !== undefined),
      ...(withExtra ? extra : []),
    ]);
}

const transportArb = fc.oneof(...BODY_TRANSPORTS.map(([t, w]) => ({ weight: w, arbitrary: fc.constant(t) })));

function bodyValueArb(schema: Schema): fc.Arbitrary<unknown> {
  const valid = arbs.valid(schema);
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    { weight: 12, arbitrary: fc.tuple(valid, mutationArb).map(([v, m]) => mutate(v, m)) },
    { weight: 2, arbitrary: fc.tuple(valid, mutationArb, mutationArb).map(([v, m1, m2]) => mutate(mutate(v, m1), m2)) },
    { weight: 2, arbitrary: hostileLeaf },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );
}

function bodyArb(op: Op): fc.Arbitrary<ReturnType<typeof encodeBody> | undefined> {
  if (op.body) return fc.tuple(bodyValueArb(op.body), transportArb, fc.nat()).map(([v, t, cut]) => encodeBody(v, t, cut));
  // No body declared: mostly none, sometimes one anyway (a DELETE with JSON, a GET with garbage…).
  return fc.option(
    fc
      .tuple(fc.oneof(hostileLeaf, fc.jsonValue({ maxDepth: 2 })), transportArb, fc.nat())
      .map(([v, t, cut]) => encodeBody(v, t, cut)),
    { freq: 4, nil: undefined },
  );
}

const DOC_KINDS = ['screenshot', 'sample', 'avatar', 'import', 'report'];
function multipartArb(): fc.Arbitrary<MultipartCase> {
  const idValue = fc.oneof(fc.constantFrom(String(A.id), String(B.id), '900001'), fc.constantFrom(...HOSTILE_IDS));
  const text = fc.oneof(
    fc.constantFrom('Файл', 'report.csv'),
    fc.constantFrom(...HOSTILE_STRINGS.filter((x) => x.length < 10_000)),
  );
  const field = fc.oneof(
    fc.tuple(
      fc.constant('kind'),
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...DOC_KINDS) }, { weight: 1, arbitrary: text }),
    ),
    fc.tuple(fc.constant('company_id'), idValue),
    fc.tuple(fc.constant('event_id'), idValue),
    fc.tuple(fc.constant('name'), text),
    fc.tuple(fc.constantFrom('fz_unknown', '__proto__', 'constructor', 'fz\u0000nul'), text),
  );
  return fc.record({
    fields: fc.array(field, { maxLength: 4 }),
    file: fc.option(
      fc.record({
        filename: fc.constantFrom(...FILENAMES),
        type: fc.constantFrom(
          'text/csv',
          'image/png',
          'application/octet-stream',
          '',
          'text/csv; charset=windows-1251',
          'x/\u0000',
        ),
        content: fc.constantFrom(...FILE_CONTENTS),
      }),
      { freq: 5, nil: undefined },
    ),
    shape: fc.oneof(...MULTIPART_SHAPES.map(([s, w]) => ({ weight: w, arbitrary: fc.constant(s) }))),
    cut: fc.nat(),
  });
}

function caseArb(op: Op): fc.Arbitrary<Case> {
  const pathParams = op.params.filter((p) => p.in === 'path');
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathParamArb(op, p)])));
  if (op.upload) return fc.record({ path: pathArb, query: queryArb(op), multipart: multipartArb() }) as fc.Arbitrary<Case>;
  return fc.record(
    { path: pathArb, query: queryArb(op), body: bodyArb(op) },
    { requiredKeys: ['path', 'query'] },
  ) as fc.Arbitrary<Case>;
}

// ---------------------------------------------------------------------------
// Running a case
// ---------------------------------------------------------------------------

function urlOf(op: Op, c: Case): string {
  const p = op.path.replace(/\{(\w+)\}/g, (_m, n: string) => wire(c.path[n] ?? 'x'));
  const q = c.query.map(([k, v]) => `${wire(k)}=${wire(v)}`).join('&');
  return q ? `${p}?${q}` : p;
}

/**
 * Pieces of the input an error body must not repeat: long values (their first 100 characters),
 * markup and header-injection attempts. Short ASCII names (an unknown query key quoted in
 * «Нераспознанный ключ: "…"») are fine to name back; NUL and lone surrogates are checked separately.
 */
function tokensOf(c: Case): string[] {
  const t: string[] = [];
  const add = (x: string) => {
    if (x.length >= 100) t.push(x.slice(0, 100));
    else if (/<script|\r\n/i.test(x)) t.push(x);
  };
  for (const v of Object.values(c.path)) add(wireText(v));
  for (const [k, v] of c.query) {
    add(wireText(k));
    add(wireText(v));
    if (typeof v === 'string') add(v);
  }
  const walk = (v: unknown, depth: number) => {
    if (depth > 30) return;
    if (typeof v === 'string') add(v);
    else if (v && typeof v === 'object' && !(v instanceof RawJson))
      for (const [k, x] of Object.entries(v)) {
        add(k);
        walk(x, depth + 1);
      }
  };
  walk(c.body?.value, 0);
  for (const [k, v] of c.multipart?.fields ?? []) {
    add(k);
    add(v);
  }
  return t;
}

function describeCase(op: Op, c: Case): string {
  const url = urlOf(op, c);
  const parts = [`${op.method} ${url.length > 200 ? `${url.slice(0, 200)}…(${url.length} chars)` : url}`];
  if (c.body)
    parts.push(
      `body[${c.body.transport}${c.body.contentType !== undefined ? `, ${c.body.contentType.slice(0, 60)}` : ''}] ${c.body.value !== undefined ? describeValue(c.body.value) : describeValue(String(c.body.payload ?? '').slice(0, 120))}`,
    );
  if (c.multipart)
    parts.push(
      `multipart[${c.multipart.shape}] fields=${describeValue(c.multipart.fields)} file=${c.multipart.file ? describeValue({ ...c.multipart.file, content: String(c.multipart.file.content).slice(0, 30) }) : 'none'}`,
    );
  return parts.join(' ');
}

/**
 * The server's error for the report: «log message: error message — where», a failed SQL query shown
 * as PostgreSQL's own message plus the start of the query, «where» = the first frames in apps/api/src.
 */
function serverError(logs: LogLine[]): string | undefined {
  const e = logs.find((l) => l.level >= 50) ?? logs[0];
  if (!e) return undefined;
  const err = e.err ?? (e as { error?: LogLine['err'] }).error;
  let message = err?.message ?? JSON.stringify(e).slice(0, 300);
  if (err?.query) {
    const prefix = `Failed query: ${err.query}\nparams: ${String(err.params ?? '')}`;
    if (message.startsWith(prefix))
      message = `SQL error «${message.slice(prefix.length).replace(/^: /, '')}» in «${err.query.slice(0, 100)}…»`;
  }
  const frames = (err?.stack ?? '').split('\n').filter((l) => l.includes('/apps/api/src/'));
  const where = frames
    .slice(0, 2)
    .map((l) =>
      l
        .trim()
        .replace(/^at /, '')
        .replace(/\(?\/.*\/apps\/api\/src\//, '(src/'),
    )
    .join(' < ');
  return `${e.msg ?? ''}: ${message}${where ? ` — at ${where}` : ''}`.slice(0, 700);
}

const TENANT_LEAK = new RegExp(`"company_id":\\s*${B.id}(?!\\d)|${B_NAME}`);

async function runCase(op: Op, p: Principal, c: Case): Promise<{ status: number; violations: Violation[] }> {
  const url = urlOf(op, c);
  const headers: Record<string, string> = { ...p.headers(op.method) };
  let payload: string | Buffer | undefined;
  if (c.multipart) {
    const mb = multipartBody(c.multipart);
    payload = mb.payload;
    if (mb.contentType) headers['content-type'] = mb.contentType;
  } else if (c.body) {
    payload = c.body.payload;
    if (c.body.contentType !== undefined) headers['content-type'] = c.body.contentType;
  }
  const base = { op: `${op.method} ${op.path} (${op.id})`, principal: p.name, input: describeCase(op, c) };
  ctx.logs.length = 0;
  let res: LightMyRequestResponse;
  try {
    res = await Promise.race([
      ctx.app.inject({ method: op.method as 'GET', url, headers, payload, remoteAddress: p.ip }),
      new Promise<never>((_, rej) => setTimeout(() => rej(new Error('no response in 20 s')), 20_000)),
    ]);
  } catch (e) {
    return { status: 0, violations: [{ ...base, kind: '5xx', detail: `request failed: ${(e as Error).message}` }] };
  }
  p.take(res);
  const v: Violation[] = [];
  if (res.statusCode >= 500)
    v.push({ ...base, kind: '5xx', status: res.statusCode, detail: res.body.slice(0, 200), server: serverError(ctx.logs) });
  if (res.statusCode >= 400) {
    const s = shapeProblem(res);
    if (s) v.push({ ...base, kind: 'shape', status: res.statusCode, detail: s, server: serverError(ctx.logs) });
  }
  const echo = echoProblem(res, tokensOf(c));
  if (echo) v.push({ ...base, kind: 'echo', status: res.statusCode, detail: `${echo}: ${res.body.slice(0, 200)}` });
  // A JSON body the operation reads (declared in the document) must not get NUL / lone surrogates through.
  if (
    res.statusCode < 300 &&
    op.body &&
    !op.hidden &&
    c.body?.value !== undefined &&
    c.body.transport.startsWith('json') &&
    hasBadText(c.body.value)
  )
    v.push({
      ...base,
      kind: 'accepted-bad-text',
      status: res.statusCode,
      detail: `NUL/lone surrogate accepted: ${res.body.slice(0, 200)}`,
    });
  if (p.name === 'apikey' && res.statusCode < 300 && TENANT_LEAK.test(res.body))
    v.push({ ...base, kind: 'tenant', status: res.statusCode, detail: `another company's data: ${res.body.slice(0, 300)}` });
  return { status: res.statusCode, violations: v };
}

// ---------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------

const all: Violation[] = [];
const renewals: string[] = [];
let requests = 0;
const statusTally = new Map<number, number>();
let fuzzedOps = 0;

/**
 * The cause of a violation, for grouping: the server's own error when there is one (for a failed
 * SQL query, PostgreSQL's message, not the query), else the response with its echoed input blurred
 * (quoted non-Russian strings → «…», digits → N).
 */
function causeOf(v: Violation): string {
  if (v.server) {
    const first = v.server.split(' — at ')[0] ?? v.server;
    const sql = /SQL error «([^»]*)»/.exec(first);
    return (sql ? `SQL error: ${sql[1]}` : first)
      .replace(/"[^"]*"/g, '"…"')
      .replace(/\d+/g, 'N')
      .slice(0, 160);
  }
  const code = /"code":"(\w+)"/.exec(v.detail)?.[1];
  return (
    (code ? `${code} ` : '') +
    v.detail
      .replace(/"(?:[^"\\]|\\.)*"/g, (q) =>
        /[А-Яа-яЁё]/.test(q) ? q.replace(/\\"(?:[^"\\]|\\.)*?\\"/g, '\\"…\\"').slice(0, 80) : '"…"',
      )
      .replace(/\d+/g, 'N')
      .slice(0, 140)
  );
}

function grouped(vs: Violation[]) {
  const groups = new Map<string, { n: number; ops: Set<string>; principals: Set<string>; sample: Violation }>();
  for (const v of vs) {
    const key = `${v.kind} ${v.status ?? ''} ${causeOf(v)}`;
    const g = groups.get(key) ?? { n: 0, ops: new Set(), principals: new Set(), sample: v };
    g.n++;
    g.ops.add(v.op);
    g.principals.add(v.principal);
    groups.set(key, g);
  }
  return [...groups.entries()].sort((a, b) => b[1].n - a[1].n);
}

function formatGroups(vs: Violation[], maxOps = 12): string {
  return grouped(vs)
    .map(([key, g]) => {
      const opList = [...g.ops];
      return [
        `● ${key}  ×${g.n} in ${opList.length} operation(s) [${[...g.principals].join(', ')}]`,
        `    ops: ${opList.slice(0, maxOps).join('; ')}${opList.length > maxOps ? `; … +${opList.length - maxOps}` : ''}`,
        `    e.g.: ${g.sample.input ?? ''}`,
        `    got: ${g.sample.detail.slice(0, 300)}`,
        g.sample.server ? `    server: ${g.sample.server}` : '',
      ]
        .filter(Boolean)
        .join('\n');
    })
    .join('\n');
}

afterAll(() => {
  const count = (k: Violation['kind']) => all.filter((v) => v.kind === k).length;
  console.log(
    `fuzz summary: ${fuzzedOps} operations × ${RUNS} cases × ${principals.length} principals = ${requests} requests (seed ${SEED}); ` +
      `5xx: ${count('5xx')}, shape violations: ${count('shape')}, echoes: ${count('echo')}, ` +
      `accepted NUL/surrogate: ${count('accepted-bad-text')}, tenant leaks: ${count('tenant')}, ` +
      `rows written by refused batches: ${count('rows-written')}; session/key renewed after: ${renewals.join(', ') || 'none'}; ` +
      `statuses: ${[...statusTally]
        .sort((a, b) => a[0] - b[0])
        .map(([k, n]) => `${k}×${n}`)
        .join(' ')}`,
  );
  if (all.length) console.log(`fuzz failures by cause:\n${formatGroups(all)}`);
  if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, JSON.stringify(all, null, 1));
});

// ---------------------------------------------------------------------------
// Part 1: the property-based walk over every operation
// ---------------------------------------------------------------------------

describe('fuzz: every operation of the OpenAPI document', () => {
  it('covers every /api route of the route table (document operations + hidden routes), excluding nothing silently', () => {
    const fuzzed = new Set(ops.map((o) => `${o.method} ${o.path}`));
    const missing = ctx.app.routeTable
      .filter((r) => r.method !== 'HEAD')
      .map((r) => `${r.method} ${toTemplate(r.url)}`)
      .filter((k) => !fuzzed.has(k) && !EXCLUDED[k]);
    expect(missing).toEqual([]);
    expect(ops.filter((o) => !o.hidden).length).toBeGreaterThan(400);
    expect(ops.filter((o) => o.upload).map((o) => o.id)).toContain('uploadDoc');
    expect(ops.filter((o) => o.upload).length).toBeGreaterThan(10);
  });

  it('self-check: the row snapshot sees a write, and the shape check refuses a non-standard error', async () => {
    const before = await snapshotRows(pool, tables);
    const c = await createCompany(ctx, `Самопроверка ${Date.now()}`);
    expect(await rowChanges(pool, before, await snapshotRows(pool, tables))).toEqual(['companies +1']);
    await pool.query('DELETE FROM companies WHERE id = $1', [c.id]);
    const fake = {
      statusCode: 400,
      headers: { 'content-type': 'application/json' },
      body: '{"statusCode":400,"error":"Bad Request","message":"x"}',
    };
    expect(shapeProblem(fake as unknown as LightMyRequestResponse)).toBeTruthy();
  });

  let opSeq = 0;
  for (const op of ops) {
    const seq = opSeq++;
    it(`${op.method} ${op.path} (${op.id})`, async () => {
      const vs: Violation[] = [];
      const arb = caseArb(op);
      for (const [pi, p] of principals.entries()) {
        const before = await snapshotRows(pool, tables);
        let refused = true;
        const statuses: number[] = [];
        await fc.assert(
          fc.asyncProperty(arb, async (c) => {
            const r = await runCase(op, p, c);
            requests++;
            statusTally.set(r.status, (statusTally.get(r.status) ?? 0) + 1);
            statuses.push(r.status);
            if (r.status < 400) refused = false;
            vs.push(...r.violations);
          }),
          { numRuns: RUNS, seed: SEED + seq * 2 + pi, endOnFailure: true },
        );
        if (refused) {
          const changes = await rowChanges(pool, before, await snapshotRows(pool, tables));
          if (changes.length)
            vs.push({
              kind: 'rows-written',
              op: `${op.method} ${op.path} (${op.id})`,
              principal: p.name,
              detail: `all ${statuses.length} requests refused (${[...new Set(statuses)].join(',')}) yet rows changed: ${changes.join(', ')}`,
            });
        }
        for (const q of principals)
          if (!(await q.alive())) {
            renewals.push(`${q.name} after ${op.id} (${p.name})`);
            await q.renew();
          }
      }
      fuzzedOps++;
      all.push(...vs);
      expect(vs.length ? `\n${formatGroups(vs, 3)}` : '').toBe('');
    }, 120_000);
  }
});

// ---------------------------------------------------------------------------
// Part 2: the known defects, certain to be hit
// ---------------------------------------------------------------------------

async function call(
  p: Principal,
  method: string,
  url: string,
  body?: unknown,
  extra: { payload?: string | Buffer; contentType?: string } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...p.headers(method) };
  let payload: string | Buffer | undefined = extra.payload;
  if (body !== undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  if (extra.contentType) headers['content-type'] = extra.contentType;
  ctx.logs.length = 0;
  const res = await ctx.app.inject({ method: method as 'GET', url: `${PREFIX}${url}`, headers, payload, remoteAddress: p.ip });
  p.take(res);
  return res;
}

/** The standard refusal: `status` (one of), JSON error shape, Russian message, no echo of `tokens`; the server's error when not. */
function expectRefusal(res: LightMyRequestResponse, statuses: number[], tokens: string[] = []) {
  const problems = [
    statuses.includes(res.statusCode) ? '' : `status ${res.statusCode}, expected ${statuses.join('/')}`,
    res.statusCode >= 400 ? (shapeProblem(res) ?? '') : '',
    echoProblem(res, tokens) ?? '',
  ].filter(Boolean);
  const server = res.statusCode >= 500 ? serverError(ctx.logs) : undefined;
  expect(
    problems.length ? `${problems.join('; ')} — body ${res.body.slice(0, 300)}${server ? ` — server: ${server}` : ''}` : 'ok',
  ).toBe('ok');
}

async function rowsUnchanged<T>(fn: () => Promise<T>): Promise<T> {
  const before = await snapshotRows(pool, tables);
  const out = await fn();
  expect(await rowChanges(pool, before, await snapshotRows(pool, tables))).toEqual([]);
  return out;
}

describe('known defects (regression cases)', () => {
  beforeAll(async () => {
    for (const q of principals) if (!(await q.alive())) await q.renew();
  });

  const BAD_NAMES = ['\udc00', 'a\u0000b', 'fz\ud800lone'];
  /** Create routes with a name: [principal, url, body with the name]; a normal name proves the rest of the body valid. */
  const CREATES: [Principal, string, (name: string) => Record<string, unknown>][] = [
    [sessionPrincipal, '/companies', (name) => ({ name })],
    [sessionPrincipal, '/tags', (name) => ({ name })],
    [sessionPrincipal, '/modules/media/types', (name) => ({ name })],
    [sessionPrincipal, '/modules/leaks', (name) => ({ name })],
    [sessionPrincipal, '/apikeys', (name) => ({ name, company_id: A.id, roles: [{ module: '*', access: 'read' }] })],
    [
      sessionPrincipal,
      '/users',
      (name) => ({ email: `fz-${Date.now()}-${Math.random().toString(36).slice(2)}@forpost.test`, name, role: 'VIEWER' }),
    ],
    [sessionPrincipal, '/notifications/mailings', (name) => ({ name, company_id: A.id, recipients: ['fz@forpost.test'] })],
    [
      sessionPrincipal,
      '/modules/domains/events',
      (name) => ({ company_id: A.id, title: name, domain: `fz${Date.now()}.example` }),
    ],
    [keyPrincipal, '/modules/domains/events', (name) => ({ title: name, domain: `fz${Date.now()}.example` })],
    [sessionPrincipal, `/companies/${A.id}/whitelist`, (name) => ({ type: 'name', value: name, comment: name })],
    [keyPrincipal, '/modules/domains/allowlist', (name) => ({ domain: `fz${Date.now()}.example`, comment: name })],
  ];
  for (const [p, url, body] of CREATES) {
    it(`POST ${url} as ${p.name}: a name with NUL / a lone surrogate → 400, standard shape, nothing written, not echoed`, async () => {
      // Control first: the same body with a normal name is accepted, so a 400 below is the name's doing.
      const ok = await call(p, 'POST', url, body(`Контроль ${Date.now()} ${Math.random().toString(36).slice(2, 7)}`));
      expect(ok.statusCode, `control request with a normal name: ${ok.body.slice(0, 300)}`).toBe(201);
      for (const bad of BAD_NAMES) {
        const res = await rowsUnchanged(() => call(p, 'POST', url, body(bad)));
        expectRefusal(res, [400]);
        // Also deep inside a normal name.
        const res2 = await rowsUnchanged(() => call(p, 'POST', url, body(`Имя${bad}ФЗ`)));
        expectRefusal(res2, [400]);
      }
    });
  }

  const BIG_IDS = ['2147483648', '9007199254740991', '9007199254740992'];
  const ID_ROUTES: [string, string, unknown?][] = [
    ['GET', '/docs/{id}'],
    ['GET', '/docs/{id}/content'],
    ['PATCH', '/docs/{id}', { name: 'Новое имя' }],
    ['DELETE', '/docs/{id}'],
    ['GET', '/modules/exports/{id}'],
    ['GET', '/modules/exports/{id}/download'],
    ['DELETE', '/modules/exports/{id}'],
    ['GET', '/modules/domains/events/imports/{id}'],
    ['GET', '/modules/domains/events/imports/{id}/errors'],
    ['POST', '/modules/domains/events/imports/{id}/preview', { mapping: [] }],
    ['POST', '/modules/domains/events/imports/{id}/start', { mapping: [] }],
    ['DELETE', '/modules/domains/events/imports/{id}'],
    ['GET', '/modules/leaks/imports/{id}'],
    ['POST', '/modules/leaks/imports/{id}/start', { mapping: [] }],
    ['DELETE', '/modules/leaks/imports/{id}'],
    ['GET', '/modules/domains/allowlist/{id}'],
    ['PATCH', '/modules/domains/allowlist/{id}', { comment: 'Комментарий' }],
    ['DELETE', '/modules/domains/allowlist/{id}'],
    ['DELETE', '/companies/{A}/keys/{id}'],
    ['GET', '/modules/domains/events/{id}'],
    ['GET', '/tools/reports/{id}'],
    ['GET', '/comments/{id}'],
    ['GET', '/modules/leaks/{id}'],
  ];
  for (const p of principals)
    it(`ids 2^31, 2^53-1, 2^53 on docs/exports/imports/allowlist/product-key… routes as ${p.name} → 404/400, never 5xx`, async () => {
      const failures: string[] = [];
      for (const [method, tpl, body] of ID_ROUTES)
        for (const id of BIG_IDS) {
          const url = tpl.replace('{A}', String(A.id)).replace('{id}', id);
          const res = await rowsUnchanged(() => call(p, method, url, body));
          const problems = [
            [400, 404].includes(res.statusCode) || (p.name === 'apikey' && res.statusCode === 403)
              ? ''
              : `status ${res.statusCode}`,
            res.statusCode >= 400 ? (shapeProblem(res) ?? '') : 'not refused',
          ].filter(Boolean);
          if (problems.length)
            failures.push(
              `${method} ${url}: ${problems.join('; ')} ${res.body.slice(0, 160)}${res.statusCode >= 500 ? ` — server: ${serverError(ctx.logs)}` : ''}`,
            );
        }
      expect(failures).toEqual([]);
    });

  const UPLOADS = ['/docs', '/modules/domains/events/imports', '/modules/leaks/imports'];
  for (const url of UPLOADS)
    it(`POST ${url}: multipart without a boundary, with a truncated body, with the wrong boundary → 400, standard shape, nothing written`, async () => {
      const fields: [string, string][] = url === '/docs' ? [['kind', 'import']] : [];
      const file = { filename: 'data.csv', type: 'text/csv', content: 'domain;title\nexample.com;Пример\n' };
      const whole = multipartBody({ fields, file, shape: 'ok', cut: 0 }).payload;
      const cases: [string, { payload: Buffer; contentType?: string }][] = [
        ['no boundary', multipartBody({ fields, file, shape: 'no-boundary', cut: 0 })],
        ['wrong boundary', multipartBody({ fields, file, shape: 'wrong-boundary', cut: 0 })],
        ['no final boundary', multipartBody({ fields, file, shape: 'no-final-boundary', cut: 0 })],
        ...[0.1, 0.4, 0.7, 0.95].map(
          (f) =>
            [
              `truncated at ${f * 100}%`,
              multipartBody({ fields, file, shape: 'truncated', cut: Math.floor(whole.length * f) }),
            ] as [string, { payload: Buffer; contentType?: string }],
        ),
        ['empty body', multipartBody({ fields, file, shape: 'empty', cut: 0 })],
      ];
      const control = multipartBody({ fields, file, shape: 'ok', cut: 0 });
      const failures: string[] = [];
      for (const p of principals) {
        // The refusal expected: 400; 403 only where this principal may not upload here at all (its whole form is refused too).
        const allowed = (await call(p, 'POST', url, undefined, { payload: control.payload, contentType: control.contentType }))
          .statusCode;
        const expected = allowed === 403 ? 403 : 400;
        if (p === sessionPrincipal && allowed !== 201) failures.push(`control (whole form) as session: ${allowed}, expected 201`);
        for (const [label, mb] of cases) {
          const res = await rowsUnchanged(() =>
            call(p, 'POST', url, undefined, { payload: mb.payload, contentType: mb.contentType }),
          );
          const problems = [
            res.statusCode === expected ? '' : `status ${res.statusCode}, expected ${expected}`,
            res.statusCode >= 400 ? (shapeProblem(res) ?? '') : '',
          ].filter(Boolean);
          if (problems.length)
            failures.push(
              `${p.name} ${label}: ${problems.join('; ')} ${res.body.slice(0, 200)}${res.statusCode >= 500 ? ` — server: ${serverError(ctx.logs)}` : ''}`,
            );
        }
      }
      expect(failures).toEqual([]);
    });

  // Found by the fuzz itself (and kept here so they stay fixed).
  it('sign-in and password reset with NUL / a lone surrogate in the email: refused (400/401), never 5xx, never accepted', async () => {
    const failures: string[] = [];
    for (const bad of ['a\udc00@forpost.test', 'a\u0000b@forpost.test', `${ADMIN.email}\ud800`]) {
      const anon: Principal = { ...sessionPrincipal, ip: '10.77.0.1', headers: () => ({ origin: ORIGIN }), take: () => {} };
      for (const [url, body, ok] of [
        ['/auth/login', { email: bad, password: 'Неверный-пароль-1' }, [400, 401]],
        ['/auth/resetpassword', { email: bad }, [400]],
      ] as [string, unknown, number[]][]) {
        const res = await call(anon, 'POST', url, body);
        const problems = [
          ok.includes(res.statusCode) ? '' : `status ${res.statusCode}, expected ${ok.join('/')}`,
          res.statusCode >= 400 ? (shapeProblem(res) ?? '') : '',
          echoProblem(res, []) ?? '',
        ].filter(Boolean);
        if (problems.length)
          failures.push(
            `POST ${url} ${JSON.stringify(bad)}: ${problems.join('; ')} ${res.body.slice(0, 160)}${res.statusCode >= 500 ? ` — server: ${serverError(ctx.logs)}` : ''}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it('a path parameter over the router limit (300 chars): a standard-shaped Russian 4xx, not echoed', async () => {
    const failures: string[] = [];
    for (const u of [`/tags/${'x'.repeat(300)}`, `/apidocs/${'['.repeat(300)}`, `/modules/${'Жz'.repeat(200)}/events/1`]) {
      const res = await call(
        sessionPrincipal,
        'GET',
        u.replace(/[[Ж]/g, (c) => encodeURIComponent(c)),
      );
      const problems = [
        res.statusCode >= 400 && res.statusCode < 500 ? '' : `status ${res.statusCode}`,
        shapeProblem(res) ?? '',
        /xxxxxxxxxx|\[\[\[\[\[|(%5B){5}|(ЖzЖz){5}|(%D0%96z){5}/i.test(res.body) ? 'echoes the path' : '',
      ].filter(Boolean);
      if (problems.length) failures.push(`GET ${u.slice(0, 30)}…: ${problems.join('; ')} — ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('an import upload naming a company that does not exist (company_id=900001): refused 4xx, never 5xx, nothing written', async () => {
    const failures: string[] = [];
    for (const url of ['/modules/domains/events/imports', '/modules/firms/events/imports'])
      for (const cid of ['900001', String(2 ** 31 - 1)]) {
        const mb = multipartBody({
          fields: [['company_id', cid]],
          file: { filename: 'data.csv', type: 'text/csv', content: 'domain;title\nexample.com;Пример\n' },
          shape: 'ok',
          cut: 0,
        });
        const res = await rowsUnchanged(() =>
          call(sessionPrincipal, 'POST', url, undefined, { payload: mb.payload, contentType: mb.contentType }),
        );
        const problems = [
          [400, 403, 404].includes(res.statusCode) ? '' : `status ${res.statusCode}`,
          res.statusCode >= 400 ? (shapeProblem(res) ?? '') : '',
        ].filter(Boolean);
        if (problems.length)
          failures.push(
            `POST ${url} company_id=${cid}: ${problems.join('; ')} ${res.body.slice(0, 160)}${res.statusCode >= 500 ? ` — server: ${serverError(ctx.logs)}` : ''}`,
          );
      }
    expect(failures).toEqual([]);
  });

  it('unknown keys/field names are not echoed when hostile: a 5000-char key, a key with NUL, a form field with NUL', async () => {
    const longKey = 'k'.repeat(5000);
    const failures: string[] = [];
    const check = (label: string, res: LightMyRequestResponse) => {
      const problems = [
        res.statusCode === 400 ? '' : `status ${res.statusCode}`,
        shapeProblem(res) ?? '',
        echoProblem(res, [longKey.slice(0, 100)]) ?? '',
        res.body.includes('k'.repeat(100)) ? 'echoes the long key' : '',
      ].filter(Boolean);
      if (problems.length) failures.push(`${label}: ${problems.join('; ')} — ${res.body.slice(0, 200)}`);
    };
    check('POST /tags with a 5000-char key', await call(sessionPrincipal, 'POST', '/tags', { name: 'Тег ФЗ', [longKey]: 1 }));
    check('POST /tags with a key "a\\u0000b"', await call(sessionPrincipal, 'POST', '/tags', { name: 'Тег ФЗ', 'a\u0000b': 1 }));
    check(
      'POST /apikeys with a 5000-char key inside roles[0], its value holding NUL',
      await call(sessionPrincipal, 'POST', '/apikeys', {
        name: 'Ключ',
        company_id: A.id,
        roles: [{ module: '*', access: 'read', [longKey]: 'x\u0000' }],
      }),
    );
    const mb = multipartBody({
      fields: [
        ['kind', 'import'],
        ['fz\u0000nul', '1'],
      ],
      file: { filename: 'data.csv', type: 'text/csv', content: 'a;b\n' },
      shape: 'ok',
      cut: 0,
    });
    check(
      'POST /docs with a form field named "fz\\u0000nul"',
      await call(sessionPrincipal, 'POST', '/docs', undefined, { payload: mb.payload, contentType: mb.contentType }),
    );
    expect(failures).toEqual([]);
  });

  const BAD_URLS = ['/api/v1/%C0%AE', '/api/v1/%', '/api/v1/companies/%E0%A4%A', '/api/v1/%ED%B0%80', '/api/v1/companies/%00'];
  it('bad percent-encoding in the path (over app.inject): standard shape, Russian message, the path not echoed', async () => {
    const failures: string[] = [];
    for (const u of BAD_URLS) {
      const res = await ctx.app.inject({ method: 'GET', url: u, headers: sessionPrincipal.headers('GET') });
      const problems = [
        res.statusCode >= 400 && res.statusCode < 500 ? '' : `status ${res.statusCode}`,
        shapeProblem(res) ?? '',
        echoProblem(res, [u.slice('/api/v1/'.length), decodeURIComponentLoose(u)]) ?? '',
        /%C0|%ED|%E0|%00/i.test(res.body) ? 'echoes the path' : '',
      ].filter(Boolean);
      if (problems.length) failures.push(`GET ${u}: ${problems.join('; ')} — ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  const LONG_Q = 'Ф'.repeat(17_000);
  it('a URL over 16 KB (over app.inject): a standard-shaped Russian error, the query not echoed', async () => {
    const res = await call(sessionPrincipal, 'GET', `/companies?q=${encodeURIComponent(LONG_Q)}`);
    expectRefusal(res, [400, 414, 431], ['Ф'.repeat(50), '%D0%A4'.repeat(20)]);
  });

  describe('over a real socket', () => {
    let port = 0;
    beforeAll(async () => {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      port = (ctx.app.server.address() as AddressInfo).port;
    });

    function get(pathAndQuery: string, headers: Record<string, string> = {}) {
      return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port, method: 'GET', path: pathAndQuery, headers, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    }
    const asInject = (r: { status: number; headers: http.IncomingHttpHeaders; body: string }) =>
      ({ statusCode: r.status, headers: r.headers, body: r.body }) as unknown as LightMyRequestResponse;

    it('bad percent-encoding in the path: standard shape, Russian message, the path not echoed', async () => {
      const failures: string[] = [];
      for (const u of BAD_URLS) {
        const r = await get(u, { cookie: cookieHeader(session) });
        const res = asInject(r);
        const problems = [
          r.status >= 400 && r.status < 500 ? '' : `status ${r.status}`,
          shapeProblem(res) ?? '',
          /%C0|%ED|%E0|%00/i.test(r.body) || r.body.includes(u) ? 'echoes the path' : '',
        ].filter(Boolean);
        if (problems.length) failures.push(`GET ${u}: ${problems.join('; ')} — ${r.body.slice(0, 200)}`);
      }
      expect(failures).toEqual([]);
    });

    it('a URL over 16 KB: a standard-shaped Russian error (not Node’s bare 431), the query not echoed', async () => {
      for (const headers of [{ cookie: cookieHeader(session) }, {}] as Record<string, string>[]) {
        const r = await get(`/api/v1/companies?q=${encodeURIComponent(LONG_Q)}`, headers);
        const res = asInject(r);
        const problems = [
          r.status >= 400 && r.status < 500 ? '' : `status ${r.status}`,
          shapeProblem(res) ?? '',
          r.body.includes('Ф'.repeat(50)) || r.body.includes('%D0%A4'.repeat(20)) ? 'echoes the query' : '',
        ].filter(Boolean);
        expect(problems.length ? `${problems.join('; ')} — ${r.status} ${JSON.stringify(r.body.slice(0, 200))}` : 'ok').toBe(
          'ok',
        );
      }
    });

    it('control: an ordinary request over the same socket works', async () => {
      const r = await get(`/api/v1/companies?page=1&q=${encodeURIComponent('Альфа')}`, { cookie: cookieHeader(session) });
      expect(r.status, r.body.slice(0, 200)).toBe(200);
    });
  });
});

function decodeURIComponentLoose(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
