/*
 * Issue 16, imports: the dry run counts exactly what the import then fails (whole file, nothing
 * written), a column failing most rows is named, the auto-mapping leaves out a `company` column that
 * names no company, long URLs / IPs / `_` hosts are kept, domain titles are Unicode in the API and
 * the export.
 */
import type { ExportItem } from '@forpost/contract/exports';
import type { ImportCheck, ImportItem, ImportUploadResponse } from '@forpost/contract/imports';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, type TestContext } from './helpers';
import { attachJobs, finished, upload, waitFor } from './imports-kit';

let ctx: TestContext;
let admin: Client;
let companyA: number;

const BASE = '/modules/domains/events/imports';

async function uploaded(csv: string, base = BASE, name = 'feed.csv') {
  const up = await upload(ctx, admin, base, { name, content: csv });
  expect(up.statusCode, up.body).toBe(201);
  return up.json() as ImportUploadResponse;
}

async function check(id: number, mapping: (string | null)[], base = BASE, company = companyA) {
  const r = await admin.post(`${base}/${id}/check`, { mapping, ...(base === BASE ? { company_id: company } : {}) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as ImportCheck;
}

async function start(id: number, mapping: (string | null)[], base = BASE) {
  const st = await admin.post(`${base}/${id}/start`, {
    mapping,
    mode: 'update',
    ...(base === BASE ? { company_id: companyA } : {}),
  });
  expect(st.statusCode, st.body).toBe(202);
  return waitFor<ImportItem>(admin, `${base}/${id}`, finished);
}

/** The error report's reasons, counted. */
async function reportReasons(base: string, id: number): Promise<Map<string, number>> {
  const rep = await admin.get(`${base}/${id}/errors`);
  expect(rep.statusCode, rep.body).toBe(200);
  const rows = (parse(rep.body.slice(1), { delimiter: ';' }) as string[][]).slice(1);
  const out = new Map<string, number>();
  for (const r of rows) out.set(`${r[1]}|${r[3]}`, (out.get(`${r[1]}|${r[3]}`) ?? 0) + 1);
  return out;
}

const domainCount = async () =>
  (await admin.get(`/modules/domains/events?company_id=${companyA}&page_size=1`)).json().total as number;

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  companyA = (await createCompany(ctx, 'Альфа')).id;
  await createCompany(ctx, 'Бета');
  await attachJobs(ctx, true);
  const allow = await admin.post('/modules/domains/allowlist', { company_id: companyA, domain: 'alfa-official.ru' });
  expect(allow.statusCode, allow.body).toBe(201);
  const tag = await admin.post('/tags', { name: 'фишинг' });
  expect(tag.statusCode, tag.body).toBe(201);
});

describe('dry run (POST …/check)', () => {
  it('counts exactly the rows and errors the import then fails, over the whole file, writing nothing', async () => {
    const lines = ['Домен;Компания;Схожесть, %;Дата регистрации;Теги'];
    for (let i = 1; i <= 45; i++) {
      // Every kind of error, most of them after the first 20 rows the preview shows.
      const domain = i === 25 ? 'плохой домен' : i === 30 ? 'www.alfa-official.ru' : i === 44 ? 'dup-2.ru' : `alfa-${i}.ru`;
      const company = i === 27 || i === 40 ? 'Гамма' : i % 2 ? 'Альфа' : '';
      const similarity = i === 22 ? '120' : i === 33 ? 'abc' : String(50 + i);
      const date = i === 35 ? '2026-02-30' : i === 36 ? '31.12.2025' : '';
      const tags = i === 38 ? 'нет-такого' : i === 39 ? 'фишинг' : '';
      lines.push([domain, company, similarity, date, tags].join(';'));
    }
    const csv = lines.join('\n');
    const u = await uploaded(csv);
    expect(u.preview.rows).toHaveLength(20);
    expect(u.preview.mapping).toEqual(['domain', 'company_id', 'similarity', 'registered_at', 'tags']);
    const before = await domainCount();

    const c = await check(u.id, u.preview.mapping);
    expect(c.rows_total).toBe(45);
    // 22, 25, 27, 30 (allowlisted: refused at write), 33, 35, 38, 40.
    expect(c.rows_failed, JSON.stringify(c.reasons)).toBe(8);
    expect(c.errors_count).toBe(8);
    expect(c.mapping_errors).toEqual([]);
    expect(c.warnings).toEqual([]);
    const reason = (col: string | null, message: string) =>
      c.reasons.find((r) => r.column === col && r.message.startsWith(message));
    expect(reason('Компания', 'Компания не найдена или недоступна')).toMatchObject({
      count: 2,
      examples: [
        { row: 28, value: 'Гамма' },
        { row: 41, value: 'Гамма' },
      ],
    });
    expect(reason(null, 'Домен в списке разрешённых')).toMatchObject({ count: 1, examples: [{ row: 31, value: null }] });
    expect(reason('Дата регистрации', 'Неверная дата (ожидается ДД.ММ.ГГГГ или ГГГГ-ММ-ДД)')?.count).toBe(1);
    expect(reason('Теги', 'Неизвестный тег «нет-такого»')?.count).toBe(1);
    expect(await domainCount()).toBe(before); // nothing written

    const done = await start(u.id, u.preview.mapping);
    expect(done.status).toBe('done');
    expect(done.failed).toBe(c.rows_failed);
    expect(done.errors_count).toBe(c.errors_count);
    expect(done.created + done.updated + done.skipped).toBe(c.rows_total - c.rows_failed);
    // The same reasons, the same counts, as the error report.
    const report = await reportReasons(BASE, done.id);
    const fromCheck = new Map(c.reasons.map((r) => [`${r.column ?? '—'}|${r.message}`, r.count]));
    expect([...fromCheck].sort()).toEqual([...report].sort());

    // Checked again after the import: its rows now exist, so the allowlist guard (new events only) is not hit.
    const again = await check(u.id, u.preview.mapping);
    expect(again.rows_failed).toBe(c.rows_failed);
  });

  it('matches the leaks catalogue import too (a target without write-time refusals)', async () => {
    const base = '/modules/leaks/imports';
    const lines = ['Название;Записей;Дата утечки;Источник'];
    for (let i = 1; i <= 30; i++)
      lines.push(
        [i === 26 ? '' : `Утечка ${i}`, i === 21 ? 'много' : String(i * 10), i === 29 ? '32.01.2026' : '', ''].join(';'),
      );
    const u = await uploaded(lines.join('\n'), base, 'leaks.csv');
    const c = await check(u.id, u.preview.mapping, base);
    expect([c.rows_total, c.rows_failed, c.errors_count]).toEqual([30, 3, 3]);
    const done = await start(u.id, u.preview.mapping, base);
    expect([done.failed, done.errors_count, done.created]).toEqual([c.rows_failed, c.errors_count, 27]);
  });

  it('names a mapped column that fails most rows and proposes to leave it out', async () => {
    const lines = ['domain,company,url'];
    for (let i = 1; i <= 30; i++) lines.push(`phish-${i}.com,${i === 3 ? 'Альфа' : 'Sberbank'},https://phish-${i}.com/login`);
    const u = await uploaded(lines.join('\n'));
    // One value in the sample names a company: the auto-mapping keeps the column.
    expect(u.preview.mapping).toEqual(['domain', 'company_id', 'url']);
    const c = await check(u.id, u.preview.mapping);
    expect(c.rows_failed).toBe(29);
    expect(c.warnings).toEqual([
      {
        col: 1,
        column: 'company',
        field: 'company_id',
        label: 'Компания',
        failed: 29,
        reason: 'Компания не найдена или недоступна',
        message: 'Столбец «company» (поле «Компания») не проходит проверку в 29 из 30 строк: Компания не найдена или недоступна',
      },
    ]);
    // Without it every row goes in.
    const without = await check(u.id, ['domain', null, 'url']);
    expect([without.rows_failed, without.warnings]).toEqual([0, []]);
  });

  it('does not auto-map a `company` column none of whose values names a company', async () => {
    const csv = ['domain,company', 'phish-a.com,Sberbank', 'phish-b.com,Tinkoff', 'phish-c.com,'].join('\n');
    const u = await uploaded(csv);
    expect(u.preview.mapping).toEqual(['domain', null]);
    expect(u.preview.notes).toEqual([
      'Столбец «company» не сопоставлен с полем «Компания»: ни одно его значение не совпало с названием компании',
    ]);
    expect(u.preview.rows.every((r) => r.cells.every((x) => !x.error))).toBe(true);
    expect(u.mapping).toEqual(['domain', null]);
  });
});

describe('hosts and long values', () => {
  it('keeps a long URL, IPv4/IPv6 addresses in a domain column and hosts with `_`, in the import and the API', async () => {
    const longUrl = `https://long-url.ru/track?${'a=1&'.repeat(1500)}end=1`;
    expect(longUrl.length).toBeGreaterThan(6000);
    const csv = [
      'Домен;URL',
      `long-url.ru;${longUrl}`,
      '192.0.2.10;',
      '2001:db8::10;',
      'my_host.example.com;https://my_host.example.com/',
      '_dmarc.alfa.ru;',
    ].join('\n');
    const u = await uploaded(csv);
    const c = await check(u.id, u.preview.mapping);
    expect([c.rows_failed, c.reasons]).toEqual([0, []]);
    const done = await start(u.id, u.preview.mapping);
    expect([done.created, done.failed]).toEqual([5, 0]);
    const items = (await admin.get(`/modules/domains/events?company_id=${companyA}&page_size=500`)).json().items as Record<
      string,
      unknown
    >[];
    const byDomain = new Map(items.map((e) => [e.domain, e]));
    expect(byDomain.get('long-url.ru')?.url).toBe(longUrl);
    for (const d of ['192.0.2.10', '2001:db8::10', 'my_host.example.com', '_dmarc.alfa.ru']) expect(byDomain.has(d)).toBe(true);

    for (const domain of ['198.51.100.7', '2001:DB8::77', 'api_v2.alfa.ru']) {
      const r = await admin.post('/modules/domains/events', { company_id: companyA, domain, url: `${longUrl}&x=${domain}` });
      expect(r.statusCode, r.body).toBe(201);
      expect(r.json().domain).toBe(domain.toLowerCase());
    }
    const bad = await admin.post('/modules/domains/events', { company_id: companyA, domain: '999.1.1.1' });
    expect(bad.statusCode).toBe(400);
  });

  it('titles a punycode domain in Unicode, in the API and in the export', async () => {
    const u = await uploaded('Домен\nxn--e1afmkfd.xn--p1ai\n');
    const done = await start(u.id, u.preview.mapping);
    expect(done.created).toBe(1);
    const items = (await admin.get(`/modules/domains/events?company_id=${companyA}&q=пример&page_size=50`)).json().items as {
      id: number;
      title: string;
      domain: string;
    }[];
    const e = items.find((x) => x.domain === 'пример.рф');
    expect(e?.title).toBe('пример.рф');
    const api = await admin.post('/modules/domains/events', { company_id: companyA, domain: 'XN--80AK6AA92E.COM' });
    expect(api.statusCode, api.body).toBe(201);
    expect(api.json().title).toBe(api.json().domain);
    expect(api.json().title).not.toMatch(/xn--/);

    const ex = await admin.post('/modules/exports', {
      module: 'domains',
      format: 'csv',
      fields: ['title', 'domain'],
      filters: { company_id: companyA, q: 'пример' },
    });
    expect(ex.statusCode, ex.body).toBe(202);
    const exp = await waitFor<ExportItem>(admin, `/modules/exports/${(ex.json() as ExportItem).id}`, finished);
    const file = await admin.get(`/modules/exports/${exp.id}/download`);
    const rows = parse(file.body.replace(/^\ufeff/, ''), { delimiter: ';' }) as string[][];
    expect(rows[0]?.slice(0, 2)).toEqual(['Заголовок', 'Домен']);
    expect(rows.slice(1).map((r) => r[0])).toContain('пример.рф');
    expect(rows.slice(1).some((r) => r[0]?.includes('xn--'))).toBe(false);
  });
});
