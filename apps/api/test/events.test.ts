/*
 * The generated suite: for every module of the registry — create with the descriptor's sample,
 * list with every filter (each must find the event, and its negation must not), get, patch (history
 * written), delete; Russian validation messages; fields of other modules refused; dedup.
 */
import { MSG } from '@forpost/contract/messages';
import {
  EVENT_MSG,
  type FieldDescriptor,
  type FilterDescriptor,
  filtersOf,
  hasDecisions,
  indicatorsOf,
  inputFields,
  MODULE_LIST,
  type ModuleDescriptor,
} from '@forpost/contract/modules';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let adminId: number;
let A: { id: number; name: string };
let tagId: number;
let otherTagId: number;

beforeAll(async () => {
  ctx = await setupApp();
  const u = await createUser(ctx, { email: ADMIN.email, role: 'SUPER_ADMIN' });
  adminId = u.id;
  A = await createCompany(ctx, 'Альфа-Банк');
  await createCompany(ctx, 'Бета');
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  tagId = (await admin.post('/tags', { name: 'Фишинг', color: '#f5222d' })).json().id;
  otherTagId = (await admin.post('/tags', { name: 'Прочее', color: '#8c8c8c' })).json().id;
  // The leak catalogue entry referred to by the leaks module's sample (leak_id is optional there).
});

const qs = (o: Record<string, string | number>) =>
  Object.entries(o)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/** Query parameters that match the event, and parameters that must not. */
type Params = Record<string, string | number> | null;
function filterCases(
  m: ModuleDescriptor,
  f: FilterDescriptor,
  ev: Record<string, unknown>,
  refs: { statuses: number[]; priorities: number[]; decisions: number[] },
): { hit: Params; miss: Params } {
  const today = new Date().toISOString().slice(0, 10);
  const v = ev[f.param];
  switch (f.param) {
    case 'q': {
      const word = String(ev.title).match(/[\p{L}\p{N}]{4,}/u)?.[0] ?? String(ev.title);
      return { hit: { q: word.slice(0, 6) }, miss: { q: 'зюзюкаблябра' } };
    }
    case 'company_id':
      return { hit: { company_id: A.id }, miss: null };
    case 'status':
      return { hit: { status: String(ev.status_id) }, miss: { status: String(refs.statuses.find((s) => s !== ev.status_id)) } };
    case 'priority':
      return {
        hit: { priority: String(ev.priority_id) },
        miss: { priority: String(refs.priorities.find((s) => s !== ev.priority_id)) },
      };
    case 'decision':
      return {
        hit: { decision: String(ev.decision_id) },
        miss: { decision: String(refs.decisions.find((s) => s !== ev.decision_id)) },
      };
    case 'source':
      return { hit: { source: 'Telegram,Google' }, miss: { source: 'Yandex' } };
    case 'ml_state': {
      // New events may enter the classification queue (a database trigger); filter by what it has.
      const others = ['NotDetermined', 'InQueueToML', 'SentToML', 'Failed', 'Done'].filter((x) => x !== ev.ml_state);
      return { hit: { ml_state: `${others[0]},${String(ev.ml_state)}` }, miss: { ml_state: others.join(',') } };
    }
    case 'whitelist_kind':
      return { hit: { whitelist_kind: 'none' }, miss: { whitelist_kind: 'whitelistClient' } };
    case 'tags':
      return { hit: { tags: `${otherTagId},${tagId}` }, miss: { tags: String(otherTagId) } };
    case 'created':
      return { hit: { created_from: today, created_to: today }, miss: { created_to: '2000-01-01' } };
    case 'detected':
      return { hit: { detected_from: '2026-03-01', detected_to: '2026-03-01T12:00:00Z' }, miss: { detected_from: '2026-03-02' } };
    case 'import_id':
      return { hit: null, miss: { import_id: 424242 } };
    case 'author_id':
      return { hit: { author_id: adminId }, miss: { author_id: adminId + 1000 } };
    case 'assignee':
      // A new event has no assignee; the admin is not it.
      return { hit: { assignee: 'none' }, miss: { assignee: 'me' } };
    case 'sla': {
      const sla = ev.sla as { due_at: string | null; overdue: boolean } | undefined;
      if (!sla?.due_at) return { hit: { sla: 'none' }, miss: { sla: 'overdue' } };
      const soon = Date.parse(sla.due_at) - Date.now() <= 2 * 3_600_000;
      const state = sla.overdue ? 'overdue' : soon ? 'due_soon' : 'on_track';
      return { hit: { sla: state }, miss: { sla: state === 'overdue' ? 'on_track' : 'overdue' } };
    }
    case 'indicator': {
      // The event's first indicator finds it; an address nobody uses does not.
      const [first] = indicatorsOf(m, ev);
      return { hit: first ? { indicator: first } : null, miss: { indicator: 'ip:203.0.113.254' } };
    }
  }
  const field = m.fields.find((x) => x.key === f.param) as FieldDescriptor;
  if (v === null || v === undefined) return { hit: null, miss: null };
  switch (field.filter) {
    case 'eq':
      if (field.sensitive === 'card')
        return { hit: { [f.param]: m.sample(1)[f.param] as string }, miss: { [f.param]: '4276000000000002' } };
      return {
        hit: { [f.param]: String(v).toUpperCase() },
        miss: { [f.param]: typeof v === 'number' ? v + 1 : `${String(v)}x` },
      };
    case 'contains': {
      const s = String(v);
      return { hit: { [f.param]: s.slice(1, Math.max(3, s.length - 1)) }, miss: { [f.param]: 'нет-такого-значения' } };
    }
    case 'in': {
      const other = field.type === 'ref' ? String(Number(v) + 1000) : (field.options ?? []).find((o) => o.value !== v)?.value;
      return { hit: { [f.param]: String(v) }, miss: other ? { [f.param]: other } : null };
    }
    case 'bool':
      return { hit: { [f.param]: String(v) }, miss: { [f.param]: String(!v) } };
    case 'range':
      if (typeof v === 'number')
        return { hit: { [`${f.param}_from`]: v, [`${f.param}_to`]: v }, miss: { [`${f.param}_from`]: v + 1 } };
      return {
        hit: { [`${f.param}_from`]: String(v).slice(0, 10), [`${f.param}_to`]: String(v).slice(0, 10) },
        miss: { [`${f.param}_to`]: '2000-01-01' },
      };
  }
  return { hit: null, miss: null };
}

/** A value of the field's type that fails validation, and the message it must give. */
const INVALID: Partial<Record<FieldDescriptor['type'], [unknown, string]>> = {
  domain: ['не домен', MSG.domain],
  url: ['ftp://example.com', MSG.url],
  email: ['ivanov@', MSG.email],
  card: ['4276 1234 1234 1235', MSG.card],
  inn: ['7707083894', MSG.inn],
  ogrn: ['1027700132196', MSG.ogrn],
  ip: ['300.1.2.3', EVENT_MSG.ip],
  host: ['-плохо-', EVENT_MSG.host],
  phone: ['позвоните мне', EVENT_MSG.phone],
  date: ['2026-02-30', EVENT_MSG.date],
  datetime: ['вчера', EVENT_MSG.datetime],
  integer: ['12', EVENT_MSG.integer],
  enum: ['нет-такого', EVENT_MSG.option],
};

/** A different valid value for a patch. */
function otherValue(f: FieldDescriptor, sample: Record<string, unknown>): unknown {
  switch (f.type) {
    case 'enum':
      return (f.options ?? []).find((o) => o.value !== sample[f.key])?.value;
    case 'integer':
    case 'number':
      return 7;
    case 'boolean':
      return !sample[f.key];
    case 'text':
    case 'string':
      return f.key === 'expiry'
        ? '01/30'
        : f.key === 'mcc'
          ? '6011'
          : f.key === 'okved'
            ? '62.01'
            : f.key === 'mid'
              ? '123'
              : 'Изменённое значение';
    default:
      return undefined;
  }
}

for (const m of MODULE_LIST) {
  describe(`module ${m.code} (${m.name})`, () => {
    const base = `/modules/${m.code}/events`;

    it('create → list with every filter → get → patch with history → delete', async () => {
      const statuses = (await admin.get(`${base}/statuses`)).json().items.map((s: { id: number }) => s.id);
      const priorities = (await admin.get(`${base}/priorities`)).json().items.map((s: { id: number }) => s.id);
      const decisions = hasDecisions(m)
        ? (await admin.get(`${base}/decisions`)).json().items.map((s: { id: number }) => s.id)
        : [];
      expect(statuses.length).toBeGreaterThanOrEqual(4);
      expect(priorities.length).toBe(4);
      if (hasDecisions(m)) expect(decisions.length).toBeGreaterThanOrEqual(3);
      else expect((await admin.get(`${base}/decisions`)).statusCode).toBe(400); // no such list: 'decisions' is not an event id

      const sample = m.sample(1);
      const body: Record<string, unknown> = {
        company_id: A.id,
        ...sample,
        priority_id: priorities[2],
        source: 'Telegram',
        detected_at: '2026-03-01T08:00:00+03:00',
        tags: [tagId],
        ...(hasDecisions(m) ? { decision_id: decisions[0] } : {}),
      };
      const created = await admin.post(base, body);
      expect(created.statusCode, created.body).toBe(201);
      const ev = created.json();
      expect(ev).toMatchObject({
        module: m.code,
        company_id: A.id,
        company_name: A.name,
        status_id: statuses[0],
        priority_id: priorities[2],
        source: 'Telegram',
        tags: [tagId],
        author_id: adminId,
        detected_at: '2026-03-01T05:00:00.000Z',
      });
      expect(ev.title.length).toBeGreaterThan(0);
      for (const f of inputFields(m)) {
        if (f.sensitive === 'card') expect(ev[f.key]).toMatch(/^\d{4} \*{4} \*{4} \d{4}$/);
        else if (f.type === 'datetime') expect(Date.parse(ev[f.key])).toBe(Date.parse(String(sample[f.key])));
        else if (typeof sample[f.key] === 'string' && f.type !== 'domain')
          expect(String(ev[f.key]).toLowerCase()).toBe(String(sample[f.key]).toLowerCase());
        else if (sample[f.key] !== undefined && f.type !== 'domain') expect(ev[f.key]).toEqual(sample[f.key]);
      }

      const list = async (params: Record<string, string | number>) => {
        const r = await admin.get(`${base}?${qs(params)}`);
        expect(r.statusCode, `${qs(params)}: ${r.body}`).toBe(200);
        return r.json() as { items: { id: number }[]; total: number };
      };
      const all = await list({});
      expect(all.items.map((i) => i.id)).toContain(ev.id);
      for (const f of filtersOf(m)) {
        const cases = filterCases(m, f, ev, { statuses, priorities, decisions });
        if (cases.hit)
          expect(
            (await list(cases.hit)).items.map((i) => i.id),
            `${f.param} should find it: ${qs(cases.hit)}`,
          ).toContain(ev.id);
        if (cases.miss)
          expect(
            (await list(cases.miss)).items.map((i) => i.id),
            `${f.param} should not find it: ${qs(cases.miss)}`,
          ).not.toContain(ev.id);
      }
      // Sorting by every sortable column works and keeps the event.
      for (const col of ['created_at', 'title', ...m.fields.filter((f) => f.sortable).map((f) => f.key)]) {
        expect((await list({ sort: `-${col}` })).items.map((i) => i.id)).toContain(ev.id);
        expect((await list({ sort: col })).items.map((i) => i.id)).toContain(ev.id);
      }

      const got = await admin.get(`${base}/${ev.id}`);
      expect(got.statusCode).toBe(200);
      expect(got.json()).toMatchObject({ id: ev.id, comments_count: 0, attachments: [] });

      const editable =
        inputFields(m).find((f) => !f.required && otherValue(f, sample) !== undefined) ??
        inputFields(m).find((f) => otherValue(f, sample) !== undefined);
      const patch: Record<string, unknown> = { status_id: statuses[1], tags_add: [otherTagId] };
      if (editable) patch[editable.key] = otherValue(editable, sample);
      const patched = await admin.patch(`${base}/${ev.id}`, patch);
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json()).toMatchObject({ status_id: statuses[1], tags: [tagId, otherTagId] });
      if (editable) expect(patched.json()[editable.key]).toEqual(patch[editable.key]);

      const history = (await admin.get(`${base}/${ev.id}/history`)).json().items as {
        action: string;
        field: string | null;
        before: unknown;
        after: unknown;
        actor_id: number;
        field_label: string | null;
      }[];
      const status = history.find((h) => h.field === 'status_id');
      expect(status).toMatchObject({
        action: 'update',
        before: statuses[0],
        after: statuses[1],
        actor_id: adminId,
        field_label: 'Статус',
      });
      expect(history.find((h) => h.field === 'tags')).toMatchObject({
        before: [tagId],
        after: [tagId, otherTagId].sort((a, b) => a - b),
      });
      if (editable)
        expect(history.find((h) => h.field === editable.key)).toMatchObject({
          after: patch[editable.key],
          field_label: editable.label,
        });
      expect(history.some((h) => h.action === 'create')).toBe(true);
      // A patch that changes nothing writes nothing.
      await admin.patch(`${base}/${ev.id}`, { status_id: statuses[1] });
      expect((await admin.get(`${base}/${ev.id}/history`)).json().items).toHaveLength(history.length);

      expect((await admin.del(`${base}/${ev.id}`)).statusCode).toBe(204);
      expect((await admin.get(`${base}/${ev.id}`)).statusCode).toBe(404);
      expect((await list({})).items.map((i) => i.id)).not.toContain(ev.id);
    });

    it('invalid module fields get the spec’s Russian messages', async () => {
      const checked = inputFields(m).filter((f) => INVALID[f.type]);
      for (const f of checked) {
        const [bad, message] = INVALID[f.type] as [unknown, string];
        const r = await admin.post(base, { company_id: A.id, ...m.sample(50), [f.key]: bad });
        expect(r.statusCode, `${f.key}=${String(bad)}`).toBe(400);
        expect(r.json().data.fields[f.key], f.key).toBe(message);
        expect(r.json().message).toBe(message);
      }
      for (const f of inputFields(m).filter((x) => x.required)) {
        const body: Record<string, unknown> = { company_id: A.id, ...m.sample(51) };
        delete body[f.key];
        const r = await admin.post(base, body);
        expect(r.statusCode).toBe(400);
        expect(r.json().data.fields[f.key]).toBe(MSG.required);
      }
    });

    it('refuses fields of another module, derived fields and unknown filters', async () => {
      const other = MODULE_LIST.flatMap((o) => o.fields).find((f) => !m.fields.some((g) => g.key === f.key)) as FieldDescriptor;
      const r = await admin.post(base, { company_id: A.id, ...m.sample(60), [other.key]: 'x' });
      expect(r.statusCode).toBe(400);
      expect(r.json().message).toContain(other.key);
      const derived = m.fields.find((f) => f.derived);
      if (derived)
        expect((await admin.post(base, { company_id: A.id, ...m.sample(61), [derived.key]: 'x' })).statusCode).toBe(400);
      expect((await admin.get(`${base}?${other.key}=x`)).statusCode).toBe(400);
      expect((await admin.get(`${base}?sort=-no_such_column`)).json().message).toBe(EVENT_MSG.sortUnknown);
    });

    it('deduplicates by fingerprint within a company', async () => {
      const body = { company_id: A.id, ...m.sample(70) };
      const first = await admin.post(base, body);
      expect(first.statusCode, first.body).toBe(201);
      const second = await admin.post(base, { ...body, title: 'Другой заголовок', source: 'Google' });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe(`${EVENT_MSG.duplicate} (№${first.json().id})`);
      expect(second.json().data).toEqual({ id: first.json().id });
      // The same fingerprint in another module or company is a different event.
      const others = await admin.get('/companies');
      const B = (others.json().items as { id: number; name: string }[]).find((c) => c.name === 'Бета');
      expect((await admin.post(base, { ...body, company_id: B?.id })).statusCode).toBe(201);
      // Changing an event into another's fingerprint is refused too.
      const third = await admin.post(base, { company_id: A.id, ...m.sample(71) });
      expect(third.statusCode).toBe(201);
      const fpPatch: Record<string, unknown> = Object.fromEntries(
        m.fingerprint.filter((k) => inputFields(m).some((f) => f.key === k)).map((k) => [k, m.sample(70)[k] ?? null]),
      );
      if (m.code === 'domains') fpPatch.domain = m.sample(70).domain;
      const clash = await admin.patch(`${base}/${third.json().id}`, fpPatch);
      expect(clash.statusCode, clash.body).toBe(409);
      expect((await admin.get(`${base}/${third.json().id}`)).json().title).toBe(third.json().title);
    });
  });
}

describe('registry endpoints', () => {
  it('GET /modules lists every module of the registry with id, code and Russian name', async () => {
    const r = await admin.get('/modules');
    expect(r.statusCode).toBe(200);
    expect(r.json().items).toHaveLength(MODULE_LIST.length);
    expect(r.json().items[0]).toEqual({ id: 1, code: 'domains', name: 'Домены' });
  });

  it('defanged indicators («evil[.]com», «hxxps://…») are stored as they are meant', async () => {
    const r = await admin.post('/modules/domains/events', {
      company_id: A.id,
      domain: 'Defanged-Registry[.]ru',
      url: 'hxxps://defanged-registry[.]ru/login',
      ip: '185.12.7[.]9',
    });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({
      domain: 'defanged-registry.ru',
      domain_punycode: 'defanged-registry.ru',
      url: 'https://defanged-registry.ru/login',
      ip: '185.12.7.9',
      title: 'defanged-registry.ru',
    });
    // Still refused when it is no indicator even after that.
    const bad = await admin.post('/modules/domains/events', { company_id: A.id, domain: 'evil[.]' });
    expect(bad.statusCode).toBe(400);
  });

  it('an unknown module code answers 404 with a Russian message', async () => {
    for (const [method, url] of [
      ['GET', '/modules/nosuch/events'],
      ['POST', '/modules/nosuch/events'],
      ['GET', '/modules/nosuch/events/1'],
      ['GET', '/modules/nosuch/events/statuses'],
    ] as const) {
      const r = await admin.req(method, url, method === 'POST' ? {} : undefined);
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe(EVENT_MSG.moduleNotFound);
    }
  });

  it('page_size is capped at 500 and totals are counted up to 10 000', async () => {
    expect((await admin.get('/modules/consulting/events?page_size=501')).statusCode).toBe(400);
    // 10 050 consulting events straight into the table (the API path is tested above).
    await ctx.database.db.execute(sql`
      INSERT INTO events (company_id, module, title, status_id, fingerprint, data, search)
      SELECT ${A.id}, 'consulting', 'Массовое событие ' || g, (SELECT id FROM event_statuses WHERE module = 'consulting' AND code = 'new'),
             'bulk-' || g, '{}'::jsonb, to_tsvector('simple', 'массовое')
      FROM generate_series(1, 10050) g`);
    const r = (await admin.get(`/modules/consulting/events?company_id=${A.id}&page_size=500&page=3`)).json();
    expect(r).toMatchObject({ total: 10000, total_capped: true, page: 3, page_size: 500 });
    expect(r.items).toHaveLength(500);
    // With a free-text query the count stops at 1 000.
    const found = (await admin.get(`/modules/consulting/events?company_id=${A.id}&q=массовое`)).json();
    expect(found).toMatchObject({ total: 1000, total_capped: true });
    const small = (await admin.get('/modules/consulting/events?q=массовое&created_to=2000-01-01')).json();
    expect(small).toMatchObject({ total: 0, total_capped: false });
    await ctx.database.db.execute(sql`DELETE FROM events WHERE fingerprint LIKE 'bulk-%'`);
  });

  it('status_counts counts the filtered list per status, ignoring the status filter', async () => {
    const base = '/modules/endpoints/events';
    const st = (await admin.get(`${base}/statuses`)).json().items.map((s: { id: number }) => s.id);
    for (let i = 200; i < 205; i++)
      await admin.post(base, { company_id: A.id, ...MODULE_LIST[13]?.sample(i), ...(i % 2 ? { status_id: st[1] } : {}) });
    // The total is the same whether it is counted (full page) or read off a last, partial page.
    for (const page of [1, 2, 3, 4]) {
      const p = (await admin.get(`${base}?company_id=${A.id}&url=api20&page_size=2&page=${page}`)).json();
      expect(p, `page ${page}`).toMatchObject({ total: 5, total_capped: false });
      expect(p.items).toHaveLength([2, 2, 1, 0][page - 1] as number);
    }
    const r = (await admin.get(`${base}?company_id=${A.id}&status=${st[1]}&status_counts=true&url=api20`)).json();
    expect(r.total).toBe(2);
    expect(r.status_counts).toEqual([
      { status_id: st[0], count: 3 },
      { status_id: st[1], count: 2 },
    ]);
  });

  it('rules: the list of items matching any rule, with the rule each matched', async () => {
    const base = '/modules/networkattacks/events';
    const m = MODULE_LIST.find((x) => x.code === 'networkattacks') as ModuleDescriptor;
    const a = (await admin.post(base, { company_id: A.id, ...m.sample(300), attack_type: 'scan' })).json();
    const b = (
      await admin.post(base, { company_id: A.id, ...m.sample(301), attack_type: 'bruteforce', source: 'Google' })
    ).json();
    await admin.post(base, { company_id: A.id, ...m.sample(302), attack_type: 'botnet' });
    const rules = [{ attack_type: 'bruteforce' }, { attack_type: ['scan', 'bruteforce'] }];
    const r = await admin.get(`${base}?${qs({ rules: JSON.stringify(rules), sort: 'id' })}`);
    expect(r.statusCode, r.body).toBe(200);
    const j = r.json();
    expect(j.items.map((i: { id: number }) => i.id)).toEqual([a.id, b.id]);
    expect(j.rules).toEqual(rules);
    expect(j.rules_map).toEqual([
      { item_id: a.id, rule_index: 1 },
      { item_id: b.id, rule_index: 0 },
    ]);
    const bad = await admin.get(`${base}?${qs({ rules: JSON.stringify([{ attack_type: 'meteor' }]) })}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields['rules.0.attack_type']).toBeTruthy();
    expect((await admin.get(`${base}?rules=not-json`)).json().message).toBe(EVENT_MSG.badRules);
  });

  it('search finds Russian word forms, English stems, domain parts and prefixes', async () => {
    const base = '/modules/media/events';
    const m = MODULE_LIST.find((x) => x.code === 'media') as ModuleDescriptor;
    const ev = (
      await admin.post(base, {
        company_id: A.id,
        ...m.sample(400),
        headline: 'Мошенники атаковали клиентов банка',
        summary: 'Phishing campaigns targeted customers',
      })
    ).json();
    for (const q of ['мошенников', 'банки мошенник', 'phish', 'campaign', 'rbc', 'клиент', 'RBC.ru']) {
      const ids = (await admin.get(`${base}?${qs({ q })}`)).json().items.map((i: { id: number }) => i.id);
      expect(ids, q).toContain(ev.id);
    }
    expect((await admin.get(`${base}?${qs({ q: 'котики' })}`)).json().items.map((i: { id: number }) => i.id)).not.toContain(
      ev.id,
    );
  });

  it('the OpenAPI document includes every module’s operations', async () => {
    const doc = (await admin.get('/openapi.json')).json();
    for (const m of MODULE_LIST) {
      const P = m.code.charAt(0).toUpperCase() + m.code.slice(1);
      expect(doc.paths[`/api/v1/modules/${m.code}/events`].get.operationId).toBe(`list${P}Events`);
      expect(doc.paths[`/api/v1/modules/${m.code}/events/{id}`].patch.operationId).toBe(`update${P}Event`);
    }
  });
});
