/*
 * «Аудит — в той же транзакции, что и изменение»: every change commits together with its audit entry
 * or not at all.
 *
 * A trigger in the test database breaks audit inserts on demand (BEFORE INSERT ON audit_log, while
 * the marker table `test_audit_breaker` has a row). For each state-changing operation below:
 *  1. with the audit store broken the request fails (5xx) and nothing at all changed — every table of
 *     the database (found from the catalogue, so new tables are covered too), the pg-boss jobs and the
 *     stored files are compared before and after;
 *  2. with it repaired the same request succeeds and leaves exactly one audit entry, of its action.
 * Sign-in and session operations (login, second step, refresh reuse, logout, ending sessions) compare
 * the sessions table too, and the password reset request (answered at once, worked after the
 * response) is run through the service: no token and no letter without its entry.
 * Besides, every `audit.record(…)` call in the modules is read from the source: it must be given the
 * change's transaction, or be one of the listed entries that record no change.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { MODULE_LIST } from '@forpost/contract/modules';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentStep, hotp, totp } from '../src/lib/totp';
import { REFRESH_COOKIE } from '../src/plugins/access';
import { insertEvent } from './analytics.fixtures';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs, multipart } from './imports-kit';

let ctx: TestContext;
let admin: Client;
let A: number;
let collector: Record<string, string>;
let seq = 0;
const n = () => ++seq;
const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
  (await ctx.database.pool.query(text, values)).rows as T[];

/* --- the broken audit store ------------------------------------------------------------------ */

async function installBreaker() {
  await q(`CREATE TABLE test_audit_breaker (on_ boolean)`);
  await q(`CREATE FUNCTION test_audit_break() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM test_audit_breaker) THEN
        RAISE EXCEPTION 'audit store broken (test): %', NEW.action;
      END IF;
      RETURN NEW;
    END $$`);
  await q(`CREATE TRIGGER test_audit_break BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION test_audit_break()`);
}
const breakAudit = () => q(`INSERT INTO test_audit_breaker VALUES (true)`);
const repairAudit = () => q(`DELETE FROM test_audit_breaker`);

/* --- "nothing changed": the whole database and the file store -------------------------------- */

/** Bookkeeping of any request (sessions, rate windows) and the audit log itself (the store that fails). */
const SKIP_TABLES = new Set([
  'public.audit_log',
  'public.sessions',
  'public.api_key_rate_windows',
  'public.auth_failures',
  'public.test_audit_breaker',
]);
/** Columns that every authenticated request may touch. */
const SKIP_COLUMNS: Record<string, string[]> = { 'public.api_keys': ['last_used_at', 'last_used_ip'] };
/** For sign-in and session operations the sessions are compared too, less what a session check touches. */
const SESSION_TOUCH = ['last_seen_at', 'idle_expires_at'];

async function tablesAndColumns(withSessions = false): Promise<Map<string, string[]>> {
  const rows = await q<{ t: string; c: string }>(
    `SELECT c.table_schema || '.' || c.table_name AS t, c.column_name AS c
       FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE t.table_type = 'BASE TABLE' AND c.table_schema = 'public'
      ORDER BY c.table_schema, c.table_name, c.ordinal_position`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) {
    if (withSessions && r.t === 'public.sessions') {
      if (SESSION_TOUCH.includes(r.c)) continue;
    } else if (SKIP_TABLES.has(r.t) || SKIP_COLUMNS[r.t]?.includes(r.c)) continue;
    out.set(r.t, [...(out.get(r.t) ?? []), r.c]);
  }
  return out;
}

function filesUnder(dir: string, base = dir, out: string[] = []): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of names) {
    const f = path.join(dir, name);
    if (statSync(f).isDirectory()) {
      if (path.relative(base, f) !== 'tmp') filesUnder(f, base, out);
    } else out.push(path.relative(base, f));
  }
  return out.sort();
}

/** One digest per table (all its rows), the pg-boss jobs, and the names of the stored files. */
async function snapshot(withSessions = false): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [t, cols] of await tablesAndColumns(withSessions)) {
    const list = cols.map((c) => `"${c}"`).join(', ');
    const [r] = await q<{ d: string; n: number }>(
      `SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS d, count(*)::int AS n FROM (SELECT ${list} FROM ${t}) x`,
    );
    out[t] = `${r?.n}:${r?.d}`;
  }
  const [jobs] = await q<{ d: string }>(
    `SELECT md5(coalesce(string_agg(name || ' ' || data::text, '|' ORDER BY name || ' ' || data::text), '')) AS d FROM pgboss.job`,
  );
  out['pgboss.job'] = jobs?.d ?? '';
  out.files = filesUnder(ctx.config.dataDir).join('\n');
  return out;
}
const changed = (a: Record<string, string>, b: Record<string, string>) =>
  [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]);

/** Background work a committed change starts in this process (whitelist re-marking). */
const settle = async () => {
  await ctx.app.services.whitelist.remarker?.idle();
};

const lastAuditId = async () => (await q<{ id: number | null }>(`SELECT max(id)::int AS id FROM audit_log`))[0]?.id ?? 0;

/* --- the operations -------------------------------------------------------------------------- */

interface Op<S = unknown> {
  name: string;
  /** The audit action the operation records (several: all of them, in order). */
  action: string | string[];
  /** Makes what the operation needs (audit working); its result is passed to `request`. */
  prepare?: () => Promise<S>;
  /** Sent twice: first with the audit store broken, then repaired. */
  request: (s: S) => Promise<LightMyRequestResponse>;
  /** Sign-in and session operations: the sessions table is compared as well. */
  sessions?: boolean;
  /** The status of the repaired request when it is a refusal that still changes something (default: any 2xx). */
  okStatus?: number;
  /** Explicit checks after the failed request and after the repaired one. */
  check?: (s: S, phase: 'failed' | 'ok') => Promise<void>;
}
const OPS: Op<never>[] = [];
const op = <S>(o: Op<S>) => OPS.push(o as unknown as Op<never>);

const created = (r: LightMyRequestResponse) => {
  if (r.statusCode >= 300) throw new Error(`prepare failed: ${r.statusCode} ${r.body}`);
  return r.json() as { id: number } & Record<string, unknown>;
};
const sendMultipart = (url: string, fields: Record<string, string>, file: { name: string; content: string }) => {
  const { payload, contentType } = multipart(fields, file);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/v1${url}`,
    headers: {
      cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      origin: 'http://localhost:8080',
      'content-type': contentType,
    },
    payload,
  });
};
const domainEvent = (module = 'domains') => insertEvent(ctx, { companyId: A, module, title: `Событие ${n()}` });

// Companies, product keys
op({ name: 'company create', action: 'company.create', request: () => admin.post('/companies', { name: `Компания ${n()}` }) });
op({
  name: 'company update',
  action: 'company.update',
  prepare: async () => (await createCompany(ctx, `Компания ${n()}`)).id,
  request: (id) => admin.patch(`/companies/${id}`, { name: `Переименована ${id}` }),
});
op({
  name: 'company deactivate',
  action: 'company.deactivate',
  prepare: async () => (await createCompany(ctx, `Компания ${n()}`)).id,
  request: (id) => admin.patch(`/companies/${id}`, { is_active: false }),
});
op({
  name: 'company delete',
  action: 'company.delete',
  prepare: async () => {
    const { id } = await createCompany(ctx, `Компания ${n()}`);
    await q(`UPDATE companies SET is_active = false WHERE id = $1`, [id]);
    return id;
  },
  request: (id) => admin.del(`/companies/${id}`),
});
op({ name: 'product key create', action: 'product_key.create', request: () => admin.post(`/companies/${A}/keys`, {}) });
op({
  name: 'product key revoke',
  action: 'product_key.revoke',
  prepare: async () => created(await admin.post(`/companies/${A}/keys`, {})).id,
  request: (id) => admin.del(`/companies/${A}/keys/${id}`),
});
op({
  name: 'product key activate',
  action: 'product_key.activate',
  prepare: async () => {
    const key = created(await admin.post(`/companies/${A}/keys`, {})).key as string;
    return { key, user: await signedIn(ctx, `activate-${n()}@forpost.test`, 'COMPANY_USER') };
  },
  request: (s) => s.user.post('/companies/activation/activate', { key: s.key }),
});

// Users
op({
  name: 'user create',
  action: 'user.create',
  prepare: async () => n(),
  request: (i) => admin.post('/users', { email: `new-${i}@forpost.test`, name: 'Новый', role: 'ANALYST' }),
});
op({
  name: 'user update',
  action: 'user.update',
  prepare: async () => (await createUser(ctx, { email: `u-${n()}@forpost.test`, role: 'ANALYST' })).id,
  request: (id) => admin.patch(`/users/${id}`, { name: `Переименован ${id}` }),
});
op({
  name: 'user roles',
  action: 'user.update',
  prepare: async () => (await createUser(ctx, { email: `u-${n()}@forpost.test`, role: 'ANALYST' })).id,
  request: (id) => admin.post(`/users/${id}/roles`, { role: 'VIEWER', companies: [] }),
});
op({
  name: 'user delete',
  action: 'user.delete',
  prepare: async () => (await createUser(ctx, { email: `u-${n()}@forpost.test`, role: 'ANALYST' })).id,
  request: (id) => admin.del(`/users/${id}`),
});

// API keys
const newKey = async () =>
  created(await admin.post('/apikeys', { name: `Ключ ${n()}`, company_id: A, roles: [{ module: '*', access: 'read' }] })).id;
op({
  name: 'api key create',
  action: 'apikey.create',
  request: () => admin.post('/apikeys', { name: `Ключ ${n()}`, company_id: A, roles: [{ module: '*', access: 'read' }] }),
});
op({
  name: 'api key update',
  action: 'apikey.update',
  prepare: newKey,
  request: (id) => admin.patch(`/apikeys/${id}`, { name: 'Иначе' }),
});
op({ name: 'api key rotate', action: 'apikey.rotate', prepare: newKey, request: (id) => admin.post(`/apikeys/${id}/refresh`) });
op({
  name: 'api key roles',
  action: 'apikey.roles',
  prepare: newKey,
  request: (id) => admin.post(`/apikeys/${id}/roles`, { roles: [{ module: 'domains', access: 'write' }], collector: false }),
});
op({ name: 'api key delete', action: 'apikey.delete', prepare: newKey, request: (id) => admin.del(`/apikeys/${id}`) });

// Reference lists: tags, leaks catalogue, media types, leak types
const newTag = async () => created(await admin.post('/tags', { name: `Тег ${n()}` })).id;
op({
  name: 'tag create',
  action: 'tag.create',
  prepare: async () => n(),
  request: (i) => admin.post('/tags', { name: `Тег ${i}` }),
});
op({
  name: 'tag update',
  action: 'tag.update',
  prepare: newTag,
  request: (id) => admin.patch(`/tags/${id}`, { name: `Тег ${id}!` }),
});
op({ name: 'tag delete', action: 'tag.delete', prepare: newTag, request: (id) => admin.del(`/tags/${id}`) });
op({
  name: 'tag merge',
  action: 'tag.merge',
  prepare: async () => ({ from: await newTag(), to: await newTag() }),
  request: (s) => admin.post(`/tags/${s.from}/merge`, { target_id: s.to }),
});
for (const [label, base, entity] of [
  ['leak', '/modules/leaks', 'leak'],
  ['media type', '/modules/media/types', 'media_type'],
] as const) {
  const make = async () => created(await admin.post(base, { name: `${label} ${n()}` })).id;
  op({
    name: `${label} create`,
    action: `${entity}.create`,
    prepare: async () => n(),
    request: (i) => admin.post(base, { name: `${label} ${i}` }),
  });
  op({
    name: `${label} update`,
    action: `${entity}.update`,
    prepare: make,
    request: (id) => admin.patch(`${base}/${id}`, { name: `${label} ${id}!` }),
  });
  op({ name: `${label} delete`, action: `${entity}.delete`, prepare: make, request: (id) => admin.del(`${base}/${id}`) });
}
op({
  name: 'leak type update',
  action: 'leak_type.update',
  prepare: async () => (await q<{ id: number }>(`SELECT id FROM leak_types ORDER BY id LIMIT 1`))[0]?.id as number,
  request: (id) => admin.patch(`/modules/leaks/events/types/${id}`, { description: `Описание ${n()}` }),
});

// Whitelists: a company's and the global one
for (const scope of ['company', 'global'] as const) {
  const base = () => (scope === 'global' ? '/companies/global/whitelist' : `/companies/${A}/whitelist`);
  const make = async () => created(await admin.post(base(), { type: 'domain', value: `wl-${n()}.ru` })).id;
  op({
    name: `${scope} whitelist create`,
    action: 'whitelist.create',
    prepare: async () => n(),
    request: (i) => admin.post(base(), { type: 'domain', value: `wl-${i}.ru` }),
  });
  op({
    name: `${scope} whitelist update`,
    action: 'whitelist.update',
    prepare: make,
    request: (id) => admin.patch(`${base()}/${id}`, { comment: 'Изменено' }),
  });
  op({
    name: `${scope} whitelist delete`,
    action: 'whitelist.delete',
    prepare: make,
    request: (id) => admin.del(`${base()}/${id}`),
  });
  op({
    name: `${scope} whitelist bulk`,
    action: 'whitelist.bulk_create',
    prepare: async () => n(),
    request: (i) => admin.post(`${base()}/bulk`, { text: `bulk-${i}-a.ru\nbulk-${i}-b.ru` }),
  });
}

// Domains allowlist
const ALLOW = '/modules/domains/allowlist';
const newAllow = async () => created(await admin.post(ALLOW, { company_id: A, domain: `allow-${n()}.ru` })).id;
op({
  name: 'allowlist create',
  action: 'domain_allowlist.create',
  prepare: async () => n(),
  request: (i) => admin.post(ALLOW, { company_id: A, domain: `allow-${i}.ru` }),
});
op({
  name: 'allowlist update',
  action: 'domain_allowlist.update',
  prepare: newAllow,
  request: (id) => admin.patch(`${ALLOW}/${id}`, { comment: 'Да' }),
});
op({
  name: 'allowlist delete',
  action: 'domain_allowlist.delete',
  prepare: newAllow,
  request: (id) => admin.del(`${ALLOW}/${id}`),
});

// Mailings
const MAIL = '/notifications/mailings';
const mailing = () => ({
  name: `Рассылка ${n()}`,
  company_id: A,
  recipients: ['soc@alfa.ru'],
  filters: { modules: ['domains'] },
  params: { frequency: 'instant', format: 'html' },
});
op({ name: 'mailing create', action: 'mailing.create', prepare: async () => mailing(), request: (b) => admin.post(MAIL, b) });
op({
  name: 'mailing update',
  action: 'mailing.update',
  prepare: async () => created(await admin.post(MAIL, mailing())).id,
  request: (id) => admin.patch(`${MAIL}/${id}`, { name: `Иначе ${id}`, is_active: false }),
});
op({
  name: 'mailing delete',
  action: 'mailing.delete',
  prepare: async () => created(await admin.post(MAIL, mailing())).id,
  request: (id) => admin.del(`${MAIL}/${id}`),
});

// Reports
const REP = '/tools/reports';
const report = async () => created(await admin.post(REP, { company_id: A, from: '2026-03-01', to: '2026-03-07' })).id;
op({
  name: 'report create',
  action: 'report.create',
  request: () => admin.post(REP, { company_id: A, from: '2026-03-01', to: '2026-03-07' }),
});
op({ name: 'report delete', action: 'report.delete', prepare: report, request: (id) => admin.del(`${REP}/${id}`) });
op({
  name: 'report regenerate',
  action: 'report.regenerate',
  prepare: report,
  request: (id) => admin.post(`${REP}/${id}/actions`, { action: 'regenerate' }),
});
op({
  name: 'report send',
  action: 'report.send',
  prepare: async () => {
    const id = await report();
    const [d] = await q<{ id: number }>(
      `INSERT INTO docs (kind, company_id, name, mimetype, size, sha256, storage_key) VALUES ('report', $1, 'r.pdf', 'application/pdf', 1, 'x', $2) RETURNING id`,
      [A, `missing-${n()}`],
    );
    await q(`UPDATE reports SET status = 'ready', doc_id = $2 WHERE id = $1`, [id, d?.id]);
    return id;
  },
  request: (id) => admin.post(`${REP}/${id}/actions`, { action: 'send', recipients: ['soc@alfa.ru'] }),
});

// Comments
const comment = async () => created(await admin.post('/comments', { event_id: await domainEvent(), text: 'Первый' })).id;
op({
  name: 'comment create',
  action: 'comment.create',
  prepare: () => domainEvent(),
  request: (eventId) => admin.post('/comments', { event_id: eventId, text: 'Комментарий' }),
});
op({
  name: 'comment update',
  action: 'comment.update',
  prepare: comment,
  request: (id) => admin.patch(`/comments/${id}`, { text: 'Второй' }),
});
op({ name: 'comment delete', action: 'comment.delete', prepare: comment, request: (id) => admin.del(`/comments/${id}`) });

// Events: one delete per module, batch changes and actions where the module has them
for (const m of MODULE_LIST) {
  op({
    name: `${m.code} event delete`,
    action: 'event.delete',
    prepare: () => domainEvent(m.code),
    request: (id) => admin.del(`/modules/${m.code}/events/${id}`),
  });
  if (m.actions?.length) {
    const action = m.actions.find((a) => a.code === 'takedown') ?? m.actions[0];
    op({
      name: `${m.code} event action ${action?.code}`,
      action: 'event.action',
      prepare: () => domainEvent(m.code),
      request: (id) => admin.post(`/modules/${m.code}/events/${id}/actions`, { action: action?.code, comment: 'Срочно' }),
    });
  }
}
/** Modules with batch routes, read from the OpenAPI document once the app is up. */
const batchModules: string[] = [];
for (const i of [0, 1, 2]) {
  op({
    name: `batch event update (module #${i + 1} with batch routes)`,
    action: 'event.batch_update',
    prepare: async () => {
      const m = batchModules[i] as string;
      const [st] = await q<{ id: number }>(
        `SELECT id FROM event_statuses WHERE module = $1 AND code <> 'new' ORDER BY id LIMIT 1`,
        [m],
      );
      return { m, ids: [await domainEvent(m), await domainEvent(m)], status: st?.id };
    },
    request: (s) => admin.patch(`/modules/${s.m}/events`, { ids: s.ids, patch: { status_id: s.status } }),
  });
  op({
    name: `batch event delete (module #${i + 1} with batch routes)`,
    action: 'event.delete',
    prepare: async () => ({ m: batchModules[i] as string, ids: [await domainEvent(batchModules[i])] }),
    request: (s) => admin.req('DELETE', `/modules/${s.m}/events`, { ids: s.ids }),
  });
}

// Documents
const docUpload = (i: number) =>
  sendMultipart('/docs', { kind: 'sample', company_id: String(A) }, { name: `образец-${i}.txt`, content: `образец ${i}` });
const newDoc = async () => created(await docUpload(n())).id;
op({ name: 'doc upload', action: 'doc.upload', prepare: async () => n(), request: (i) => docUpload(i) });
op({
  name: 'doc rename',
  action: 'doc.rename',
  prepare: newDoc,
  request: (id) => admin.patch(`/docs/${id}`, { name: 'Новое имя.txt' }),
});
op({ name: 'doc delete', action: 'doc.delete', prepare: newDoc, request: (id) => admin.del(`/docs/${id}`) });

// Configs
op({
  name: 'config create',
  action: 'config.create',
  prepare: async () => {
    await q(`DELETE FROM system_configs WHERE key = 'product_name'`);
  },
  request: () => admin.post('/configs', { key: 'product_name', value: 'Форпост-А' }),
});
op({
  name: 'config update',
  action: 'config.update',
  prepare: async () => n(),
  request: (i) => admin.patch('/configs/export_retention_days', { value: 10 + i }),
});
op({
  name: 'config reset',
  action: 'config.reset',
  prepare: async () => created(await admin.patch('/configs/upload_sample_max_mb', { value: 7 })),
  request: () => admin.del('/configs/upload_sample_max_mb'),
});

// Telegram sources
const ACC = '/modules/telegram/accounts';
const CH = '/modules/telegram/channels';
const phone = () => `+7912${String(1000000 + n()).slice(-7)}`;
const account = async () => created(await admin.post(ACC, { name: `Сборщик ${n()}`, phone: phone() })).id;
const channel = async () => created(await admin.post(CH, { link: `@chan_${n()}`, company_id: A, keywords: ['банк'] })).id;
op({
  name: 'telegram account create',
  action: 'telegram_account.create',
  prepare: async () => phone(),
  request: (p) => admin.post(ACC, { name: 'Сборщик', phone: p }),
});
op({
  name: 'telegram account update',
  action: 'telegram_account.update',
  prepare: account,
  request: (id) => admin.patch(`${ACC}/${id}`, { status: 'paused' }),
});
op({
  name: 'telegram account delete',
  action: 'telegram_account.delete',
  prepare: account,
  request: (id) => admin.del(`${ACC}/${id}`),
});
op({
  name: 'telegram channel create',
  action: 'telegram_channel.create',
  prepare: async () => n(),
  request: (i) => admin.post(CH, { link: `@chan_${i}`, company_id: A, keywords: ['банк'] }),
});
op({
  name: 'telegram channel update',
  action: 'telegram_channel.update',
  prepare: channel,
  request: (id) => admin.patch(`${CH}/${id}`, { title: 'Чат' }),
});
op({
  name: 'telegram channel delete',
  action: 'telegram_channel.delete',
  prepare: channel,
  request: (id) => admin.del(`${CH}/${id}`),
});

// Filtrator
const MSGS = '/modules/filtrator/messages';
const message = (i: number) => ({ channel: '@atomic_news', message_id: i, text: `Банк ${i}`, posted_at: '2026-03-10T12:00:00Z' });
const collected = async () => created(await new Client(ctx).post(MSGS, message(n()), collector)).id;
op({
  name: 'filtrator collect',
  action: 'message.collect',
  prepare: async () => n(),
  request: (i) => new Client(ctx).post(MSGS, message(i), collector),
});
op({ name: 'filtrator delete', action: 'message.delete', prepare: collected, request: (id) => admin.del(`${MSGS}/${id}`) });
op({
  name: 'filtrator to event',
  action: 'message.to_event',
  prepare: collected,
  request: (id) => admin.post(`${MSGS}/${id}/to-event`, { module: 'media' }),
});

// Imports and exports
const IMP = '/modules/domains/events/imports';
const importUpload = (i: number) =>
  sendMultipart(IMP, { company_id: String(A) }, { name: `домены-${i}.csv`, content: `domain;registrar\nimp-${i}.ru;REG.RU\n` });
const uploaded = async () => {
  const r = created(await importUpload(n()));
  return { id: r.id, mapping: (r.preview as { mapping: (string | null)[] }).mapping };
};
op({ name: 'import upload', action: 'import.upload', prepare: async () => n(), request: (i) => importUpload(i) });
op({
  name: 'import start',
  action: 'import.start',
  prepare: uploaded,
  request: (s) => admin.post(`${IMP}/${s.id}/start`, { mapping: s.mapping, mode: 'update', company_id: A }),
});
op({ name: 'import delete', action: 'import.delete', prepare: uploaded, request: (s) => admin.del(`${IMP}/${s.id}`) });
const exportBody = { module: 'domains', format: 'csv', fields: ['domain'], filters: {} };
op({ name: 'export create', action: 'export.create', request: () => admin.post('/modules/exports', exportBody) });
op({
  name: 'export delete',
  action: 'export.delete',
  prepare: async () => created(await admin.post('/modules/exports', exportBody)).id,
  request: (id) => admin.del(`/modules/exports/${id}`),
});

// Sign-in and sessions
const sessionsOf = async (userId: number) =>
  q<{ id: string; revoked_reason: string | null }>(
    `SELECT id::text, revoked_reason FROM sessions WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
/** A new user signed in on `devices` clients, with the ids of their sessions in that order. */
const signedInOn = async (devices: number) => {
  const u = await createUser(ctx, { email: `dev-${n()}@forpost.test`, role: 'ANALYST' });
  const clients: Client[] = [];
  for (let i = 0; i < devices; i++) {
    const c = new Client(ctx);
    await c.login(u.email, ADMIN.password);
    clients.push(c);
  }
  const ids = (await sessionsOf(u.id)).map((r) => r.id);
  expect(ids).toHaveLength(devices);
  return { u, clients, ids };
};
/** A user with two-factor sign-in on (enabled through the profile, as a user does). */
const with2fa = async () => {
  const { u, clients } = await signedInOn(1);
  const c = clients[0] as Client;
  const { secret } = created(await c.post('/me/2fa/setup')) as unknown as { secret: string };
  const codes = created(await c.post('/me/2fa/enable', { code: totp(secret) })).recovery_codes as string[];
  await q(`UPDATE sessions SET revoked_at = now(), revoked_reason = 'test' WHERE user_id = $1`, [u.id]);
  return { u, secret, codes };
};
/** Step one (the password) on a new client, then the second step with `body`. */
const secondStep = async (email: string, body: Record<string, string>) => {
  const c = new Client(ctx);
  const one = await c.post('/auth/login', { email, password: ADMIN.password });
  if (one.statusCode !== 200 || one.json()['2fa_success'] !== false) throw new Error(`step one: ${one.statusCode} ${one.body}`);
  return c.post('/auth/2fa', body);
};
op({
  name: 'login',
  action: 'auth.login',
  sessions: true,
  prepare: () => createUser(ctx, { email: `login-${n()}@forpost.test`, role: 'ANALYST' }),
  request: (u) => new Client(ctx).post('/auth/login', { email: u.email, password: ADMIN.password }),
  check: async (u, phase) => {
    // No session is made without its `auth.login` entry.
    expect(await sessionsOf(u.id)).toHaveLength(phase === 'failed' ? 0 : 1);
  },
});
op({
  name: 'login, second step with a code',
  action: 'auth.login',
  sessions: true,
  prepare: async () => {
    const s = await with2fa();
    return { ...s, code: hotp(s.secret, currentStep() + 1) };
  },
  // The same code both times: the failed attempt must not have spent it.
  request: (s) => secondStep(s.u.email, { code: s.code }),
  check: async (s, phase) => {
    expect((await sessionsOf(s.u.id)).filter((r) => !r.revoked_reason)).toHaveLength(phase === 'failed' ? 0 : 1);
  },
});
op({
  name: 'login, second step with a recovery code',
  action: ['auth.recovery_code_used', 'auth.login'],
  sessions: true,
  prepare: with2fa,
  request: (s) => secondStep(s.u.email, { recovery_code: s.codes[0] as string }),
  check: async (s, phase) => {
    const [used] = await q<{ n: number }>(
      `SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NOT NULL`,
      [s.u.id],
    );
    expect(used?.n).toBe(phase === 'failed' ? 0 : 1);
    expect((await sessionsOf(s.u.id)).filter((r) => !r.revoked_reason)).toHaveLength(phase === 'failed' ? 0 : 1);
  },
});
op({
  name: 'refresh token reuse',
  action: 'auth.refresh_reuse',
  sessions: true,
  okStatus: 401,
  prepare: async () => {
    const { u, clients } = await signedInOn(1);
    const c = clients[0] as Client;
    const old = c.cookies.get(REFRESH_COOKIE) as string;
    expect((await c.post('/auth/refresh')).statusCode).toBe(200);
    // Past the grace period: the replaced token coming back ends the session.
    await q(`UPDATE sessions SET rotated_at = now() - interval '10 minutes' WHERE user_id = $1`, [u.id]);
    return { u, old };
  },
  request: (s) => {
    const c = new Client(ctx);
    c.cookies.set(REFRESH_COOKIE, s.old);
    return c.post('/auth/refresh');
  },
  check: async (s, phase) => {
    expect((await sessionsOf(s.u.id)).map((r) => r.revoked_reason)).toEqual([phase === 'failed' ? null : 'refresh_reuse']);
  },
});
op({
  name: 'logout',
  action: 'auth.logout',
  sessions: true,
  prepare: () => signedInOn(1),
  request: (s) => (s.clients[0] as Client).post('/auth/logout'),
  check: async (s, phase) => {
    expect((await sessionsOf(s.u.id)).map((r) => r.revoked_reason)).toEqual([phase === 'failed' ? null : 'logout']);
  },
});
op({
  name: 'session end',
  action: 'session.end',
  sessions: true,
  prepare: () => signedInOn(2),
  request: (s) => (s.clients[0] as Client).del(`/me/sessions/${s.ids[1]}`),
  check: async (s, phase) => {
    expect((await sessionsOf(s.u.id)).map((r) => r.revoked_reason)).toEqual([null, phase === 'failed' ? null : 'ended_by_user']);
  },
});
op({
  name: 'session end others',
  action: 'session.end_others',
  sessions: true,
  prepare: () => signedInOn(3),
  request: (s) => (s.clients[0] as Client).del('/me/sessions'),
  check: async (s, phase) => {
    const ended = phase === 'failed' ? null : 'ended_by_user';
    expect((await sessionsOf(s.u.id)).map((r) => r.revoked_reason)).toEqual([null, ended, ended]);
  },
});

/* --- the run --------------------------------------------------------------------------------- */

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  A = (await createCompany(ctx, 'Альфа')).id;
  await attachJobs(ctx, false); // jobs are queued, never run: nothing changes behind the test's back
  const key = created(await admin.post('/apikeys', { name: 'Сборщик', company_id: A, roles: [], collector: true }));
  collector = { authorization: `Bearer ${key.secret as string}` };
  created(await admin.post(CH, { link: '@atomic_news', company_id: A, keywords: ['банк'] }));
  const doc = (ctx.app as unknown as { swagger(): { paths: Record<string, Record<string, unknown>> } }).swagger();
  for (const [p, ops] of Object.entries(doc.paths)) {
    const m = /^\/api\/v1\/modules\/([a-z]+)\/events$/.exec(p)?.[1];
    if (m && 'patch' in ops && 'delete' in ops) batchModules.push(m);
  }
  expect(batchModules.length).toBeGreaterThanOrEqual(3);
  await installBreaker();
});

describe('every audit entry commits together with the change it records', () => {
  it.each(OPS.map((o) => [o.name, o] as const))('%s', async (_name, o) => {
    const s = (await o.prepare?.()) as never;
    await settle();
    const before = await snapshot(o.sessions);
    const mark = await lastAuditId();

    await breakAudit();
    let failed: LightMyRequestResponse;
    try {
      failed = await o.request(s);
    } finally {
      await repairAudit();
    }
    expect(failed.statusCode, `with the audit store broken: ${failed.body}`).toBeGreaterThanOrEqual(500);
    await settle();
    expect(changed(before, await snapshot(o.sessions)), 'changed although the audit entry failed').toEqual([]);
    expect(await lastAuditId()).toBe(mark);
    await o.check?.(s, 'failed');

    const ok = await o.request(s);
    if (o.okStatus) expect(ok.statusCode, ok.body).toBe(o.okStatus);
    else expect(ok.statusCode, ok.body).toBeLessThan(300);
    await settle();
    const entries = await q<{ action: string }>(`SELECT action FROM audit_log WHERE id > $1 ORDER BY id`, [mark]);
    expect(entries.map((e) => e.action)).toEqual([o.action].flat());
    await o.check?.(s, 'ok');
  });

  it('password reset request: no token and no letter without its entry', async () => {
    // The route answers at once and does the work after the response: run the work itself.
    const u = await createUser(ctx, { email: `reset-${n()}@forpost.test`, role: 'ANALYST' });
    const reset = () => ctx.app.services.identity.requestReset(u.email, { ip: '127.0.0.1' });
    const tokens = async () =>
      (await q<{ n: number }>(`SELECT count(*)::int AS n FROM password_tokens WHERE user_id = $1`, [u.id]))[0]?.n;
    await settle();
    const before = await snapshot(true);
    const mark = await lastAuditId();

    await breakAudit();
    try {
      await reset();
    } finally {
      await repairAudit();
    }
    // The snapshot holds the stored files, the letters (DATA_DIR/mail without SMTP) among them.
    expect(changed(before, await snapshot(true)), 'changed although the audit entry failed').toEqual([]);
    expect(await lastAuditId()).toBe(mark);
    expect(await tokens()).toBe(0);

    await reset();
    const entries = await q<{ action: string }>(`SELECT action FROM audit_log WHERE id > $1 ORDER BY id`, [mark]);
    expect(entries.map((e) => e.action)).toEqual(['auth.reset_requested']);
    expect(await tokens()).toBe(1);
    expect(changed(before, await snapshot(true)).sort()).toEqual(['files', 'public.password_tokens']);
  });
});

/* --- every audit.record call site is given the change's transaction -------------------------- */

/** Entries that record no change (nothing to commit with) — written on their own on purpose. */
const STANDALONE = new Set([
  // A refused activation: the activation's transaction rolls back, the record of the attempt must stay.
  'companies/companies.service.ts product_key.activate_failed',
  // A read: recorded before the card number is disclosed.
  'events/write/events.reads.ts event.card_reveal',
  // Refused sign-ins (wrong password, an address not allowed, a locked-out pair): nothing changes.
  'auth/auth.service.ts auth.login_failed',
  'auth/auth.service.ts auth.ip_denied',
  'auth/signin-guard.ts auth.lockout',
  // A wrong second factor (sign-in, turning 2FA on or off) and a wrong current password: refusals.
  'auth/identity.service.ts auth.2fa_failed',
  'auth/identity.service.ts user.password_change_failed',
]);

/** Top-level arguments of every `audit.record(` call in a source text. */
function auditCalls(src: string): { line: number; args: string[] }[] {
  const out: { line: number; args: string[] }[] = [];
  for (const m of src.matchAll(/audit\.record\(/g)) {
    let depth = 1;
    let i = (m.index ?? 0) + m[0].length;
    const args = [''];
    for (; depth > 0 && i < src.length; i++) {
      const c = src[i] as string;
      if ('([{'.includes(c)) depth++;
      if (')]}'.includes(c)) depth--;
      if (depth === 0) break;
      if (c === ',' && depth === 1) args.push('');
      else args[args.length - 1] += c;
    }
    out.push({ line: src.slice(0, m.index).split('\n').length, args: args.map((a) => a.trim()).filter(Boolean) });
  }
  return out;
}

describe('audit call sites', () => {
  it('every audit.record in the modules is given the transaction of its change', () => {
    const root = path.resolve(import.meta.dirname, '../src/modules');
    const files = filesUnder(root).filter((f) => f.endsWith('.ts'));
    const offenders: string[] = [];
    const standalone: string[] = [];
    let checked = 0;
    for (const f of files) {
      for (const call of auditCalls(readFileSync(path.join(root, f), 'utf8'))) {
        checked++;
        const action = /action:\s*(['`])([^'`]+)\1/.exec(call.args[1] ?? '')?.[2] ?? '?';
        const tx = call.args[2];
        if (tx && !/^(db|deps\.db|ctx\.db)$/.test(tx)) continue;
        if (STANDALONE.has(`${f} ${action}`)) standalone.push(`${f} ${action}`);
        else offenders.push(`${f}:${call.line} ${action}`);
      }
    }
    expect(offenders, 'audit.record without the change’s transaction').toEqual([]);
    expect([...new Set(standalone)].sort(), 'a listed standalone entry is gone: drop it from STANDALONE').toEqual(
      [...STANDALONE].sort(),
    );
    expect(checked).toBeGreaterThan(50);
  });
});
