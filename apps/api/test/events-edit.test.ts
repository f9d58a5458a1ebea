/*
 * Editing the module's own fields through PATCH /modules/{code}/events/{id} (what the console's
 * «Изменить» sends): every module refuses invalid values with the registry's Russian message (the
 * same zod schema the console validates with), fields of another module, derived fields and clearing
 * a required field; a good value lands in the history; card numbers stay masked in the history.
 */

import { MSG } from '@forpost/contract/messages';
import { type FieldDescriptor, inputFields, MODULE_LIST, MODULES } from '@forpost/contract/modules';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Client, createCompany, setupApp, signedIn, type TestContext } from './helpers';

let ctx: TestContext;
let admin: Client;
let analyst: Client;
let viewer: Client;
let A: { id: number };

const BAD: Partial<Record<FieldDescriptor['type'], unknown>> = {
  string: '',
  text: '   ',
  domain: 'не домен',
  host: '-плохо-',
  url: 'ftp://example.com',
  email: 'ivanov@',
  ip: '300.1.2.3',
  phone: 'позвоните мне',
  integer: 1.5,
  number: 'много',
  boolean: 'да',
  date: '2026-02-30',
  datetime: 'вчера',
  enum: 'нет-такого',
  card: '4276 1234 1234 1235',
  inn: '7707083894',
  ogrn: '1027700132196',
  string_list: 'не список',
  ref: -1,
};

beforeAll(async () => {
  ctx = await setupApp();
  admin = await signedIn(ctx, ADMIN.email, 'SUPER_ADMIN');
  A = await createCompany(ctx, 'Альфа');
  analyst = await signedIn(ctx, 'an@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_ANALYST' }]);
  viewer = await signedIn(ctx, 'vw@forpost.test', 'COMPANY_USER', [{ id: A.id, role: 'COMPANY_VIEWER' }]);
});

describe.each(MODULE_LIST.map((m) => [m.code, m] as const))('PATCH module fields: %s', (_code, m) => {
  const base = `/modules/${m.code}/events`;

  it('refuses every invalid field value with the registry’s Russian message', async () => {
    const ev = await admin.post(base, { company_id: A.id, ...m.sample(900) });
    expect(ev.statusCode, ev.body).toBe(201);
    const id = ev.json().id as number;
    for (const f of inputFields(m)) {
      const bad = BAD[f.type];
      expect(bad, `no invalid value for ${f.type}`).toBeDefined();
      const expected = f.input.safeParse(bad);
      expect(expected.success, `${f.key}=${String(bad)} should be invalid`).toBe(false);
      const r = await analyst.patch(`${base}/${id}`, { [f.key]: bad });
      expect(r.statusCode, `${f.key}: ${r.body}`).toBe(400);
      expect(r.json().data.fields[f.key], f.key).toBe(expected.error?.issues[0]?.message);
      expect(r.json().message).toBe(expected.error?.issues[0]?.message);
    }
    // The spec's exact messages where it names them.
    const byType = (t: FieldDescriptor['type']) => inputFields(m).find((f) => f.type === t);
    const url = byType('url');
    if (url) expect((await analyst.patch(`${base}/${id}`, { [url.key]: 'not a url' })).json().data.fields[url.key]).toBe(MSG.url);
    const email = byType('email');
    if (email)
      expect((await analyst.patch(`${base}/${id}`, { [email.key]: 'x@' })).json().data.fields[email.key]).toBe(MSG.email);
    for (const f of inputFields(m).filter((x) => x.required)) {
      const r = await analyst.patch(`${base}/${id}`, { [f.key]: null });
      expect(r.statusCode, f.key).toBe(400);
      expect(r.json().data.fields[f.key]).toBe(MSG.required);
    }
    // Nothing of that was written.
    const hist = (await admin.get(`${base}/${id}/history`)).json().items as { action: string }[];
    expect(hist.filter((h) => h.action === 'update')).toEqual([]);
  });

  it('refuses a field of another module and a derived field', async () => {
    const ev = (await admin.post(base, { company_id: A.id, ...m.sample(901) })).json();
    const other = MODULE_LIST.flatMap((o) => inputFields(o)).find(
      (f) => !m.fields.some((g) => g.key === f.key),
    ) as FieldDescriptor;
    const r = await analyst.patch(`${base}/${ev.id}`, { [other.key]: 'x' });
    expect(r.statusCode).toBe(400);
    expect(r.json().message).toMatch(/[а-я]/i);
    expect(r.json().message).toContain(other.key);
    const derived = m.fields.find((f) => f.derived);
    if (derived) expect((await analyst.patch(`${base}/${ev.id}`, { [derived.key]: 'x' })).statusCode).toBe(400);
  });
});

describe('PATCH module fields: rights and history', () => {
  it('a viewer may not edit; an analyst’s change shows in the history with the field’s label', async () => {
    const base = '/modules/firms/events';
    const ev = (await admin.post(base, { company_id: A.id, ...MODULES.firms.sample(910) })).json();
    const name = inputFields(MODULES.firms).find((f) => f.type === 'string') as FieldDescriptor;
    expect((await viewer.patch(`${base}/${ev.id}`, { [name.key]: 'ООО «Исправлено»' })).statusCode).toBe(403);
    const r = await analyst.patch(`${base}/${ev.id}`, { [name.key]: 'ООО «Исправлено»' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()[name.key]).toBe('ООО «Исправлено»');
    const h = (await analyst.get(`${base}/${ev.id}/history`)).json().items.find((x: { field: string }) => x.field === name.key);
    expect(h).toMatchObject({ action: 'update', field_label: name.label, before: ev[name.key], after: 'ООО «Исправлено»' });
  });

  it('a new card number is stored sealed: the response and the history show masks only', async () => {
    const base = '/modules/acquiring/events';
    const ev = (await admin.post(base, { company_id: A.id, ...MODULES.acquiring.sample(911) })).json();
    const next = MODULES.acquiring.sample(912).card_number as string;
    const r = await analyst.patch(`${base}/${ev.id}`, { card_number: next });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().card_number).not.toContain(next.slice(6, 12));
    const h = (await analyst.get(`${base}/${ev.id}/history`))
      .json()
      .items.find((x: { field: string }) => x.field === 'card_number');
    expect(JSON.stringify(h)).not.toContain(next);
    expect(JSON.stringify(h)).not.toContain(next.slice(6, 12));
    expect((await analyst.patch(`${base}/${ev.id}`, { card_number: '1234' })).json().data.fields.card_number).toBe(MSG.card);
  });
});
