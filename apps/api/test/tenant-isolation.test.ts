/*
 * Tenant isolation, generated from the route table. Company B holds one object of every kind (events
 * of every module, documents, uploads and imports in every state, exports, reports, mailings,
 * comments, whitelist and allowlist entries, API keys, Telegram sources, messages, snapshots,
 * history); the staff owner holds company-less ones. Three principals of company A try every route
 * that carries an id with B's (and the owner's) ids:
 *   · a company user of A (COMPANY_ADMIN, the broadest company role),
 *   · an API key of A issued by a SUPER_ADMIN (the owner also reaches B and owns company-less objects),
 *   · an API key of A issued by A's company admin.
 * The rule: another tenant's id answers exactly like an id that does not exist — 404, or (listed and
 * justified below) the same 400/403 a missing id gets; nothing of B changes. Lists, counts, charts,
 * searches, export files and reports of A never show B — with no company, with «all companies»
 * (company_id=-1) or with B's id as a filter. A route with an id and no case fails the completeness
 * test. The summary (routes × principals, every leak) is printed at the end; TENANT_TRACE=<file>
 * writes every probe's answers.
 */
import { writeFileSync } from 'node:fs';
import { fieldOf, MODULE_LIST, type ModuleDescriptor } from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs } from './imports-kit';
import { pdfText } from './reports.pdftext';
import {
  changedTables,
  type Finding,
  fingerprint,
  fmt,
  GHOST,
  idSlots,
  isGate,
  MARKER,
  type Method,
  moduleOf,
  type Principal,
  type Req,
  type Res,
  routeKey,
  send,
  showsB,
} from './tenant-kit';

let ctx: TestContext;
const findings: Finding[] = [];
/** Every probe's answers, written to $TENANT_TRACE when set (for reviewing what each route answered). */
const trace: string[] = [];
const stats = { routes: 0, concrete: 0, probes: 0, requests: 0, as404: 0, gated: 0, justified: 0, lists: 0, controls: 0 };

// ---------------------------------------------------------------------------
// Seed: companies A and B, the principals, one object of every kind
// ---------------------------------------------------------------------------

type Id = number | string;
const B_NAME = `Бета ${MARKER}`;
const today = new Date();
const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);

interface ImportRef {
  id: number;
  mapping: (string | null)[];
}
/** The seeded objects' ids (filled by `seed`). */
const S = {
  A: 0,
  B: 0,
  ownerId: 0,
  bUserId: 0,
  aMemberId: 0,
  ev: {} as Record<string, { a: number; b: number; bSample: number }>,
  status: {} as Record<string, number>,
  tagB: 0,
  comment: { a: 0, b: 0 },
  docs: {} as Record<string, number>,
  imp: {} as Record<string, Record<string, ImportRef>>,
  catImport: 0,
  ownImport: {} as Record<string, ImportRef>,
  exp: {} as Record<string, number>,
  bulk: { b: 0, owner: 0 },
  ownExport: {} as Record<string, number>,
  report: { a: 0, b: 0 },
  mailing: { a: 0, b: 0, all: 0 },
  wl: { a: 0, b: 0, global: 0 },
  allow: { a: 0, b: 0 },
  apikey: { a: 0, b: 0, bSecret: '' },
  tg: { account: 0, aChannel: 0, bChannel: 0, bChannelName: `@${MARKER}_channel` },
  msg: { a: 0, b: 0 },
  file: { a: 0, b: 0 },
  leak: 0,
  hunt: 0,
  productKey: 0,
  asset: { a: 0, b: 0 },
  run: { a: 0, b: 0 },
  /** Integrations (#33): a webhook endpoint of each company and a delivery of each. */
  integ: { a: 0, b: 0, aDelivery: 0, bDelivery: 0 },
  view: { b: 0, owner: 0, a: 0 },
  /** A notification of B's user (its event assigned to them by the owner). */
  notifB: 0,
  /** The undo token of a batch change of B's event (made by the owner). */
  undoB: '',
  session: { owner: '', bUser: '' },
  exportFields: [] as string[],
  /** Takedown requests (#32) of A's and B's domain events. */
  takedown: { a: 0, b: 0 },
  /** TAXII collection ids (domains) of A and B, and an object of B's. */
  taxii: { a: '', b: '', bObject: '' },
};

let owner: Principal;
let bUser: Principal;
let principals: Principal[];

const cookieP = (name: string, client: Client): Principal => ({ name, client, headers: {}, isKey: false });
const keyP = (name: string, secret: string): Principal => ({
  name,
  client: new Client(ctx),
  headers: { authorization: `Bearer ${secret}` },
  isKey: true,
});

async function must(p: Principal, r: Req, status: number): Promise<Res> {
  const res = await send(ctx, p, r);
  if (res.status !== status) throw new Error(`seed: ${r.method} ${r.url}: ${res.status} ${res.body.slice(0, 400)}`);
  return res;
}
const idOf = (r: Res) => (r.json() as { id: number }).id;
/** POST (201 expected) and the new object's id. */
const create = async (p: Principal, url: string, body: unknown, status = 201) =>
  idOf(await must(p, { method: 'POST', url, body }, status));
const fetchJson = async <T>(p: Principal, url: string) => (await must(p, { method: 'GET', url }, 200)).json() as T;

/** A one-row CSV of the module's sample, with Russian headers (auto-mapped at upload). */
function csvFor(m: ModuleDescriptor, n: number, title: string): string {
  const data = m.sample(n);
  const keys = Object.keys(data).filter((k) => fieldOf(m, k) && !fieldOf(m, k)?.derived);
  const esc = (s: string) => (/[;"\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const cell = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));
  const head = ['Заголовок', ...keys.map((k) => fieldOf(m, k)?.label ?? k)];
  const row = [title, ...keys.map((k) => cell(data[k]))];
  return `${head.map(esc).join(';')}\n${row.map(esc).join(';')}\n`;
}

async function uploadImport(p: Principal, code: string, csv: string, company?: number, name = `${code}.csv`): Promise<ImportRef> {
  const fields: Record<string, string> = company ? { company_id: String(company) } : {};
  const r = await must(
    p,
    { method: 'POST', url: `/modules/${code}/events/imports`, form: { fields, file: { name, content: csv } } },
    201,
  );
  const b = r.json() as { id: number; preview: { mapping: (string | null)[] } };
  return { id: b.id, mapping: b.preview.mapping };
}

async function waitStatus(p: Principal, url: string, ms = 60_000): Promise<Record<string, unknown>> {
  const until = Date.now() + ms;
  for (;;) {
    const r = await send(ctx, p, { method: 'GET', url });
    const b = r.status === 200 ? (r.json() as Record<string, unknown>) : undefined;
    if (b && ['done', 'failed'].includes(String(b.status))) return b;
    if (Date.now() > until) throw new Error(`seed: timeout waiting for ${url}: ${r.status} ${r.body.slice(0, 300)}`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** A copy of an uploaded import in another state (no job behind it; a far heartbeat keeps it out of the stale sweep). */
async function cloneImport(src: number, status: 'queued' | 'running' | 'done' | 'failed'): Promise<number> {
  const finished = status === 'done' || status === 'failed';
  const r = await ctx.database.db.execute(sql`
    INSERT INTO imports (module, company_id, doc_id, file_name, file_size, format, encoding, delimiter, headers, mapping, sample, mode,
                         status, message, scope, author_id, heartbeat_at, started_at, finished_at, rows_total, rows_read, failed, errors_count)
    SELECT module, company_id, doc_id, file_name, file_size, format, encoding, delimiter, headers, mapping, sample, mode,
           ${status}, ${status === 'failed' ? `${MARKER}: файл испорчен` : null}, ARRAY[company_id], author_id,
           now() + interval '1 day', ${status === 'queued' ? null : sql`now()`}, ${finished ? sql`now()` : null},
           1, ${finished ? 1 : 0}, ${finished ? 1 : 0}, ${finished ? 1 : 0}
      FROM imports WHERE id = ${src} RETURNING id`);
  const id = (r.rows[0] as { id: number }).id;
  if (finished)
    await ctx.database.db.execute(
      sql`INSERT INTO import_row_errors (import_id, row, "column", value, message) VALUES (${id}, 2, 'Домен', ${`${MARKER}-bad`}, 'Неверный формат домена')`,
    );
  return id;
}

const PASSWORD = 'Forpost-Admin-2026!Pass';
const OWNER_EMAIL = 'owner@forpost.test';

async function seed() {
  // Thousands of requests through two keys (no rate limit); sign-ins that outlast a slow, busy run.
  ctx = await setupApp({ API_KEY_RATE_LIMIT: '0', ACCESS_TTL_SECONDS: '3600' });
  await attachJobs(ctx, true);
  S.A = (await createCompany(ctx, 'Альфа')).id;
  S.B = (await createCompany(ctx, B_NAME)).id;
  const { A, B } = S;
  const db = ctx.database.db;

  // People: the staff owner (two sessions), B's admin, A's admin and a member of A.
  owner = cookieP('staff owner (SUPER_ADMIN)', await signedIn(ctx, OWNER_EMAIL, 'SUPER_ADMIN'));
  S.ownerId = (await db.execute(sql`SELECT id FROM users WHERE email = ${OWNER_EMAIL}`)).rows[0]?.id as number;
  await new Client(ctx).login(OWNER_EMAIL, PASSWORD); // the target of «end a session» through A's key
  const bEmail = `${MARKER}@beta.test`;
  S.bUserId = (
    await createUser(ctx, {
      email: bEmail,
      name: `${MARKER} Сотрудник Беты`,
      role: 'COMPANY_USER',
      companies: [{ id: B, role: 'COMPANY_ADMIN' }],
    })
  ).id;
  bUser = cookieP('user of B', new Client(ctx));
  await bUser.client.login(bEmail, PASSWORD);
  S.aMemberId = (
    await createUser(ctx, {
      email: 'a.member@forpost.test',
      role: 'COMPANY_USER',
      companies: [{ id: A, role: 'COMPANY_VIEWER' }],
    })
  ).id;
  const aUser = cookieP(
    'user of A (COMPANY_ADMIN)',
    await signedIn(ctx, 'a.admin@forpost.test', 'COMPANY_USER', [{ id: A, role: 'COMPANY_ADMIN' }]),
  );
  const lastSession = async (userId: number) =>
    (await db.execute(sql`SELECT id FROM sessions WHERE user_id = ${userId} ORDER BY created_at DESC LIMIT 1`)).rows[0]
      ?.id as string;
  S.session = { owner: await lastSession(S.ownerId), bUser: await lastSession(S.bUserId) };

  // API keys: A's by the staff owner (also a collector), A's by A's admin, B's by the staff owner.
  const all = [{ module: '*', access: 'write' }];
  const key = async (p: Principal, body: Record<string, unknown>) =>
    (await must(p, { method: 'POST', url: '/apikeys', body: { roles: all, ...body } }, 201)).json() as {
      id: number;
      secret: string;
    };
  const kStaff = await key(owner, { name: 'Ключ Альфы (выпустил сотрудник)', company_id: A, collector: true });
  const kCompany = await key(aUser, { name: 'Ключ Альфы (выпустил админ Альфы)', company_id: A });
  const kB = await key(owner, { name: `${MARKER} ключ Беты`, company_id: B });
  S.apikey = { a: kCompany.id, b: kB.id, bSecret: kB.secret };
  principals = [
    aUser,
    keyP('API key of A (staff-issued)', kStaff.secret),
    keyP('API key of A (A-admin-issued)', kCompany.secret),
  ];

  // Events of every module in A and in B, critical (so they count in every chart).
  for (const [i, m] of MODULE_LIST.entries()) {
    const url = `/modules/${m.code}/events`;
    const pr = await fetchJson<{ items: { id: number; level: number }[] }>(owner, `${url}/priorities`);
    const critical = [...pr.items].sort((x, y) => y.level - x.level)[0]?.id;
    const ev = (company: number, n: number, title: string) =>
      create(owner, url, { company_id: company, title, priority_id: critical, ...m.sample(n) });
    S.ev[m.code] = {
      a: await ev(A, 200 + i, `Альфа ${m.code}`),
      b: await ev(B, 100 + i, `${MARKER} ${m.code}`),
      bSample: 100 + i,
    };
    const st = await fetchJson<{ items: { id: number }[] }>(owner, `${url}/statuses`);
    S.status[m.code] = st.items[1]?.id ?? st.items[0]?.id ?? 1;
  }
  const evB = (code: string) => S.ev[code]?.b as number;
  const evA = (code: string) => S.ev[code]?.a as number;
  // B's user is assigned B's domain event: their notification is a target of «mark as read».
  await send(ctx, owner, { method: 'PATCH', url: `/modules/domains/events/${evB('domains')}`, body: { assignee_id: S.bUserId } });
  S.notifB = (await db.execute(sql`SELECT id FROM notifications WHERE user_id = ${S.bUserId} ORDER BY id DESC LIMIT 1`)).rows[0]
    ?.id as number;
  // A batch change of B's event: its «Отменить» token is a target (only its author may use it).
  const batchB = await send(ctx, owner, {
    method: 'PATCH',
    url: '/modules/domains/events',
    body: { ids: [evB('domains')], patch: { priority_id: null } },
  });
  S.undoB = (JSON.parse(batchB.body) as { undo_token?: string }).undo_token ?? '';
  expect(S.undoB, batchB.body).not.toBe('');
  // Failed classifications in both companies (the classifier summary and «requeue failed» count them).
  await db.execute(
    sql`UPDATE events SET ml_state = 'Failed' WHERE id IN (${evB('domains')}, ${evB('brand')}, ${evB('media')}, ${evA('brand')})`,
  );
  // A tag only B's events carry (tags are global; their usage counts are per company).
  S.tagB = await create(owner, '/tags', { name: 'Только у Беты', color: '#123456' });
  await must(owner, { method: 'PATCH', url: `/modules/domains/events/${evB('domains')}`, body: { tags: [S.tagB] } }, 200);
  S.comment = {
    b: await create(owner, '/comments', { event_id: evB('domains'), text: `${MARKER} комментарий` }),
    a: await create(owner, '/comments', { event_id: evA('domains'), text: 'Комментарий Альфы' }),
  };

  // Documents: B's, on B's event, the owner's company-less upload and avatar, B's user's avatar, A's.
  const doc = async (p: Principal, fields: Record<string, string>, name: string, content: Buffer | string, type = 'text/plain') =>
    idOf(await must(p, { method: 'POST', url: '/docs', form: { fields, file: { name, content, type } } }, 201));
  S.docs.b = await doc(owner, { kind: 'sample', company_id: String(B) }, `${MARKER}.txt`, `${MARKER} секрет`);
  S.docs.bEvent = await doc(
    owner,
    { kind: 'sample', event_id: String(evB('domains')) },
    `${MARKER}-event.txt`,
    `${MARKER} вложение`,
  );
  S.docs.ownerUpload = await doc(owner, { kind: 'sample' }, `${MARKER}-owner.txt`, `${MARKER} личный файл сотрудника`);
  S.docs.ownerAvatar = await doc(owner, { kind: 'avatar' }, `${MARKER}-owner.png`, PNG, 'image/png');
  S.docs.bUserAvatar = await doc(bUser, { kind: 'avatar' }, `${MARKER}.png`, PNG, 'image/png');
  S.docs.a = await doc(owner, { kind: 'sample', company_id: String(A) }, 'alfa.txt', 'файл Альфы');

  // Imports of every module: B's in every state, the owner's company-less draft, A's (the controls).
  for (const [i, m] of MODULE_LIST.entries()) {
    const up = await uploadImport(owner, m.code, csvFor(m, 300 + i, `${MARKER} импорт`), B, `${MARKER}-${m.code}.csv`);
    const state = async (s: 'queued' | 'running' | 'done' | 'failed') => ({
      id: await cloneImport(up.id, s),
      mapping: up.mapping,
    });
    S.imp[m.code] = {
      uploaded: up,
      queued: await state('queued'),
      running: await state('running'),
      done: await state('done'),
      failed: await state('failed'),
      ownerDraft: await uploadImport(
        owner,
        m.code,
        csvFor(m, 400 + i, `${MARKER} черновик сотрудника`),
        undefined,
        `${MARKER}-draft-${m.code}.csv`,
      ),
      a: await uploadImport(owner, m.code, csvFor(m, 500 + i, 'Импорт Альфы'), A),
    };
  }
  // Domains: a B import really run by the job (one row imported, one row error), and B's user's draft.
  const domains = MODULE_LIST.find((m) => m.code === 'domains') as ModuleDescriptor;
  const d = S.imp.domains as Record<string, ImportRef>;
  const csv = `Домен;Заголовок\n${MARKER}-imported.ru;${MARKER} импортирован\nnot a domain;${MARKER} плохая строка\n`;
  d.doneByJob = await uploadImport(owner, 'domains', csv, B, `${MARKER}-job.csv`);
  const start = { mapping: d.doneByJob.mapping, mode: 'update', company_id: B };
  await must(owner, { method: 'POST', url: `/modules/domains/events/imports/${d.doneByJob.id}/start`, body: start }, 202);
  const done = await waitStatus(owner, `/modules/domains/events/imports/${d.doneByJob.id}`);
  if (done.status !== 'done' || done.errors_count !== 1) throw new Error(`seed: B's import ${JSON.stringify(done)}`);
  d.bUserDraft = await uploadImport(
    bUser,
    'domains',
    csvFor(domains, 600, `${MARKER} черновик Беты`),
    undefined,
    `${MARKER}-b-draft.csv`,
  );
  const docOfImport = async (id?: number) =>
    (await db.execute(sql`SELECT doc_id FROM imports WHERE id = ${id}`)).rows[0]?.doc_id as number;
  S.docs.bImport = await docOfImport(d.doneByJob.id);
  S.docs.ownerDraftImport = await docOfImport(d.ownerDraft?.id);
  // The leaks catalogue's import (staff only, company-less by design).
  const catalogue = { fields: {}, file: { name: `${MARKER}-leaks.csv`, content: 'Название\nУтечка каталога\n' } };
  S.catImport = idOf(await must(owner, { method: 'POST', url: '/modules/leaks/imports', form: catalogue }, 201));
  // Each principal's own draft import in A (the target of «start it into B»).
  for (const [k, p] of principals.entries())
    S.ownImport[p.name] = await uploadImport(p, 'domains', csvFor(domains, 700 + k, 'Свой черновик'), A);

  // Exports: B's by the owner, by B's user, and the owner's export of every company.
  const fields = await fetchJson<{ items: { fields: { key: string }[] }[] }>(owner, '/modules/exports/fields?module=domains');
  S.exportFields = fields.items[0]?.fields.map((f) => f.key) ?? ['title'];
  const exportOf = async (p: Principal, filters: Record<string, unknown>, name: string) => {
    const id = await create(
      p,
      '/modules/exports',
      { module: 'domains', format: 'csv', fields: S.exportFields, filters, name },
      202,
    );
    await waitStatus(p, `/modules/exports/${id}`);
    return id;
  };
  S.exp.bByOwner = await exportOf(owner, { company_id: B }, `${MARKER} экспорт Беты`);
  S.exp.bByUser = await exportOf(bUser, {}, `${MARKER} экспорт пользователя Беты`);
  S.exp.ownerAll = await exportOf(owner, {}, `${MARKER} экспорт всех компаний`);

  // Bulk operations «по фильтру» (selecting nothing): one by B's user, one by the staff owner.
  const bulkOf = (p: Principal) =>
    create(p, `/modules/domains/events/bulk?import_id=${GHOST}`, { op: 'patch', patch: { tags_add: [S.tagB] } }, 200);
  S.bulk = { b: await bulkOf(bUser), owner: await bulkOf(owner) };

  // Reports, rendered (ready, with a PDF document).
  const report = async (company: number, name: string) => {
    const id = await create(owner, '/tools/reports', { company_id: company, from: day(-7), to: day(0), name });
    if ((await ctx.app.services.reports.render(id)) !== 'ready') throw new Error('seed: report not rendered');
    return id;
  };
  S.report = { b: await report(B, `${MARKER} отчёт`), a: await report(A, 'Отчёт Альфы') };
  S.docs.bReport = (await db.execute(sql`SELECT doc_id FROM reports WHERE id = ${S.report.b}`)).rows[0]?.doc_id as number;

  // Mailings: B's, the staff's mailing of every company (company-less), A's by A's admin.
  const mailing = (p: Principal, company: number | null, name: string, to: string) =>
    create(p, '/notifications/mailings', { name, company_id: company, recipients: [to] });
  S.mailing = {
    b: await mailing(owner, B, `${MARKER} рассылка`, 'soc@beta.test'),
    all: await mailing(owner, null, `${MARKER} рассылка всем компаниям`, 'soc@forpost.test'),
    a: await mailing(aUser, A, 'Рассылка Альфы', 'soc@alfa.test'),
  };

  // Takedown requests (#32): one draft of A's and one of B's domain event (no RDAP: written directly).
  const takedown = async (company: number, eventId: number, domain: string) => {
    const evidence = {
      domain,
      ascii: domain,
      url: null,
      ip: null,
      company: MARKER,
      asset: null,
      similarity: null,
      registrar: null,
      registered_at: null,
      page_title: null,
      event_created_at: new Date().toISOString(),
      watch: null,
      rdap: null,
      network: null,
      screenshot: null,
      comment: null,
    };
    const r = await db.execute(sql`INSERT INTO takedown_requests (company_id, event_id, domain, xarf_type, evidence)
      VALUES (${company}, ${eventId}, ${domain}, 'phishing', ${JSON.stringify(evidence)}::jsonb) RETURNING id`);
    const id = Number(r.rows[0]?.id);
    await db.execute(sql`INSERT INTO takedown_recipients (request_id, company_id, position, kind, email)
      VALUES (${id}, ${company}, 1, 'manual', ${`abuse@${domain}`})`);
    return id;
  };
  S.takedown = {
    b: await takedown(B, S.ev.domains?.b as number, 'beta-takedown.ru'),
    a: await takedown(A, S.ev.domains?.a as number, 'alfa-takedown.ru'),
  };

  // Whitelists (B's entries also feed the lookups test), the domain allowlist, B's product key.
  const wl = (company: number | 'global', value: string, comment: string) =>
    create(owner, `/companies/${company}/whitelist`, { type: 'domain', value, kind: 'whitelistClient', comment });
  S.wl = {
    b: await wl(B, 'beta-white.ru', `${MARKER} белый список`),
    a: await wl(A, 'alfa-white.ru', 'Альфа'),
    global: await wl('global', 'global-white.ru', 'общий'),
  };
  const allow = (company: number, domain: string, comment: string) =>
    create(owner, '/modules/domains/allowlist', { company_id: company, domain, comment });
  S.allow = { b: await allow(B, 'beta-allow.ru', MARKER), a: await allow(A, 'alfa-allow.ru', 'Альфа') };
  for (let k = 0; k < 3; k++) {
    await wl(B, `beta-white-${k}.ru`, MARKER);
    await allow(B, `beta-allow-${k}.ru`, MARKER);
  }
  S.productKey = await create(owner, `/companies/${B}/keys`, { comment: `${MARKER} ключ` });
  // Discovery: a protected domain of each company and a run of each (queued: no job queue here).
  S.asset = {
    b: await create(owner, `/companies/${B}/assets`, { kind: 'domain', value: `${MARKER}-bank.ru` }),
    a: await create(owner, `/companies/${A}/assets`, { kind: 'domain', value: 'alfa-bank-probe.ru' }),
  };
  S.run = {
    b: await create(owner, '/discovery/runs', { company_id: B }, 202),
    a: await create(owner, '/discovery/runs', { company_id: A }, 202),
  };
  // Integrations (#33): a webhook endpoint of each company, and one delivery of each (written as the outbox does).
  const hook = async (company: number, name: string) =>
    (
      (
        await must(
          owner,
          {
            method: 'POST',
            url: '/integrations/webhooks',
            body: { company_id: company, name, url: 'https://hooks.example.com/in' },
          },
          201,
        )
      ).json() as {
        target: { id: number };
      }
    ).target.id;
  S.integ.b = await hook(B, `${MARKER} веб-хук`);
  S.integ.a = await hook(A, 'Веб-хук Альфы');
  const delivery = async (target: number, company: number) => {
    const r = await ctx.database.db.execute(sql`
      WITH m AS (INSERT INTO outbox_messages (company_id, type, payload) VALUES (${company}, 'event.created', ${JSON.stringify({ title: MARKER })}::jsonb) RETURNING id)
      INSERT INTO integration_deliveries (target_id, message_id, state) SELECT ${target}, id, 'failed' FROM m RETURNING id`);
    return Number((r.rows[0] as { id: number }).id);
  };
  S.integ.bDelivery = await delivery(S.integ.b, B);
  S.integ.aDelivery = await delivery(S.integ.a, A);
  // Saved views of the domains list: B's shared one, the staff owner's personal one, A's user's own.
  const view = (p: Principal, name: string, shared: boolean, q = MARKER) =>
    create(p, '/modules/domains/views', { name, shared, state: { filters: { q } } });
  S.view = {
    b: await view(bUser, `${MARKER} общий вид`, true),
    owner: await view(owner, `${MARKER} вид`, false),
    a: await view(aUser, 'Вид Альфы', false, 'альфа'),
  };

  // Telegram sources and a collected message per company.
  S.tg.account = await create(owner, '/modules/telegram/accounts', { name: `${MARKER} сборщик`, phone: '+79990000001' });
  S.tg.bChannel = await create(owner, '/modules/telegram/channels', {
    link: S.tg.bChannelName,
    company_id: B,
    keywords: [MARKER],
  });
  S.tg.aChannel = await create(owner, '/modules/telegram/channels', {
    link: '@alfa_channel',
    company_id: A,
    keywords: ['альфа'],
  });
  const message = (channel: string, text: string) =>
    create(owner, '/modules/filtrator/messages', { channel, message_id: 1, text, posted_at: new Date().toISOString() });
  S.msg = { b: await message(S.tg.bChannelName, `${MARKER} сообщение`), a: await message('@alfa_channel', 'альфа сообщение') };
  // One public channel followed by both companies (#35): a post about B is filed under B only, so
  // every list and search of A below must not show it; a post about A only under A.
  await create(owner, '/modules/telegram/channels', { link: '@common_news', company_id: B, keywords: [MARKER] });
  await create(owner, '/modules/telegram/channels', { link: '@common_news', company_id: A, keywords: ['альфа'] });
  const shared = (message_id: number, text: string, status: number) =>
    must(
      owner,
      {
        method: 'POST',
        url: '/modules/filtrator/messages',
        body: { channel: '@common_news', message_id, text, posted_at: new Date().toISOString() },
      },
      status,
    );
  await shared(2, `${MARKER} общий канал`, 201);
  await shared(3, 'альфа общий канал', 201);
  await shared(4, 'ни о ком', 202);
  const sharedRows = await ctx.database.db.execute<{ company_id: number; message_id: string }>(
    sql`SELECT m.company_id, m.message_id FROM filtrator_messages m JOIN telegram_channels c ON c.id = m.channel_id
        WHERE c.username = '@common_news' ORDER BY m.message_id`,
  );
  expect(sharedRows.rows.map((r) => [r.company_id, Number(r.message_id)])).toEqual([
    [B, 2],
    [A, 3],
  ]);

  // A snapshot of B's domain, repository files, a linked leak.
  await create(owner, `/modules/domains/events/snapshots/${evB('domains')}`, { http_status: 200, page_title: `${MARKER} сайт` });
  const file = (ev: number, path: string) => create(owner, `/modules/repositories/events/${ev}/files`, { path });
  S.file = { b: await file(evB('repositories'), `${MARKER}/secret.env`), a: await file(evA('repositories'), 'alfa/readme.md') };
  S.leak = await create(owner, '/modules/leaks', { name: 'Утечка 2025' });
  for (const ev of [evB('accounts'), evA('accounts')])
    await must(owner, { method: 'POST', url: `/modules/accounts/events/${ev}/leaks`, body: { leak_id: S.leak } }, 201);
  // A credential-leak hunt (staff only, company-less: it reads a dump against every company).
  const dump = { fields: {}, file: { name: `${MARKER}-dump.txt`, content: 'someone@example.org:pw-of-someone\n' } };
  S.hunt = idOf(await must(owner, { method: 'POST', url: `/hunts/upload?leak_id=${S.leak}`, form: dump }, 201));

  // TAXII (#33): A's and B's domains collections and B's incident, as the staff owner reads them.
  const cols = (await owner.client.get('/taxii2/forpost/collections/')).json().collections as { id: string; title: string }[];
  S.taxii.a = cols.find((c) => c.title === 'Альфа — Домены')?.id ?? '';
  S.taxii.b = cols.find((c) => c.title === `${B_NAME} — Домены`)?.id ?? '';
  const bObjects = await owner.client.get(`/taxii2/forpost/collections/${S.taxii.b}/objects/?match[type]=incident&limit=1`);
  S.taxii.bObject = (bObjects.json().objects?.[0]?.id as string | undefined) ?? '';
  expect(S.taxii.a && S.taxii.b && S.taxii.bObject).toBeTruthy();

  // The charts read the rollups.
  await ctx.app.services.analytics.fold();
}

// ---------------------------------------------------------------------------
// The cases: route key → what to try with B's ids
// ---------------------------------------------------------------------------

interface Probe {
  /** B's (or the owner's) object the request aims at. */
  target: string;
  /** Its id, and the request with an id in its place. */
  id: Id;
  req: (id: Id) => Req;
  /** An id nobody has (default GHOST). */
  ghost?: Id;
  /** The same request on A's own object: must work (else the case is broken). GET only. */
  control?: Req;
  /** A non-404 answer that is deliberate and reveals nothing: it must equal the answer to a missing id. */
  allow?: { status: number; why: string };
  /**
   * A list filtered by a foreign id: must answer exactly as for a missing id (a function: the part of
   * the answers compared, for answers that hold something new each time).
   */
  list?: boolean | ((body: string) => string);
}
interface Route {
  method: Method;
  /** Under /api/v1, with :params. */
  url: string;
  m?: ModuleDescriptor;
}
interface Case {
  /** The id slots this case fills (checked against the route table and the OpenAPI document). */
  covers: string[];
  probes: (r: Route, p: Principal) => Probe[];
}

const fill = (url: string, params: Record<string, Id>) => url.replace(/:(\w+)/g, (_, k: string) => String(params[k] ?? `:${k}`));
const get = (url: string): Req => ({ method: 'GET', url });
/** The route's own method on `url` (with `body`). */
const call = (r: Route, params: Record<string, Id>, body?: unknown, query = ''): Req => ({
  method: r.method,
  url: `${fill(r.url, params)}${query}`,
  body,
});
const probe = (target: string, id: Id, req: (x: Id) => Req, more: Partial<Probe> = {}): Probe => ({ target, id, req, ...more });
const evB = (m?: ModuleDescriptor) => S.ev[m?.code ?? 'domains']?.b as number;
const evA = (m?: ModuleDescriptor) => S.ev[m?.code ?? 'domains']?.a as number;

/**
 * The usual case: the route's :id, one probe per target (B's objects and the owner's company-less
 * ones), the route's method and body; for a GET, a control on A's own object.
 */
function onId(
  targets: (r: Route, p: Principal) => Record<string, Id>,
  opts: {
    body?: (r: Route) => unknown;
    control?: (r: Route, p: Principal) => Id | undefined;
    more?: Probe[] | ((r: Route, p: Principal) => Probe[]);
  } = {},
): Case {
  return {
    covers: ['path:id'],
    probes: (r, p) => {
      const cid = r.method === 'GET' ? opts.control?.(r, p) : undefined;
      const base = Object.entries(targets(r, p)).map(([target, id]) =>
        probe(target, id, (x) => call(r, { id: x }, opts.body?.(r)), {
          control: cid === undefined ? undefined : call(r, { id: cid }),
        }),
      );
      return [...base, ...(typeof opts.more === 'function' ? opts.more(r, p) : (opts.more ?? []))];
    },
  };
}
/** Probes written out: a body, form or query that names B's company or object, or several ids at once. */
function custom(covers: string[], make: (r: Route, p: Principal) => Probe[]): Case {
  return { covers, probes: make };
}

/** What a bulk operation selected and did: the job itself (its id, times) differs between two answers. */
const bulkOutcome = (body: string) => {
  try {
    const { status, total, processed } = JSON.parse(body) as Record<string, unknown>;
    return JSON.stringify({ status, total, processed });
  } catch {
    return body;
  }
};
/**
 * «Все N по фильтру»: the list's filters given B's company (refused like a missing one) and B's
 * import or user (selecting in A's scope exactly what a missing one selects: nothing).
 */
const bulkByFilter = (body: (r: Route) => unknown): Case =>
  custom(['query:company_id', 'query:import_id', 'query:author_id'], (r) => [
    probe('company B (as the filter’s company)', S.B, (x) => call(r, {}, body(r), `?company_id=${x}`)),
    probe('B’s import (as a filter)', S.imp[r.m?.code ?? '']?.done?.id ?? 0, (x) => call(r, {}, body(r), `?import_id=${x}`), {
      list: bulkOutcome,
    }),
    probe('B’s user (as an author filter)', S.bUserId, (x) => call(r, {}, body(r), `?author_id=${x}`), { list: bulkOutcome }),
  ]);

/** An assignee in a body is checked against the event's company: B's user and a missing user get the same 400. */
const ASSIGNEE_SAME_400 = {
  allow: {
    status: 400,
    why: 'an assignee is checked against the event’s company: a user of another company and a missing user get the same 400 «Пользователь не может видеть это событие»',
  },
};

const DOC_SAME_400 = {
  status: 400,
  why: 'a document id in the body is checked against the event’s company: another company’s document and a missing one get the same 400 «Файл не найден»',
};
const FOREIGN_COMPANY_403 = {
  status: 403,
  why: 'assigning a company one does not manage: the same 403 «Нельзя назначить компанию…» for another company and a missing one',
};
const FOREIGN_KEY_400 = {
  status: 400,
  why: 'issuing a key for a company one does not manage: the same 400 «Нельзя выпустить ключ…» for another company and a missing one',
};
const UNKNOWN_FIELD_400 = {
  status: 400,
  why: '`fields` are the module’s own fields: company_id is refused as an unknown field whatever its value',
};

const IMPORT_LABELS: Record<string, string> = {
  ownerDraft: 'the staff owner’s company-less draft import',
  bUserDraft: 'B’s user’s company-less draft import',
  doneByJob: 'B’s import (done by the job)',
};
const importTargets = (m?: ModuleDescriptor) =>
  Object.entries(S.imp[m?.code ?? ''] ?? {})
    .filter(([state]) => state !== 'a')
    .map(([state, ref]) => ({ label: IMPORT_LABELS[state] ?? `B’s import (${state})`, ref }));
/** An import route: every state of B's imports and the company-less drafts; the control is A's import. */
const onImport = (body?: (ref: ImportRef) => unknown, more?: (r: Route, p: Principal) => Probe[]): Case => ({
  covers: ['path:id', ...(more ? ['body:company_id'] : [])],
  probes: (r, p) => [
    ...importTargets(r.m).map(({ label, ref }) =>
      probe(label, ref.id, (x) => call(r, { id: x }, body?.(ref)), {
        control:
          r.method === 'GET' && !r.url.endsWith('/errors') ? call(r, { id: S.imp[r.m?.code ?? '']?.a?.id ?? 0 }) : undefined,
      }),
    ),
    ...(more?.(r, p) ?? []),
  ],
});
const onCatalogueImport = (body?: unknown): Case =>
  onId(() => ({ 'the leaks catalogue’s import (staff only)': S.catImport }), { body: () => body });

const docTargets = () => ({
  'B’s company document': S.docs.b as number,
  'attachment of B’s event': S.docs.bEvent as number,
  'the staff owner’s company-less upload': S.docs.ownerUpload as number,
  'the staff owner’s avatar': S.docs.ownerAvatar as number,
  'B’s user’s avatar': S.docs.bUserAvatar as number,
  'file of B’s import': S.docs.bImport as number,
  'file of the staff owner’s draft import': S.docs.ownerDraftImport as number,
  'PDF of B’s report': S.docs.bReport as number,
});
const exportTargets = () => ({
  'B’s export by the staff owner': S.exp.bByOwner as number,
  'B’s user’s export': S.exp.bByUser as number,
  'the staff owner’s export of every company': S.exp.ownerAll as number,
});
const userTargets = () => ({ 'B’s user': S.bUserId, 'the staff owner (company-less user)': S.ownerId });
const viewTargets = () => ({ 'B’s shared view': S.view.b, 'the staff owner’s personal view': S.view.owner });
const mailingTargets = () => ({ 'B’s mailing': S.mailing.b, 'the staff mailing of every company': S.mailing.all });
const event = (label: string) => (r: Route) => ({ [label]: evB(r.m) });
const ownEvent = (r: Route) => evA(r.m);
/** B's document, and the owner's company-less upload, offered as a document of A's object. */
const foreignDocs = (make: (x: Id) => Req): Probe[] =>
  [
    ['B’s document', S.docs.b as number],
    ['the staff owner’s company-less upload', S.docs.ownerUpload as number],
  ].map(([label, id]) => probe(`${label} linked to A’s object`, id as number, make, { allow: DOC_SAME_400 }));
const csvFile = (m: ModuleDescriptor | undefined) => ({
  name: 'probe.csv',
  content: csvFor(m as ModuleDescriptor, 900, 'Проба'),
});
const textFile = { name: 'p.txt', content: 'проба' };

const CASES: Record<string, Case> = {
  // --- events of every module ------------------------------------------------
  'GET /modules/{m}/events': custom(['query:author_id', 'query:import_id'], (r) => [
    probe('B’s import (as a list filter)', S.imp[r.m?.code ?? '']?.done?.id ?? 0, (x) => get(`${r.url}?import_id=${x}`), {
      list: true,
    }),
    ...(r.m?.code === 'domains'
      ? [
          probe(
            'B’s import run by the job (as a list filter)',
            S.imp.domains?.doneByJob?.id ?? 0,
            (x) => get(`${r.url}?import_id=${x}`),
            { list: true },
          ),
        ]
      : []),
    probe('B’s user (as an author filter)', S.bUserId, (x) => get(`${r.url}?author_id=${x}`), { list: true }),
  ]),
  'POST /modules/{m}/events': custom(['body:company_id'], (r) => [
    probe('company B (create in it)', S.B, (x) => call(r, {}, { company_id: x, title: 'Проба', ...r.m?.sample(800) })),
  ]),
  'GET /modules/{m}/events/:id': onId(event('B’s event'), { control: ownEvent }),
  'PATCH /modules/{m}/events/:id': {
    covers: ['path:id', 'body:assignee_id'],
    probes: (r, p) => [
      ...onId(event('B’s event'), { body: () => ({ title: 'Взлом' }) }).probes(r, p),
      // Assigning A's event to B's user: the same 400 as a user that does not exist.
      probe(
        'B’s user (as the assignee of A’s event)',
        S.bUserId,
        (x) => call(r, { id: evA(r.m) }, { assignee_id: x }),
        ASSIGNEE_SAME_400,
      ),
    ],
  },
  'DELETE /modules/{m}/events/:id': onId(event('B’s event')),
  // «Отменить» of a change to B's event: answered exactly as a token nobody has.
  'POST /modules/{m}/events/undo/:token': custom(['path:token'], (r) => [
    probe('B’s change (its undo token)', S.undoB, (x) => call(r, { token: x }), {
      ghost: '00000000-0000-4000-8000-000000000000',
    }),
  ]),
  'GET /modules/{m}/events/:id/history': onId(event('history of B’s event'), { control: ownEvent }),
  'GET /modules/{m}/events/:id/ml': onId(event('ML state of B’s event'), { control: ownEvent }),
  'GET /modules/{m}/events/:id/related': onId(event('related events of B’s event'), { control: ownEvent }),
  'POST /modules/{m}/events/:id/ml/requeue': onId(event('B’s event')),
  'POST /modules/{m}/events/:id/actions': onId(event('B’s event'), { body: (r) => ({ action: r.m?.actions?.[0]?.code }) }),
  'POST /modules/{m}/events/:id/reveal': onId(event('B’s card event')),
  'PATCH /modules/{m}/events': custom(['body:ids', 'body:patch.assignee_id'], (r) => {
    const patch = { status_id: S.status[r.m?.code ?? ''] };
    return [
      probe('B’s event (batch)', evB(r.m), (x) => call(r, {}, { ids: [x], patch })),
      probe('B’s event in a batch with A’s', evB(r.m), (x) => call(r, {}, { ids: [evA(r.m), x], patch })),
      probe(
        'B’s user (as the assignee of a batch of A’s)',
        S.bUserId,
        (x) => call(r, {}, { ids: [evA(r.m)], patch: { assignee_id: x } }),
        ASSIGNEE_SAME_400,
      ),
    ];
  }),
  'DELETE /modules/{m}/events': custom(['body:ids'], (r) => [
    probe('B’s event (batch)', evB(r.m), (x) => call(r, {}, { ids: [x] })),
    probe('B’s event in a batch with A’s', evB(r.m), (x) => call(r, {}, { ids: [evA(r.m), x] })),
  ]),
  'POST /modules/{m}/events/actions': custom(['body:ids'], (r) => {
    const action = r.m?.actions?.[0]?.code;
    return [
      probe('B’s event (action on a list)', evB(r.m), (x) => call(r, {}, { ids: [x], action })),
      probe('B’s event in a list with A’s', evB(r.m), (x) => call(r, {}, { ids: [evA(r.m), x], action })),
    ];
  }),
  'POST /modules/{m}/events/bulk': {
    covers: [...bulkByFilter(() => undefined).covers, 'body:patch.assignee_id'],
    probes: (r, p) => [
      ...bulkByFilter((x) => ({ op: 'patch', patch: { status_id: S.status[x.m?.code ?? ''] } })).probes(r, p),
      probe(
        'B’s user (as the assignee of every event the filter selects)',
        S.bUserId,
        (x) => call(r, {}, { op: 'patch', patch: { assignee_id: x } }),
        ASSIGNEE_SAME_400,
      ),
    ],
  },
  'DELETE /modules/{m}/events/bulk': bulkByFilter(() => undefined),
  'GET /modules/{m}/events/bulk/:id': onId(() => ({
    'B’s user’s bulk operation': S.bulk.b,
    'the staff owner’s bulk operation': S.bulk.owner,
  })),
  'GET /modules/{m}/events/snapshots/:id': onId(event('snapshots of B’s domain'), { control: ownEvent }),
  // STIX and TAXII (#33): an event's bundle; B's collection, and B's object asked for in A's collection.
  'GET /modules/{m}/events/:id/stix': onId(event('STIX bundle of B’s event'), { control: ownEvent }),
  ...Object.fromEntries(
    ['', 'objects/', 'manifest/'].map((tail) => [
      `GET /taxii2/forpost/collections/:collection/${tail}`,
      custom(['path:collection'], (r) => [
        probe('B’s TAXII collection', S.taxii.b, (x) => call(r, { collection: x }), {
          control: call(r, { collection: S.taxii.a }),
        }),
      ]),
    ]),
  ),
  ...Object.fromEntries(
    ['', 'versions/'].map((tail) => [
      `GET /taxii2/forpost/collections/:collection/objects/:object/${tail}`,
      custom(['path:collection', 'path:object'], (r) => [
        probe('B’s TAXII collection (B’s object in it)', S.taxii.b, (x) => call(r, { collection: x, object: S.taxii.bObject })),
        probe('B’s object in A’s TAXII collection', S.taxii.bObject, (x) => call(r, { collection: S.taxii.a, object: x })),
      ]),
    ]),
  ),
  // The watch (#31): an event's timeline and flag.
  'GET /modules/{m}/events/:id/watch': onId(event('watch timeline of B’s domain'), { control: ownEvent }),
  'PUT /modules/{m}/events/:id/watch': onId(event('B’s domain (its watch flag)'), { body: () => ({ watched: true }) }),
  'POST /modules/{m}/events/snapshots/:id': {
    covers: ['path:id', 'body:screenshot_doc_id'],
    probes: (r) => [
      probe('B’s domain', evB(r.m), (x) => call(r, { id: x }, { http_status: 200 })),
      ...foreignDocs((x) => call(r, { id: evA(r.m) }, { http_status: 200, screenshot_doc_id: x })),
    ],
  },
  'GET /modules/{m}/events/:id/files': onId(event('files of B’s repository'), { control: ownEvent }),
  'POST /modules/{m}/events/:id/files': {
    covers: ['path:id', 'body:doc_id'],
    probes: (r) => [
      probe('B’s repository', evB(r.m), (x) => call(r, { id: x }, { path: 'probe.txt' })),
      ...foreignDocs((x) => call(r, { id: evA(r.m) }, { path: 'probe.txt', doc_id: x })),
    ],
  },
  'PATCH /modules/{m}/events/:id/files/:fileId': {
    covers: ['path:id', 'path:fileId', 'body:doc_id'],
    probes: (r) => [
      probe('B’s repository', evB(r.m), (x) => call(r, { id: x, fileId: S.file.b }, { path: 'x' })),
      probe('B’s file under A’s repository', S.file.b, (x) => call(r, { id: evA(r.m), fileId: x }, { path: 'x' })),
      ...foreignDocs((x) => call(r, { id: evA(r.m), fileId: S.file.a }, { doc_id: x })),
    ],
  },
  'DELETE /modules/{m}/events/:id/files/:fileId': {
    covers: ['path:id', 'path:fileId'],
    probes: (r) => [
      probe('B’s repository', evB(r.m), (x) => call(r, { id: x, fileId: S.file.b })),
      probe('B’s file under A’s repository', S.file.b, (x) => call(r, { id: evA(r.m), fileId: x })),
    ],
  },
  'GET /modules/{m}/events/:id/leaks': onId(event('leaks of B’s account'), { control: ownEvent }),
  'POST /modules/{m}/events/:id/leaks': onId(event('B’s account'), { body: () => ({ leak_id: S.leak }) }),
  'DELETE /modules/{m}/events/:id/leaks': custom(['path:id'], (r) => [
    probe('B’s account', evB(r.m), (x) => call(r, { id: x }, undefined, `?leak_id=${S.leak}`)),
  ]),
  // --- domain allowlist ------------------------------------------------------
  'POST /modules/{m}/allowlist': custom(['body:company_id'], (r) => [
    probe('company B (add to its allowlist)', S.B, (x) => call(r, {}, { company_id: x, domain: 'probe-allow.ru' })),
  ]),
  'GET /modules/{m}/allowlist/:id': onId(() => ({ 'B’s allowlist entry': S.allow.b }), { control: () => S.allow.a }),
  'PATCH /modules/{m}/allowlist/:id': onId(() => ({ 'B’s allowlist entry': S.allow.b }), { body: () => ({ comment: 'Взлом' }) }),
  'DELETE /modules/{m}/allowlist/:id': onId(() => ({ 'B’s allowlist entry': S.allow.b })),
  // --- imports of every module (every state) ---------------------------------
  'POST /modules/{m}/events/imports': custom(['form:company_id'], (r) => [
    probe('company B (upload into it)', S.B, (x) => ({
      ...call(r, {}),
      form: { fields: { company_id: String(x) }, file: csvFile(r.m) },
    })),
  ]),
  'GET /modules/{m}/events/imports/:id': onImport(),
  'GET /modules/{m}/events/imports/:id/errors': onImport(),
  'POST /modules/{m}/events/imports/:id/preview': onImport((ref) => ({ mapping: ref.mapping })),
  'POST /modules/{m}/events/imports/:id/check': onImport(
    (ref) => ({ mapping: ref.mapping }),
    (r, p) => {
      const own = S.ownImport[p.name];
      return r.m?.code === 'domains' && own
        ? [
            probe('company B (check A’s own draft against it)', S.B, (x) =>
              call(r, { id: own.id }, { mapping: own.mapping, company_id: x }),
            ),
          ]
        : [];
    },
  ),
  'POST /modules/{m}/events/imports/:id/start': onImport(
    (ref) => ({ mapping: ref.mapping, mode: 'update' }),
    (r, p) => {
      const own = S.ownImport[p.name];
      return r.m?.code === 'domains' && own
        ? [
            probe('company B (start A’s own draft into it)', S.B, (x) =>
              call(r, { id: own.id }, { mapping: own.mapping, mode: 'update', company_id: x }),
            ),
          ]
        : [];
    },
  ),
  'DELETE /modules/{m}/events/imports/:id': onImport(),
  // The leaks catalogue's imports (global, staff only).
  'GET /modules/{m}/imports/:id': onCatalogueImport(),
  'GET /modules/{m}/imports/:id/errors': onCatalogueImport(),
  'POST /modules/{m}/imports/:id/preview': onCatalogueImport({ mapping: ['name'] }),
  'POST /modules/{m}/imports/:id/check': {
    covers: ['path:id', 'body:company_id'],
    probes: (r) => [
      probe('the leaks catalogue’s import (staff only)', S.catImport, (x) => call(r, { id: x }, { mapping: ['name'] })),
      probe('company B (the catalogue checked against it)', S.B, (x) =>
        call(r, { id: S.catImport }, { mapping: ['name'], company_id: x }),
      ),
    ],
  },
  'POST /modules/{m}/imports/:id/start': {
    covers: ['path:id', 'body:company_id'],
    probes: (r) => [
      probe('the leaks catalogue’s import (staff only)', S.catImport, (x) =>
        call(r, { id: x }, { mapping: ['name'], mode: 'update' }),
      ),
      probe('company B (the catalogue imported into it)', S.B, (x) =>
        call(r, { id: S.catImport }, { mapping: ['name'], mode: 'update', company_id: x }),
      ),
    ],
  },
  'DELETE /modules/{m}/imports/:id': onCatalogueImport(),
  // --- exports, reports, mailings ---------------------------------------------
  'POST /modules/exports': custom(['filters:company_id'], (r) => [
    probe('company B (export it)', S.B, (x) =>
      call(r, {}, { module: 'domains', format: 'csv', fields: ['title'], filters: { company_id: x } }),
    ),
  ]),
  'GET /modules/exports/:id': onId(exportTargets, { control: (_, p) => S.ownExport[p.name] }),
  'GET /modules/exports/:id/download': onId(exportTargets, { control: (_, p) => S.ownExport[p.name] }),
  'DELETE /modules/exports/:id': onId(exportTargets),
  'POST /tools/reports': custom(['body:company_id'], (r) => [
    probe('company B (report on it)', S.B, (x) => call(r, {}, { company_id: x, from: day(-7), to: day(0) })),
  ]),
  'GET /tools/reports/:id': onId(() => ({ 'B’s report': S.report.b }), { control: () => S.report.a }),
  'GET /tools/reports/:id/download': onId(() => ({ 'B’s report': S.report.b }), { control: () => S.report.a }),
  'POST /tools/reports/:id/actions': onId(() => ({ 'B’s report (regenerate)': S.report.b }), {
    body: () => ({ action: 'regenerate' }),
    more: (r) => [
      probe('B’s report (send)', S.report.b, (x) => call(r, { id: x }, { action: 'send', recipients: ['soc@alfa.test'] })),
    ],
  }),
  'DELETE /tools/reports/:id': onId(() => ({ 'B’s report': S.report.b })),
  // Notifications are personal: marking another user's as read changes nothing, like a missing id.
  'POST /notifications/read': custom(['body:ids', 'body:group.company_id'], (r) => [
    // Marking as read touches only the caller's own rows: B's id answers exactly as a missing one
    // (compared as a list), and B's notification stays unread (the fingerprint).
    probe('B’s user’s notification', S.notifB, (x) => call(r, {}, { ids: [x] }), { list: true }),
    // A group names a company: B's marks nothing of B's users, exactly as a missing company.
    probe(
      'company B (a group of its notifications)',
      S.B,
      (x) => call(r, {}, { group: { kind: 'assigned', company_id: x, module: null } }),
      { list: true },
    ),
  ]),
  'POST /notifications/mailings': custom(['body:company_id'], (r) => [
    probe('company B (a mailing of it)', S.B, (x) =>
      call(r, {}, { name: 'Проба', company_id: x, recipients: ['soc@alfa.test'] }),
    ),
  ]),
  'POST /notifications/mailings/preview': custom(['body:company_id'], (r) => [
    probe('company B (preview its events)', S.B, (x) => call(r, {}, { company_id: x, filters: {} })),
  ]),
  'GET /notifications/mailings/:id': onId(mailingTargets, { control: () => S.mailing.a }),
  'GET /notifications/mailings/:id/deliveries': onId(mailingTargets, { control: () => S.mailing.a }),
  'PATCH /notifications/mailings/:id': {
    covers: ['path:id', 'body:company_id'],
    probes: (r, p) => [
      ...onId(mailingTargets, { body: () => ({ name: 'Взлом' }) }).probes(r, p),
      probe('company B (A’s mailing moved into it)', S.B, (x) => call(r, { id: S.mailing.a }, { company_id: x })),
    ],
  },
  'DELETE /notifications/mailings/:id': onId(mailingTargets),
  // --- comments and documents ---------------------------------------------------
  'GET /comments': custom(['query:event_id'], (r) => [
    probe('comments of B’s event', evB(), (x) => get(`${r.url}?event_id=${x}`), { control: get(`${r.url}?event_id=${evA()}`) }),
  ]),
  'POST /comments': custom(['body:event_id'], (r) => [
    probe('B’s event (comment on it)', evB(), (x) => call(r, {}, { event_id: x, text: 'Проба' })),
  ]),
  'GET /comments/:id': onId(() => ({ 'B’s comment': S.comment.b }), { control: () => S.comment.a }),
  'PATCH /comments/:id': onId(() => ({ 'B’s comment': S.comment.b }), { body: () => ({ text: 'Взлом' }) }),
  'DELETE /comments/:id': onId(() => ({ 'B’s comment': S.comment.b })),
  'POST /docs': custom(['query:company_id', 'query:event_id'], (r) => [
    probe('company B (upload into it)', S.B, (x) => ({
      ...call(r, {}),
      form: { fields: { kind: 'sample', company_id: String(x) }, file: textFile },
    })),
    probe('B’s event (attach to it)', evB(), (x) => ({
      ...call(r, {}),
      form: { fields: { kind: 'sample', event_id: String(x) }, file: textFile },
    })),
    probe('company B (upload, in the query string)', S.B, (x) => ({
      ...call(r, {}, undefined, `?kind=sample&company_id=${x}`),
      form: { fields: {}, file: textFile },
    })),
  ]),
  'GET /docs/:id': onId(docTargets, { control: () => S.docs.a }),
  'GET /docs/:id/content': onId(docTargets, { control: () => S.docs.a }),
  'PATCH /docs/:id': onId(docTargets, { body: () => ({ name: 'взлом.txt' }) }),
  'DELETE /docs/:id': onId(docTargets),
  // --- companies, their product keys and whitelists ------------------------------
  'POST /companies': custom(['body:members.user_id'], (r) => [
    probe('B’s user (member of a new company)', S.bUserId, (x) =>
      call(r, {}, { name: 'Проба', members: [{ user_id: x, role: 'COMPANY_VIEWER' }] }),
    ),
  ]),
  'GET /companies/:id': onId(() => ({ 'company B': S.B }), { control: () => S.A }),
  'PATCH /companies/:id': {
    covers: ['path:id', 'body:members.user_id'],
    probes: (r) => [
      probe('company B', S.B, (x) => call(r, { id: x }, { name: 'Взлом' })),
      probe('B’s user (made a member of A)', S.bUserId, (x) =>
        call(r, { id: S.A }, { members: [{ user_id: x, role: 'COMPANY_VIEWER' }] }),
      ),
    ],
  },
  'DELETE /companies/:id': onId(() => ({ 'company B': S.B })),
  'GET /companies/:id/keys': onId(() => ({ 'company B': S.B })),
  'POST /companies/:id/keys': onId(() => ({ 'company B': S.B }), { body: () => ({}) }),
  'DELETE /companies/:id/keys/:keyId': {
    covers: ['path:id', 'path:keyId'],
    probes: (r) => [
      probe('B’s product key', S.productKey, (x) => call(r, { id: S.B, keyId: x })),
      probe('B’s product key under company A', S.productKey, (x) => call(r, { id: S.A, keyId: x })),
    ],
  },
  'GET /companies/:id/whitelist': onId(() => ({ 'B’s whitelist': S.B }), { control: () => S.A }),
  'POST /companies/:id/whitelist': onId(() => ({ 'B’s whitelist': S.B }), {
    body: () => ({ type: 'domain', value: 'probe-white.ru' }),
  }),
  'POST /companies/:id/whitelist/bulk': onId(() => ({ 'B’s whitelist': S.B }), {
    body: () => ({ text: 'probe-bulk.ru', type: 'domain' }),
  }),
  'GET /companies/:id/sla': onId(() => ({ 'B’s SLA policies': S.B }), { control: () => S.A }),
  'PUT /companies/:id/sla': onId(() => ({ 'B’s SLA policies': S.B }), { body: () => ({ items: [] }) }),
  'GET /companies/:id/takedown': onId(() => ({ 'B’s takedown settings': S.B }), { control: () => S.A }),
  'PUT /companies/:id/takedown': onId(() => ({ 'B’s takedown settings': S.B }), {
    body: () => ({ registrar_sla_hours: 1, hosting_sla_hours: 1, extra_recipients: [] }),
  }),
  'GET /takedown/requests': custom(['query:event_id'], (r) => [
    probe(
      'B’s domain event (as a takedown list filter)',
      S.ev.domains?.b as number,
      (x) => call(r, {}, undefined, `?event_id=${x}`),
      {
        list: true,
      },
    ),
  ]),
  'POST /takedown/requests': custom(['body:event_id'], (r) => [
    probe('B’s domain event (a takedown drafted for it)', S.ev.domains?.b as number, (x) => call(r, {}, { event_id: x })),
  ]),
  'POST /takedown/requests/bulk': custom(['body:event_ids'], (r) => [
    probe('B’s domain event (takedowns drafted in bulk)', S.ev.domains?.b as number, (x) => call(r, {}, { event_ids: [x] })),
  ]),
  // Takedown requests (#32): a request of B's domain event, its evidence and its steps.
  'GET /takedown/requests/:id': onId(() => ({ 'B’s takedown request': S.takedown.b }), { control: () => S.takedown.a }),
  'GET /takedown/requests/:id/xarf': onId(() => ({ 'XARF of B’s takedown request': S.takedown.b }), {
    control: () => S.takedown.a,
  }),
  'GET /takedown/requests/:id/pdf': onId(() => ({ 'PDF of B’s takedown request': S.takedown.b }), {
    control: () => S.takedown.a,
  }),
  'PUT /takedown/requests/:id/recipients': onId(() => ({ 'B’s takedown request': S.takedown.b }), {
    body: () => ({ recipients: [{ kind: 'manual', email: 'probe@forpost.test' }] }),
  }),
  'POST /takedown/requests/:id/send': onId(() => ({ 'B’s takedown request': S.takedown.b })),
  'POST /takedown/requests/:id/step': onId(() => ({ 'B’s takedown request': S.takedown.b }), {
    body: () => ({ action: 'close' }),
  }),
  'GET /companies/:id/watch': onId(() => ({ 'B’s watch settings': S.B }), { control: () => S.A }),
  'PUT /companies/:id/watch': onId(() => ({ 'B’s watch settings': S.B }), {
    body: () => ({ enabled: false, interval_minutes: 60, rules: {} }),
  }),
  ...Object.fromEntries(
    (['GET', 'PATCH', 'DELETE'] as const).map((method) => [
      `${method} /companies/:id/whitelist/:itemId`,
      {
        covers: ['path:id', 'path:itemId'],
        probes: (r: Route) => {
          const body = method === 'PATCH' ? { comment: 'Взлом' } : undefined;
          return [
            probe('B’s whitelist entry', S.wl.b, (x) => call(r, { id: S.B, itemId: x }, body), {
              control: method === 'GET' ? call(r, { id: S.A, itemId: S.wl.a }) : undefined,
            }),
            probe('B’s whitelist entry under company A', S.wl.b, (x) => call(r, { id: S.A, itemId: x }, body)),
          ];
        },
      } satisfies Case,
    ]),
  ),
  'GET /companies/global/whitelist/:id': onId(() => ({ 'a global whitelist entry (staff only)': S.wl.global })),
  'PATCH /companies/global/whitelist/:id': onId(() => ({ 'a global whitelist entry (staff only)': S.wl.global }), {
    body: () => ({ comment: 'Взлом' }),
  }),
  'DELETE /companies/global/whitelist/:id': onId(() => ({ 'a global whitelist entry (staff only)': S.wl.global })),
  // --- discovery: protected assets and runs ---------------------------------------------
  'GET /companies/:id/assets': onId(() => ({ 'B’s protected assets': S.B }), { control: () => S.A }),
  'POST /companies/:id/assets': onId(() => ({ 'B’s protected assets': S.B }), {
    body: () => ({ kind: 'domain', value: 'probe-asset.ru' }),
  }),
  ...Object.fromEntries(
    (['GET', 'PATCH', 'DELETE'] as const).map((method) => [
      `${method} /companies/:id/assets/:assetId`,
      {
        covers: ['path:id', 'path:assetId'],
        probes: (r: Route) => {
          const body = method === 'PATCH' ? { enabled: false } : undefined;
          return [
            probe('B’s protected asset', S.asset.b, (x) => call(r, { id: S.B, assetId: x }, body), {
              control: method === 'GET' ? call(r, { id: S.A, assetId: S.asset.a }) : undefined,
            }),
            probe('B’s protected asset under company A', S.asset.b, (x) => call(r, { id: S.A, assetId: x }, body)),
          ];
        },
      } satisfies Case,
    ]),
  ),
  'POST /discovery/runs': custom(['body:company_id'], (r) => [
    probe('company B (run discovery on it)', S.B, (x) => call(r, {}, { company_id: x })),
  ]),
  'GET /hunts/:id': onId(() => ({ 'the staff owner’s hunt (company-less)': S.hunt })),
  'GET /discovery/runs/:id': onId(() => ({ 'B’s discovery run': S.run.b }), { control: () => S.run.a }),
  'POST /discovery/runs/:id/cancel': onId(() => ({ 'B’s discovery run (stop it)': S.run.b })),
  // --- integrations (#33): webhook endpoints, syslog outputs, their delivery logs ---------
  'GET /integrations': custom(['query:company_id'], (r) => [
    probe('company B (as the list’s company)', S.B, (x) => call(r, {}, undefined, `?company_id=${x}`)),
  ]),
  'POST /integrations/webhooks': custom(['body:company_id'], (r) => [
    probe('company B (a webhook for it)', S.B, (x) =>
      call(r, {}, { company_id: x, name: 'Взлом', url: 'https://evil.example.com/' }),
    ),
  ]),
  'POST /integrations/syslog': custom(['body:company_id'], (r) => [
    probe('company B (a syslog output for it)', S.B, (x) =>
      call(r, {}, { company_id: x, name: 'Взлом', host: 'siem.evil.example.com', port: 6514, tls: true }),
    ),
  ]),
  'GET /integrations/:id': onId(() => ({ 'B’s webhook': S.integ.b }), { control: () => S.integ.a }),
  'PATCH /integrations/:id': onId(() => ({ 'B’s webhook': S.integ.b }), { body: () => ({ url: 'https://evil.example.com/' }) }),
  'DELETE /integrations/:id': onId(() => ({ 'B’s webhook': S.integ.b })),
  'POST /integrations/:id/rotate': onId(() => ({ 'B’s webhook (its secret)': S.integ.b }), { body: () => ({ grace_hours: 1 }) }),
  'GET /integrations/:id/deliveries': onId(() => ({ 'B’s delivery log': S.integ.b }), { control: () => S.integ.a }),
  'POST /integrations/:id/deliveries/:delivery/resend': custom(['path:id', 'path:delivery'], (r) => [
    probe('B’s delivery', S.integ.bDelivery, (x) => call(r, { id: S.integ.b, delivery: x })),
    probe('B’s delivery under A’s webhook', S.integ.bDelivery, (x) => call(r, { id: S.integ.a, delivery: x })),
  ]),
  // --- users -------------------------------------------------------------------------
  'POST /users': custom(['body:companies.company_id'], (r) => [
    probe(
      'company B (a new user in it)',
      S.B,
      (x) =>
        call(
          r,
          {},
          {
            email: `probe.${x}@alfa.test`,
            name: 'Проба',
            role: 'COMPANY_USER',
            companies: [{ company_id: x, role: 'COMPANY_VIEWER' }],
          },
        ),
      { allow: FOREIGN_COMPANY_403 },
    ),
  ]),
  'GET /users/:id': onId(userTargets, { control: () => S.aMemberId }),
  'GET /users/:id/roles': onId(userTargets, { control: () => S.aMemberId }),
  'PATCH /users/:id': {
    covers: ['path:id', 'body:companies.company_id'],
    probes: (r, p) => [
      ...onId(userTargets, { body: () => ({ name: 'Взлом' }) }).probes(r, p),
      probe(
        'company B (A’s member moved into it)',
        S.B,
        (x) => call(r, { id: S.aMemberId }, { companies: [{ company_id: x, role: 'COMPANY_VIEWER' }] }),
        {
          allow: FOREIGN_COMPANY_403,
        },
      ),
    ],
  },
  'POST /users/:id/roles': {
    covers: ['path:id', 'body:companies.company_id'],
    probes: (r, p) => [
      ...onId(userTargets, {
        body: () => ({ role: 'COMPANY_USER', companies: [{ company_id: S.A, role: 'COMPANY_VIEWER' }] }),
      }).probes(r, p),
      probe(
        'company B (A’s member given a role in it)',
        S.B,
        (x) => call(r, { id: S.aMemberId }, { role: 'COMPANY_USER', companies: [{ company_id: x, role: 'COMPANY_VIEWER' }] }),
        { allow: FOREIGN_COMPANY_403 },
      ),
    ],
  },
  'DELETE /users/:id': onId(userTargets),
  // --- API keys --------------------------------------------------------------------
  'POST /apikeys': custom(['body:company_id'], (r) => [
    probe('company B (a key for it)', S.B, (x) => call(r, {}, { name: 'Проба', company_id: x, roles: [] }), {
      allow: FOREIGN_KEY_400,
    }),
  ]),
  'GET /apikeys/:id': onId(() => ({ 'B’s API key': S.apikey.b }), { control: () => S.apikey.a }),
  'GET /apikeys/:id/roles': onId(() => ({ 'B’s API key': S.apikey.b }), { control: () => S.apikey.a }),
  'PATCH /apikeys/:id': onId(() => ({ 'B’s API key': S.apikey.b }), { body: () => ({ name: 'Взлом' }) }),
  'POST /apikeys/:id/refresh': onId(() => ({ 'B’s API key': S.apikey.b })),
  'POST /apikeys/:id/roles': onId(() => ({ 'B’s API key': S.apikey.b }), { body: () => ({ roles: [] }) }),
  'DELETE /apikeys/:id': onId(() => ({ 'B’s API key': S.apikey.b })),
  // --- Telegram sources and collected messages -----------------------------------------
  'GET /modules/telegram/accounts/:id': onId(() => ({ 'a Telegram account (staff only)': S.tg.account })),
  'PATCH /modules/telegram/accounts/:id': onId(() => ({ 'a Telegram account (staff only)': S.tg.account }), {
    body: () => ({ comment: 'Взлом' }),
  }),
  'DELETE /modules/telegram/accounts/:id': onId(() => ({ 'a Telegram account (staff only)': S.tg.account })),
  'POST /modules/telegram/accounts/:id/login/start': onId(() => ({ 'a Telegram account (staff only)': S.tg.account })),
  'POST /modules/telegram/accounts/:id/login/code': onId(() => ({ 'a Telegram account (staff only)': S.tg.account }), {
    body: () => ({ code: '12345' }),
  }),
  'POST /modules/telegram/accounts/:id/login/password': onId(() => ({ 'a Telegram account (staff only)': S.tg.account }), {
    body: () => ({ password: 'Взлом' }),
  }),
  'POST /modules/telegram/channels': custom(['body:company_id'], (r) => [
    probe('company B (a channel of it)', S.B, (x) => call(r, {}, { link: '@probe_channel', company_id: x })),
  ]),
  'GET /modules/telegram/channels/:id': onId(() => ({ 'B’s channel': S.tg.bChannel })),
  'PATCH /modules/telegram/channels/:id': {
    covers: ['path:id', 'body:company_id'],
    probes: (r) => [
      probe('B’s channel', S.tg.bChannel, (x) => call(r, { id: x }, { title: 'Взлом' })),
      probe('company B (A’s channel moved into it)', S.B, (x) => call(r, { id: S.tg.aChannel }, { company_id: x })),
    ],
  },
  'DELETE /modules/telegram/channels/:id': onId(() => ({ 'B’s channel': S.tg.bChannel })),
  'POST /modules/filtrator/messages': custom(['body:channel'], (r) => [
    probe(
      'B’s channel (collect into it)',
      S.tg.bChannelName,
      (x) => call(r, {}, { channel: x, message_id: 77, text: 'проба', posted_at: new Date().toISOString() }),
      { ghost: '@no_such_channel_zz' },
    ),
  ]),
  'GET /modules/filtrator/messages/:id': onId(() => ({ 'B’s message': S.msg.b }), { control: () => S.msg.a }),
  'POST /modules/filtrator/messages/:id/to-event': onId(() => ({ 'B’s message': S.msg.b }), {
    body: () => ({ module: 'brand' }),
    more: (r) => [
      probe(
        'company B (A’s message made an event of it)',
        S.B,
        (x) => call(r, { id: S.msg.a }, { module: 'brand', fields: { company_id: x } }),
        {
          allow: UNKNOWN_FIELD_400,
        },
      ),
    ],
  }),
  'DELETE /modules/filtrator/messages/:id': onId(() => ({ 'B’s message': S.msg.b })),
  // --- saved views of the lists --------------------------------------------------------
  'POST /modules/{m}/views': custom(['body:company_id'], (r) => [
    probe('company B (share a view with it)', S.B, (x) => call(r, {}, { name: 'Проба', shared: true, company_id: x, state: {} })),
  ]),
  'PATCH /modules/{m}/views/:id': custom(['path:id', 'body:company_id'], (r) => [
    ...Object.entries(viewTargets()).map(([target, id]) => probe(target, id, (x) => call(r, { id: x }, { name: 'Взлом' }))),
    ...(r.m?.code === 'domains'
      ? [probe('company B (share A’s own view with it)', S.B, (x) => call(r, { id: S.view.a }, { shared: true, company_id: x }))]
      : []),
  ]),
  'DELETE /modules/{m}/views/:id': onId(viewTargets),
  // --- classifier, audit, the caller's sessions ----------------------------------------
  'POST /classifier/requeue-failed': custom(['body:company_id'], (r) => [
    probe('company B (requeue its events)', S.B, (x) => call(r, {}, { company_id: x })),
  ]),
  'GET /audit': custom(['query:actor_user_id', 'query:entity_id'], (r) => [
    probe('B’s user (as an actor filter)', S.bUserId, (x) => get(`${r.url}?actor_user_id=${x}`), { list: true }),
    probe('B’s event (as an entity filter)', evB(), (x) => get(`${r.url}?entity_id=${x}`), { list: true }),
  ]),
  // A user's own sessions are theirs; through a key, the staff owner's are not the key's.
  'DELETE /me/sessions/:id': custom(['path:id'], (r, p) => [
    probe(
      p.isKey ? 'a session of the key’s staff owner' : 'a session of B’s user',
      p.isKey ? S.session.owner : S.session.bUser,
      (x) => call(r, { id: x }),
      {
        ghost: '00000000-0000-4000-8000-000000000000',
      },
    ),
  ]),
};

/** Routes that carry an id but no tenant object, and why. */
const EXCLUDED: Record<string, string> = {
  'GET /apidocs/:id': 'the id is a documentation section name (a tag), the same for everyone',
  'GET /configs/:id': 'system settings: global, staff only (configs.manage)',
  'PATCH /configs/:id': 'system settings: global, staff only (configs.manage)',
  'DELETE /configs/:id': 'system settings: global, staff only (configs.manage)',
  'GET /settings/route-rules/:id': 'route rules: global redirects (settings.manage, staff only)',
  'PATCH /settings/route-rules/:id': 'route rules: global redirects (settings.manage, staff only)',
  'DELETE /settings/route-rules/:id': 'route rules: global redirects (settings.manage, staff only)',
  'GET /tags/:id': 'tags are one global reference list shared by every company (their per-company usage is checked)',
  'PATCH /tags/:id': 'tags are global (settings.manage, staff only)',
  'DELETE /tags/:id': 'tags are global (settings.manage, staff only)',
  'POST /tags/:id/merge': 'tags are global (settings.manage, staff only)',
  'GET /modules/{m}/types/:id': 'media types: a global reference list',
  'PATCH /modules/{m}/types/:id': 'media types: a global reference list (settings.manage)',
  'PUT /me/preferences/:key':
    'the caller’s own console settings: the key names a setting (a default view is checked like any view)',
  'DELETE /modules/{m}/types/:id': 'media types: a global reference list (settings.manage)',
  'GET /modules/{m}/events/types/:id': 'leak types: a global reference list',
  'PATCH /modules/{m}/events/types/:id': 'leak types: a global reference list (settings.manage)',
  'GET /modules/{m}/:id': 'the leaks catalogue: global (linked leaks of an account are checked per event)',
  'PATCH /modules/{m}/:id': 'the leaks catalogue: global (settings.manage)',
  'DELETE /modules/{m}/:id': 'the leaks catalogue: global (settings.manage)',
  'GET /modules/:code/events': 'catch-all of unknown module codes: always 404, no object behind',
  'POST /modules/:code/events': 'catch-all of unknown module codes: always 404, no object behind',
  'PATCH /modules/:code/events': 'catch-all of unknown module codes: always 404, no object behind',
  'DELETE /modules/:code/events': 'catch-all of unknown module codes: always 404, no object behind',
  'GET /modules/:code/events/*': 'catch-all of unknown module codes: always 404, no object behind',
  'POST /modules/:code/events/*': 'catch-all of unknown module codes: always 404, no object behind',
  'PATCH /modules/:code/events/*': 'catch-all of unknown module codes: always 404, no object behind',
  'DELETE /modules/:code/events/*': 'catch-all of unknown module codes: always 404, no object behind',
};

/** Id slots that name global reference data, never a tenant's object. */
const GLOBAL_SLOTS: Record<string, string> = {
  status_id: 'per-module statuses: one reference list for every company',
  priority_id: 'per-module priorities: one reference list for every company',
  decision_id: 'per-module decisions: one reference list for every company',
  media_type_id: 'media types: a global reference list',
  leak_type_id: 'leak types: a global reference list',
  leak_id: 'the leaks catalogue: global',
  target_id: 'tags: global',
  api_id: 'a Telegram application id, not a Forpost object',
  message_id: 'the number of a post inside its Telegram channel (the channel, the tenant object, is probed)',
};
const slotName = (slot: string) => slot.split(/[:.]/).pop() ?? slot;

// ---------------------------------------------------------------------------
// Running a probe
// ---------------------------------------------------------------------------

const note = (kind: Finding['kind'], area: string, route: string, who: Principal | string, what: string) =>
  findings.push({ kind, area, route, principal: typeof who === 'string' ? who : who.name, what });
const findingsOf = (area: string) => findings.filter((f) => f.area === area).map(fmt);
const cut = (s: string, n = 160) => s.slice(0, n).replace(/\s+/g, ' ');

async function runProbe(route: string, p: Principal, pr: Probe) {
  const res = await send(ctx, p, pr.req(pr.id));
  const ghost = await send(ctx, p, pr.req(pr.ghost ?? GHOST));
  stats.probes++;
  stats.requests += 2;
  trace.push(
    `${route} | ${p.name} | ${pr.target} | ${res.status} ${res.message ?? ''} | missing id: ${ghost.status} ${ghost.message ?? ''}`,
  );
  const say = (kind: Finding['kind'], what: string) => note(kind, 'id routes', route, p, `${pr.target}: ${what}`);
  if ([res, ghost].some((r) => r.status >= 500 || r.status === 429 || r.status === 401))
    return say('broken', `inconclusive, answered ${res.status} (missing id: ${ghost.status}) ${cut(res.body)}`);
  if (pr.list) {
    stats.lists++;
    const shown = res.status < 300 ? showsB(res, S.B) : '';
    const part = typeof pr.list === 'function' ? pr.list : (b: string) => b;
    if (res.status !== ghost.status || part(res.body) !== part(ghost.body) || shown)
      say(
        'leak',
        `the list filtered by B’s id differs from one filtered by a missing id (${res.status} vs ${ghost.status}) ${shown}`,
      );
    return;
  }
  if (res.status < 300) {
    const shown = showsB(res, S.B);
    return say('leak', `answered ${res.status} (missing id: ${ghost.status})${shown ? ` — ${shown}` : ''}`);
  }
  if (res.status !== ghost.status || res.message !== ghost.message)
    return say(
      'leak',
      `answered ${res.status} «${res.message}», a missing id ${ghost.status} «${ghost.message}»: tells B’s object exists`,
    );
  if (res.status === 404) stats.as404++;
  else if (isGate(res)) stats.gated++;
  else if (pr.allow?.status === res.status) stats.justified++;
  else
    return say(
      'unjustified',
      `answered ${res.status} «${res.message}» (as a missing id does) instead of 404, with no justification listed`,
    );
  if (pr.control && !isGate(ghost)) {
    stats.controls++;
    stats.requests++;
    const c = await send(ctx, p, pr.control);
    if (c.status >= 300)
      say(
        'broken',
        `control on A’s own object answered ${c.status} ${cut(c.body)} (the case is wrong, or A cannot use its own object)`,
      );
  }
}

/** Filters of every list given B's value: the answer must be the one a missing value gets. */
const FOREIGN_FILTERS = [
  { name: 'company (company_id)', b: () => `?company_id=${S.B}`, ghost: `?company_id=${GHOST}` },
  {
    name: 'Telegram channel',
    b: () => `?channel=${encodeURIComponent(S.tg.bChannelName)}`,
    ghost: '?channel=%40no_such_channel_zz',
  },
];

// ---------------------------------------------------------------------------

beforeAll(seed, 300_000);

afterAll(() => {
  if (process.env.TENANT_TRACE) writeFileSync(process.env.TENANT_TRACE, `${trace.join('\n')}\n`);
  const n = principals?.length ?? 0;
  const count = (k: Finding['kind']) => findings.filter((f) => f.kind === k).length;
  console.log(
    [
      '',
      '=== Tenant isolation ===',
      `routes with an id: ${stats.routes} route keys = ${stats.concrete} routes × ${n} principals of A = ${stats.concrete * n} route×principal checks`,
      `probes (B's object, then a missing id): ${stats.probes}; requests in all: ${stats.requests}`,
      `answered 404: ${stats.as404}; route gate (403, as for a missing id): ${stats.gated}; justified non-404: ${stats.justified}; ` +
        `list filters by B's ids: ${stats.lists}; controls on A's own objects: ${stats.controls}`,
      `findings: ${findings.length} (leaks: ${count('leak')}, unjustified answers: ${count('unjustified')}, broken cases: ${count('broken')})`,
      ...findings.map((f) => `  ${f.area}: ${fmt(f)}`),
      '',
    ].join('\n'),
  );
});

describe('tenant isolation generated from the route table', () => {
  it('every route with an id has a case (or a justified exclusion); every case names a real route', () => {
    const routeKeys = new Set(ctx.app.routeTable.map((r) => routeKey(r.method, r.url)));
    const problems: string[] = [];
    for (const [key, e] of idSlots(ctx)) {
      if (EXCLUDED[key]) continue;
      const tenant = [...e.slots].filter((s) => !GLOBAL_SLOTS[slotName(s)]);
      const c = CASES[key];
      if (tenant.length && !c) problems.push(`no case: ${key} (${tenant.join(', ')})`);
      for (const s of tenant) if (c && !c.covers.includes(s)) problems.push(`${key}: the case does not fill ${s}`);
      // Slots the OpenAPI body cannot show: multipart fields, export filters, a channel named by its username.
      for (const s of c?.covers ?? [])
        if (!e.slots.has(s) && !/^(form|filters):|^body:channel$/.test(s))
          problems.push(`${key}: the case fills ${s}, which the route does not have`);
    }
    for (const key of [...Object.keys(CASES), ...Object.keys(EXCLUDED)])
      if (!routeKeys.has(key)) problems.push(`stale entry: ${key} is not a route`);
    expect(problems).toEqual([]);
  });

  it('lists, counts and searches of A never show B; B’s values as filters answer like missing ones', async () => {
    // The marker is findable: staff see it, so its absence below means something.
    expect(showsB(await send(ctx, owner, get(`/modules/domains/events?company_id=-1&q=${MARKER}`)), S.B)).not.toBe('');
    const area = 'lists';
    const flagged = new Set<string>();
    const rules = encodeURIComponent(JSON.stringify([{ company_id: S.B }]));
    const plain = [
      '',
      '?page_size=100',
      '?company_id=-1',
      `?q=${MARKER}`,
      '?status_counts=true&company_id=-1',
      `?rules=${rules}`,
    ];
    for (const r of ctx.app.routeTable) {
      if (r.method !== 'GET' || r.permission === 'public' || /[:*]/.test(r.url)) continue;
      const url = r.url.replace(/^\/api\/v1/, '');
      for (const p of principals) {
        for (const q of [...plain, ...FOREIGN_FILTERS.map((f) => f.b())]) {
          const res = await send(ctx, p, get(`${url}${q}`));
          stats.requests++;
          const route = `GET ${r.url}${q}`;
          if (res.status >= 500 || res.status === 429) note('broken', area, route, p, `answered ${res.status} ${cut(res.body)}`);
          const shown = showsB(res, S.B);
          if (shown && !flagged.has(`${r.url}|${p.name}`)) {
            flagged.add(`${r.url}|${p.name}`);
            note('leak', area, route, p, `shows B: ${shown}`);
          }
          const foreign = FOREIGN_FILTERS.find((f) => f.b() === q);
          if (!foreign) continue;
          const ghost = await send(ctx, p, get(`${url}${foreign.ghost}`));
          stats.requests++;
          if (ghost.status !== res.status || (res.status >= 400 && ghost.message !== res.message))
            note(
              'leak',
              area,
              route,
              p,
              `B’s ${foreign.name} answered ${res.status} «${res.message ?? ''}», a missing one ${ghost.status} «${ghost.message ?? ''}»`,
            );
        }
      }
    }
    expect(findingsOf(area)).toEqual([]);
  }, 300_000);

  it('counts, status counts, charts, tag usage, the classifier summary and the mailing preview of A are A’s own', async () => {
    const area = 'aggregates';
    const json = async (p: Principal, url: string) => {
      stats.requests++;
      const r = await send(ctx, p, get(url));
      return r.status === 200 ? (r.json() as Record<string, unknown>) : { status: r.status };
    };
    // Chart series carry links (with the caller's own filters): compared without them.
    const noLinks = (x: unknown): unknown =>
      Array.isArray(x)
        ? x.map(noLinks)
        : x && typeof x === 'object'
          ? Object.fromEntries(Object.entries(x).flatMap(([k, v]) => (k === 'link' || k === 'links' ? [] : [[k, noLinks(v)]])))
          : x;
    const same = async (url: string, own: string, pick: (b: Record<string, unknown>) => unknown = noLinks) => {
      const mine = JSON.stringify(pick(await json(owner, own)));
      for (const p of principals)
        for (const q of ['', `${url.includes('?') ? '&' : '?'}company_id=-1`]) {
          const got = JSON.stringify(pick(await json(p, `${url}${q}`)));
          if (got !== mine) note('leak', area, `GET ${url}${q}`, p, `${cut(got, 200)}; A’s own: ${cut(mine, 200)}`);
        }
      return mine;
    };
    for (const m of MODULE_LIST) {
      const url = `/modules/${m.code}/events?status_counts=true&page_size=1`;
      await same(url, `${url}&company_id=${S.A}`, (b) => ({ total: b.total, status_counts: b.status_counts }));
    }
    for (const c of [
      'common/newevents',
      'common/criticalevents',
      'common/priorityevents',
      'media/connotationevents',
      'domains/events',
      'account/events',
    ]) {
      const url = `/modules/analytics/dashboard/${c}`;
      const mine = await same(url, `${url}?company_id=${S.A}`);
      if (JSON.stringify(noLinks(await json(owner, `${url}?company_id=-1`))) === mine)
        note('broken', area, `GET ${url}`, owner, 'B’s events do not show in the staff chart: the check proves nothing');
    }
    await same('/classifier/summary', `/classifier/summary?company_id=${S.A}`);
    const usage = await ctx.database.db.execute(
      sql`SELECT t.id, count(*)::int AS n FROM events e CROSS JOIN LATERAL unnest(e.tags) AS t(id) WHERE e.company_id = ${S.A} GROUP BY t.id ORDER BY t.id`,
    );
    const expected = JSON.stringify(usage.rows.map((x) => ({ id: Number(x.id), events_count: Number(x.n) })));
    for (const p of principals) {
      const items = ((await json(p, '/tags/usage')).items ?? []) as { id: number }[];
      const got = JSON.stringify([...items].sort((a, b) => a.id - b.id));
      if (got !== expected)
        note('leak', area, 'GET /tags/usage', p, `${got}; A alone: ${expected} (tag ${S.tagB} is on B’s events only)`);
      const preview = (body: unknown) => send(ctx, p, { method: 'POST', url: '/notifications/mailings/preview', body });
      const [all, own] = [await preview({ filters: {} }), await preview({ company_id: S.A, filters: {} })];
      if (all.status !== 200) continue;
      const shown = showsB(all, S.B);
      if (shown) note('leak', area, 'POST /notifications/mailings/preview', p, `shows B: ${shown}`);
      const n = (r: Res) => (r.json() as { count: number }).count;
      if (own.status === 200 && n(all) !== n(own))
        note('leak', area, 'POST /notifications/mailings/preview', p, `count ${n(all)}, A alone ${n(own)}`);
    }
    expect(findingsOf(area)).toEqual([]);
  }, 300_000);

  it('export files and report PDFs made for A hold nothing of B', async () => {
    const area = 'files';
    const aDomains = (await fetchJson<{ total: number }>(owner, `/modules/domains/events?company_id=${S.A}&page_size=1`)).total;
    for (const p of principals) {
      for (const filters of [{}, { company_id: -1 }]) {
        const route = `POST /modules/exports ${JSON.stringify(filters)}`;
        const body = { module: 'domains', format: 'csv', fields: S.exportFields, filters };
        const r = await send(ctx, p, { method: 'POST', url: '/modules/exports', body });
        if (r.status !== 202) {
          note('broken', area, route, p, `could not export A’s events: ${r.status} ${cut(r.body)}`);
          continue;
        }
        const id = idOf(r);
        S.ownExport[p.name] = id;
        await waitStatus(p, `/modules/exports/${id}`);
        const file = await send(ctx, p, get(`/modules/exports/${id}/download`));
        const shown = showsB(file, S.B);
        if (shown) note('leak', area, route, p, `the export file shows B: ${shown}`);
        const rows = file.raw.toString('utf8').trim().split(/\r?\n/).length - 1;
        if (rows !== aDomains) note('leak', area, route, p, `the export file has ${rows} rows, A has ${aDomains} domains`);
        const scope = (await ctx.database.db.execute(sql`SELECT scope FROM exports WHERE id = ${id}`)).rows[0]?.scope;
        if (JSON.stringify(scope) !== JSON.stringify([S.A]))
          note('leak', area, route, p, `export scope ${JSON.stringify(scope)}, not [A]`);
      }
      const rep = await send(ctx, p, {
        method: 'POST',
        url: '/tools/reports',
        body: { company_id: S.A, from: day(-7), to: day(0) },
      });
      if (rep.status !== 201) {
        if (!isGate(rep)) note('broken', area, 'POST /tools/reports', p, `${rep.status} ${cut(rep.body)}`);
        continue;
      }
      await ctx.app.services.reports.render(idOf(rep));
      const text = pdfText((await send(ctx, p, get(`/tools/reports/${idOf(rep)}/download`))).raw).toLowerCase();
      if (text.includes(MARKER) || text.includes('бета'))
        note('leak', area, 'GET /tools/reports/:id/download', p, 'A’s report PDF mentions B');
    }
    expect(findingsOf(area)).toEqual([]);
  }, 300_000);

  it('lookups while A writes never consult B: dedup, allowlist, whitelist, unique names, mailings, an import’s company column', async () => {
    const area = 'lookups';
    const post = (p: Principal, url: string, body: unknown) => send(ctx, p, { method: 'POST', url, body });
    // The same fingerprint as B's event: A's is a new event (a 409 would tell B has it).
    for (const [i, m] of MODULE_LIST.entries()) {
      const p = principals[i % principals.length] as Principal;
      const url = `/modules/${m.code}/events`;
      const r = await post(p, url, {
        ...(p.isKey ? {} : { company_id: S.A }),
        title: 'Двойник',
        ...m.sample(S.ev[m.code]?.bSample ?? 0),
      });
      if (r.status !== 201 || (r.json() as { company_id: number }).company_id !== S.A)
        note('leak', area, `POST ${url}`, p, `an event like B’s: ${r.status} ${cut(r.body, 200)}`);
    }
    // A's whitelist re-marks A's events only (B has an event with the same domain).
    const aUser = principals[0] as Principal;
    const domain = String(MODULE_LIST.find((m) => m.code === 'domains')?.sample(S.ev.domains?.bSample ?? 0).domain);
    const w = await post(aUser, `/companies/${S.A}/whitelist`, { type: 'domain', value: domain, kind: 'whitelistClient' });
    if (w.status !== 201) note('broken', area, 'POST /companies/:id/whitelist', aUser, `${w.status} ${cut(w.body)}`);
    await ctx.app.services.whitelist.remarker?.idle();
    const kinds = (
      await ctx.database.db.execute(
        sql`SELECT company_id, whitelist_kind FROM events WHERE module = 'domains' AND data->>'domain' = ${domain} ORDER BY company_id`,
      )
    ).rows as { company_id: number; whitelist_kind: string | null }[];
    if (kinds.some((x) => x.company_id === S.B && x.whitelist_kind !== null))
      note(
        'leak',
        area,
        'POST /companies/:id/whitelist',
        aUser,
        `A’s whitelist entry re-marked B’s event: ${JSON.stringify(kinds)}`,
      );
    if (!kinds.some((x) => x.company_id === S.A && x.whitelist_kind === 'whitelistClient'))
      note('broken', area, 'POST /companies/:id/whitelist', aUser, `A’s own event was not re-marked: ${JSON.stringify(kinds)}`);
    // A's mailing collects A's new events only (the staff mailing of every company collects B's too).
    const bNew = await create(owner, '/modules/brand/events', {
      company_id: S.B,
      title: `${MARKER} новое`,
      ...MODULE_LIST[1]?.sample(990),
    });
    await ctx.app.services.mailings.tick(new Date(Date.now() + 60_000));
    const collected = (
      await ctx.database.db.execute(
        sql`SELECT me.mailing_id, me.event_id, e.company_id FROM mailing_events me JOIN events e ON e.id = me.event_id`,
      )
    ).rows as { mailing_id: number; event_id: number; company_id: number }[];
    if (collected.some((x) => x.mailing_id === S.mailing.a && x.company_id !== S.A))
      note('leak', area, 'mailings: collect', 'A’s mailing', 'collected events of B');
    if (!collected.some((x) => x.mailing_id === S.mailing.all && x.event_id === bNew))
      note(
        'broken',
        area,
        'mailings: collect',
        owner,
        'the staff mailing did not collect B’s new event: the check proves nothing',
      );
    for (const [k, p] of principals.entries()) {
      const allowed = await post(p, '/modules/domains/events', { company_id: S.A, domain: `beta-allow-${k}.ru` });
      if (allowed.status !== 201)
        note(
          'leak',
          area,
          'POST /modules/domains/events',
          p,
          `a domain on B’s allowlist refused in A: ${allowed.status} ${cut(allowed.body, 200)}`,
        );
      const white = await post(p, '/modules/domains/events', { company_id: S.A, domain: `beta-white-${k}.ru` });
      if (white.status !== 201 || (white.json() as { whitelist_kind: unknown }).whitelist_kind !== null)
        note(
          'leak',
          area,
          'POST /modules/domains/events',
          p,
          `a domain on B’s whitelist: ${white.status} ${cut(white.body, 200)}`,
        );
      // Names unique within a company only: B's names are free in A (a 409 would tell they exist in B).
      for (const [url, body] of [
        ['/modules/domains/allowlist', { company_id: S.A, domain: `beta-allow-${k}.ru` }],
        [`/companies/${S.A}/whitelist`, { type: 'domain', value: `beta-white-${k}.ru` }],
        ['/notifications/mailings', { name: `${MARKER} рассылка`, company_id: S.A, recipients: ['soc@alfa.test'] }],
      ] as const) {
        const r = await post(p, url, body);
        if (r.status === 409) note('leak', area, `POST ${url}`, p, `B’s name refused in A: 409 «${r.message}»`);
        else if (r.status >= 300 && !isGate(r)) note('broken', area, `POST ${url}`, p, `${r.status} ${cut(r.body)}`);
      }
      // An import whose company column names B (by name, then by id): those rows are refused, none lands in B.
      const up = await uploadImport(
        p,
        'domains',
        `Компания;Домен;Заголовок\n${B_NAME};beta-col-${k}.ru;x\n${S.B};beta-col2-${k}.ru;y\n`,
        S.A,
      );
      const route = 'POST /modules/domains/events/imports/:id/start';
      const st = await post(p, `/modules/domains/events/imports/${up.id}/start`, { mapping: up.mapping, mode: 'update' });
      if (st.status !== 202) {
        note('broken', area, route, p, `${st.status} ${cut(st.body, 200)}`);
        continue;
      }
      const done = await waitStatus(p, `/modules/domains/events/imports/${up.id}`);
      const inB = (
        await ctx.database.db.execute(
          sql`SELECT count(*)::int AS n FROM events WHERE company_id = ${S.B} AND data->>'domain' LIKE ${`beta-col%-${k}.ru`}`,
        )
      ).rows[0]?.n;
      if (inB !== 0 || done.created !== 0)
        note('leak', area, route, p, `a company column naming B: ${inB} events in B, ${done.created} created`);
    }
    expect(findingsOf(area)).toEqual([]);
  }, 300_000);

  it('what A’s keys create belongs to A; a key never acts as its staff owner', async () => {
    const area = 'created by a key';
    const bKey = keyP('API key of B (same staff owner)', S.apikey.bSecret);
    const ownerName = async () =>
      (await ctx.database.db.execute(sql`SELECT name FROM users WHERE id = ${S.ownerId}`)).rows[0]?.name;
    for (const [k, p] of principals.entries()) {
      if (!p.isKey) continue;
      const bad = (route: string, what: string) => note('leak', area, route, p, what);
      const companyOf = (r: Res) =>
        r.status < 300 ? (r.json() as { company_id: unknown }).company_id : `— (${r.status} ${cut(r.body)})`;
      const ev = await send(ctx, p, {
        method: 'POST',
        url: '/modules/brand/events',
        body: { title: 'Ключом', ...MODULE_LIST[1]?.sample(950 + k) },
      });
      if (companyOf(ev) !== S.A)
        bad('POST /modules/brand/events', `an event made without company_id: company_id=${companyOf(ev)}`);
      const doc = await send(ctx, p, { method: 'POST', url: '/docs', form: { fields: { kind: 'sample' }, file: textFile } });
      if (companyOf(doc) !== S.A) bad('POST /docs', `a document uploaded without company_id: company_id=${companyOf(doc)}`);
      const imp = await send(ctx, p, {
        method: 'POST',
        url: '/modules/domains/events/imports',
        form: { fields: {}, file: { name: 'k.csv', content: 'Домен\nkey-import.ru\n' } },
      });
      if (companyOf(imp) !== S.A)
        bad('POST /modules/domains/events/imports', `an import uploaded without company_id: company_id=${companyOf(imp)}`);
      if (imp.status === 201) {
        const seen = await send(ctx, bKey, get(`/modules/domains/events/imports/${idOf(imp)}`));
        if (seen.status !== 404)
          note(
            'leak',
            area,
            'GET /modules/domains/events/imports/:id',
            bKey,
            `reads the import A’s key uploaded: ${seen.status}`,
          );
      }
      const al = await send(ctx, p, { method: 'POST', url: '/modules/domains/allowlist', body: { domain: `key-allow-${k}.ru` } });
      if (companyOf(al) !== S.A)
        bad('POST /modules/domains/allowlist', `an allowlist entry made without company_id: company_id=${companyOf(al)}`);
      // The key is not its owner: no profile, no sessions, no renaming of the owner.
      const me = await send(ctx, p, get('/me'));
      if (me.status === 200 && (me.body.includes(OWNER_EMAIL) || (me.json() as { role?: string }).role === 'SUPER_ADMIN'))
        bad('GET /me', `returns the staff owner’s profile: ${cut(me.body, 200)}`);
      if (
        me.status === 200 &&
        (me.body.includes(B_NAME) || ((me.json() as { companies?: { id: number }[] }).companies ?? []).some((c) => c.id !== S.A))
      )
        bad('GET /me', `names companies other than A: ${cut(me.body, 200)}`);
      const sessions = await send(ctx, p, get('/me/sessions'));
      const listed = sessions.status === 200 ? ((sessions.json() as { items?: unknown[] }).items ?? []).length : 0;
      if (listed) bad('GET /me/sessions', `lists the staff owner’s ${listed} sessions`);
      const before = await ownerName();
      const patch = await send(ctx, p, { method: 'PATCH', url: '/me', body: { name: 'Переименован ключом' } });
      if ((await ownerName()) !== before) {
        bad('PATCH /me', `renamed the staff owner (${patch.status})`);
        await ctx.database.db.execute(sql`UPDATE users SET name = ${String(before)} WHERE id = ${S.ownerId}`);
      }
    }
    expect(findingsOf(area)).toEqual([]);
  }, 300_000);

  it('B’s ids answer every principal of A like missing ids, on every route with an id; nothing of B changes', async () => {
    const area = 'id routes';
    const routes = ctx.app.routeTable
      .map((r) => ({ key: routeKey(r.method, r.url), method: r.method as Method, url: r.url.replace(/^\/api\/v1/, '') }))
      .filter((r) => CASES[r.key]);
    stats.routes = new Set(routes.map((r) => r.key)).size;
    stats.concrete = routes.length;
    // Reads first, then writes, deletes last (a delete that gets through must not hide the other findings).
    const order = (m: string) => (m === 'GET' ? 0 : m === 'DELETE' ? 2 : 1);
    routes.sort((a, b) => order(a.method) - order(b.method) || a.url.localeCompare(b.url));
    const who = { B: S.B, ownerId: S.ownerId, bUserId: S.bUserId };
    let state = await fingerprint(ctx, who);
    for (const r of routes) {
      const label = `${r.method} /api/v1${r.url}`;
      const m = MODULE_LIST.find((x) => x.code === moduleOf(r.url));
      for (const p of principals)
        for (const pr of (CASES[r.key] as Case).probes({ method: r.method, url: r.url, m }, p)) await runProbe(label, p, pr);
      if (r.method === 'GET') continue;
      const now = await fingerprint(ctx, who);
      const changed = changedTables(state, now);
      if (changed.length)
        note('leak', area, label, 'one of A’s principals', `changed B’s (or the staff owner’s) data: ${changed.join(', ')}`);
      state = now;
    }
    expect(findingsOf(area)).toEqual([]);
  }, 900_000);

  it('writes without an id stay inside A (requeue of failed classifications; ending «all my sessions» through a key)', async () => {
    const area = 'scoped writes';
    const who = { B: S.B, ownerId: S.ownerId, bUserId: S.bUserId };
    const live = async () =>
      (
        await ctx.database.db.execute(
          sql`SELECT count(*)::int AS n FROM sessions WHERE user_id = ${S.ownerId} AND revoked_at IS NULL`,
        )
      ).rows[0]?.n;
    for (const p of principals) {
      const reqs: Req[] = [
        { method: 'POST', url: '/classifier/requeue-failed', body: {} },
        { method: 'POST', url: '/classifier/requeue-failed', body: { module: 'domains' } },
        ...(p.isKey ? [{ method: 'DELETE' as const, url: '/me/sessions' }] : []),
      ];
      for (const req of reqs) {
        const [before, sessions] = [await fingerprint(ctx, who), await live()];
        const r = await send(ctx, p, req);
        const changed = changedTables(before, await fingerprint(ctx, who));
        const route = `${req.method} ${req.url} ${JSON.stringify(req.body ?? '')}`;
        if (changed.length) note('leak', area, route, p, `${r.status}; changed B’s (or the owner’s) data: ${changed.join(', ')}`);
        if ((await live()) !== sessions) note('leak', area, route, p, `${r.status}; ended the staff owner’s sessions`);
      }
    }
    expect(findingsOf(area)).toEqual([]);
  }, 120_000);
});
