import type { ImportItem, ImportUploadResponse } from '@forpost/contract/imports';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, setupApp, signedIn, type TestContext } from './helpers';
import { attachJobs, finished, upload, waitFor } from './imports-kit';

let ctx: TestContext;
let admin: Client;
let companyA: number;
let companyB: number;

const BASE = '/modules/domains/events/imports';

async function importAndWait(
  client: Client,
  csv: string | Buffer,
  opts: { name?: string; mode?: 'update' | 'skip'; company?: number; mapping?: (string | null)[] } = {},
) {
  const up = await upload(ctx, client, BASE, { name: opts.name ?? 'domains.csv', content: csv });
  expect(up.statusCode, up.body).toBe(201);
  const u = up.json() as ImportUploadResponse;
  const st = await client.post(`${BASE}/${u.id}/start`, {
    mapping: opts.mapping ?? u.preview.mapping,
    mode: opts.mode ?? 'update',
    company_id: opts.company ?? companyA,
  });
  expect(st.statusCode, st.body).toBe(202);
  const done = await waitFor<ImportItem>(client, `${BASE}/${u.id}`, finished);
  return { upload: u, done };
}

/** An upload by the admin that must be accepted, and its answer. */
async function uploaded(name: string, content: string): Promise<ImportUploadResponse> {
  const up = await upload(ctx, admin, BASE, { name, content });
  expect(up.statusCode, up.body).toBe(201);
  return up.json() as ImportUploadResponse;
}

async function domainsOf(client: Client, companyId: number) {
  const r = await client.get(`/modules/domains/events?company_id=${companyId}&page_size=500&sort=id`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json().items as Record<string, unknown>[];
}

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  companyA = (await createCompany(ctx, 'Альфа')).id;
  companyB = (await createCompany(ctx, 'Бета')).id;
  await attachJobs(ctx, true);
});

describe('upload: detection, mapping, preview', () => {
  it('detects UTF-8 with BOM and «;», maps Russian headers, validates the first rows cell by cell', async () => {
    const csv =
      '\ufeffДомен;IP-адрес;Схожесть, %;Статус;Лишний столбец\n' +
      'sber-login.ru;185.1.1.1;90;Новое;x\n' +
      'not a domain;999.1.1.1;101;Непонятный;y\n';
    const r = await upload(ctx, admin, BASE, { name: 'список.csv', content: csv });
    expect(r.statusCode, r.body).toBe(201);
    const b = r.json() as ImportUploadResponse;
    expect(b).toMatchObject({ status: 'uploaded', format: 'csv', encoding: 'utf-8', delimiter: ';', file_name: 'список.csv' });
    expect(b.headers).toEqual(['Домен', 'IP-адрес', 'Схожесть, %', 'Статус', 'Лишний столбец']);
    expect(b.preview.mapping).toEqual(['domain', 'ip', 'similarity', 'status_id', null]);
    expect(b.preview.mapping_errors).toEqual([]);
    const [ok, bad] = b.preview.rows;
    expect(ok?.row).toBe(2);
    expect(ok?.cells.every((c) => !c.error)).toBe(true);
    expect(bad?.row).toBe(3);
    expect(bad?.cells[0]?.error).toBe('Неверный формат домена');
    expect(bad?.cells[1]?.error).toBe('Неверный IP-адрес');
    expect(bad?.cells[2]?.error).toBe('Не больше 100');
    expect(bad?.cells[3]?.error).toBe('Неизвестный статус');
    expect(bad?.cells[4]?.error).toBeUndefined();
    expect(b.doc_id).toBeGreaterThan(0);
  });

  it('maps English headers; a manual mapping is re-validated; required fields must be mapped', async () => {
    const csv = 'Domain name,Registrar,Similarity\nexample-bank.com,REG.RU,abc\n';
    const r = await upload(ctx, admin, BASE, { name: 'en.csv', content: csv });
    const b = r.json() as ImportUploadResponse;
    expect(b.delimiter).toBe(',');
    expect(b.preview.mapping).toEqual(['domain', 'registrar', 'similarity']);
    expect(b.preview.rows[0]?.cells[2]?.error).toBe('Ожидается целое число');

    const p = await admin.post(`${BASE}/${b.id}/preview`, { mapping: [null, 'registrar', 'page_title'] });
    expect(p.statusCode, p.body).toBe(200);
    expect(p.json().mapping_errors).toContain('Не сопоставлено обязательное поле «Домен»');
    expect(p.json().rows[0].cells.every((c: { error?: string }) => !c.error)).toBe(true);

    const twice = await admin.post(`${BASE}/${b.id}/preview`, { mapping: ['domain', 'domain', null] });
    expect(twice.json().mapping_errors).toContain('Поле «Домен» сопоставлено нескольким столбцам');

    const start = await admin.post(`${BASE}/${b.id}/start`, {
      mapping: [null, 'registrar', null],
      mode: 'update',
      company_id: companyA,
    });
    expect(start.statusCode).toBe(400);
    expect(start.json().message).toBe('Не сопоставлено обязательное поле «Домен»');
  });
});

describe('the job', () => {
  it('imports the valid rows, collects the invalid ones with row, column and reason, and offers them as a report', async () => {
    const csv = [
      'Домен;Регистратор;Схожесть, %;Дата регистрации;Теги',
      'alfa-bank-login.ru;REG.RU;91;01.03.2026;',
      'плохой домен;;;;',
      'alfa-bonus.online;R01;120;2026-02-30;',
      'alfa-pay.site;;75;2026-01-15;',
      '',
      'ALFA-PAY.SITE;Дубликат в файле;;;',
    ].join('\r\n');
    const { done } = await importAndWait(admin, csv, { name: 'ошибки.csv' });
    expect(done).toMatchObject({ status: 'done', rows_total: 5, rows_read: 5, created: 2, updated: 1, failed: 2, skipped: 0 });
    const events = await domainsOf(admin, companyA);
    const mine = events.filter((e) => e.import_id === done.id);
    expect(mine.map((e) => e.domain).sort()).toEqual(['alfa-bank-login.ru', 'alfa-pay.site']);
    expect(mine.find((e) => e.domain === 'alfa-pay.site')?.registrar).toBe('Дубликат в файле');

    const rep = await admin.get(`${BASE}/${done.id}/errors`);
    expect(rep.statusCode).toBe(200);
    expect(rep.headers['content-type']).toContain('text/csv');
    expect(rep.body.startsWith('\ufeff')).toBe(true);
    const rows = parse(rep.body.slice(1), { delimiter: ';' }) as string[][];
    expect(rows[0]).toEqual(['Строка', 'Столбец', 'Значение', 'Причина']);
    expect(rows).toContainEqual(['3', 'Домен', 'плохой домен', 'Неверный формат домена']);
    expect(rows).toContainEqual(['4', 'Схожесть, %', '120', 'Не больше 100']);
    // The import's own message: it accepts dd.MM.yyyy as well (issue 16 item 7).
    expect(rows).toContainEqual(['4', 'Дата регистрации', '2026-02-30', 'Неверная дата (ожидается ДД.ММ.ГГГГ или ГГГГ-ММ-ДД)']);
  });

  it('a feed of URLs alone (PhishTank-shaped) takes each domain from its URL', async () => {
    const feedCompany = (await createCompany(ctx, 'Фид URL')).id;
    const csv = [
      'phish_id,url,phish_detail_url,submission_time,verified,online,target',
      '8512345,https://sberbank-online.secure-login.xyz/ru/login,http://www.phishtank.com/phish_detail.php?phish_id=8512345,2026-11-26T10:15:01+00:00,yes,yes,Sberbank',
      '8512346,http://185.203.116.44/paypal/login.html,http://www.phishtank.com/phish_detail.php?phish_id=8512346,2026-11-26T11:01:44+00:00,yes,yes,PayPal',
      '8512347,https://xn--80ak6aa92e.com/signin,http://www.phishtank.com/phish_detail.php?phish_id=8512347,2026-11-26T11:02:00+00:00,yes,yes,Apple',
      '8512348,,http://www.phishtank.com/phish_detail.php?phish_id=8512348,2026-11-26T11:03:00+00:00,yes,no,Other',
      // Defanged as threat reports write it: stored as meant.
      '8512349,hxxps://defanged-feed[.]ru/login,http://www.phishtank.com/phish_detail.php?phish_id=8512349,2026-11-26T11:04:00+00:00,yes,yes,Other',
    ].join('\n');
    const u = await uploaded('verified_online.csv', csv);
    // Only the URL maps; the domain needs no column of its own (it is read from the URL).
    expect(u.preview.mapping).toEqual([null, 'url', null, null, null, null, null]);
    expect(u.preview.mapping_errors).toEqual([]);
    expect(u.preview.fields.find((f) => f.key === 'domain')).toMatchObject({ required: true, fill_from: 'url' });
    expect(u.preview.notes).toEqual(['Поле «Домен» берётся из поля «URL»: своего столбца у него нет']);
    // The row without a URL says what is missing, on the URL's cell.
    expect(u.preview.rows[3]?.cells[1]?.error).toBe('Обязательное поле: «Домен»');

    const { done } = await importAndWait(admin, csv, { name: 'verified_online.csv', company: feedCompany });
    expect(done).toMatchObject({ status: 'done', created: 4, failed: 1 });
    const mine = (await domainsOf(admin, feedCompany)).filter((e) => e.import_id === done.id);
    expect(mine.map((e) => [e.domain, e.url])).toEqual([
      ['sberbank-online.secure-login.xyz', 'https://sberbank-online.secure-login.xyz/ru/login'],
      ['185.203.116.44', 'http://185.203.116.44/paypal/login.html'],
      // The host of an IDN URL is stored as the domain always is: Unicode, with its punycode.
      ['аррӏе.com', 'https://xn--80ak6aa92e.com/signin'],
      ['defanged-feed.ru', 'https://defanged-feed.ru/login'],
    ]);
    expect(mine[2]?.domain_punycode).toBe('xn--80ak6aa92e.com');

    // A domain column still wins over the URL; an empty domain cell falls back to the URL.
    const both = 'domain,url\nown-domain.ru,https://other-host.ru/x\n,https://from-url.ru/y\n';
    const r2 = await importAndWait(admin, both, { name: 'both.csv', company: feedCompany });
    expect(r2.done).toMatchObject({ status: 'done', created: 2, failed: 0 });
    const two = (await domainsOf(admin, feedCompany)).filter((e) => e.import_id === r2.done.id).map((e) => e.domain);
    expect(two.sort()).toEqual(['from-url.ru', 'own-domain.ru']);
  });

  it('a feed with a «#» banner (URLhaus-shaped) reads its header from the last comment line', async () => {
    const feedCompany = (await createCompany(ctx, 'Фид баннер')).id;
    const csv = [
      '################################################################',
      '# abuse.ch URLhaus Database Dump (CSV - recent URLs)           #',
      '# Last updated: 2026-11-27 20:00:04 (UTC)                      #',
      '################################################################',
      '#',
      '# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter',
      '"3312345","2026-11-27 19:55:08","http://182.121.47.11:49567/i","online","2026-11-27 19:55:08","malware_download","32-bit,elf,mips,Mozi","https://urlhaus.abuse.ch/url/3312345/","geenensp"',
      '"3312346","2026-11-27 19:50:11","https://sber-bonus.ru/update.exe","online","2026-11-27 19:50:11","malware_download","exe","https://urlhaus.abuse.ch/url/3312346/","anonymous"',
      '"3312347","2026-11-27 19:45:00","not a url","offline","","malware_download","","https://urlhaus.abuse.ch/url/3312347/","anonymous"',
    ].join('\r\n');
    const u = await uploaded('csv.txt', csv);
    expect(u.delimiter).toBe(',');
    expect(u.headers).toEqual([
      'id',
      'dateadded',
      'url',
      'url_status',
      'last_online',
      'threat',
      'tags',
      'urlhaus_link',
      'reporter',
    ]);
    expect(u.preview.mapping[2]).toBe('url');
    // Row numbers stay the file's: the banner lines count.
    expect(u.preview.rows.map((r) => r.row)).toEqual([7, 8, 9]);
    const urlCol = u.preview.mapping.indexOf('url');
    const { done } = await importAndWait(admin, csv, {
      name: 'csv.txt',
      company: feedCompany,
      // The feed's «tags» are its own words, not the console's tags: that column stays out.
      mapping: u.preview.mapping.map((_k, i) => (i === urlCol ? 'url' : null)),
    });
    expect(done).toMatchObject({ status: 'done', created: 2, failed: 1 });
    const mine = (await domainsOf(admin, feedCompany)).filter((e) => e.import_id === done.id);
    expect(mine.map((e) => e.domain).sort()).toEqual(['182.121.47.11', 'sber-bonus.ru']);

    // A header whose first column is named «#» is a header, not a comment.
    expect((await uploaded('n.csv', '#;Домен\n1;numbered-header.ru\n')).headers).toEqual(['#', 'Домен']);
  });

  it('a list of URLs without a header (OpenPhish-shaped) gets one made up, and every line is data', async () => {
    const feedCompany = (await createCompany(ctx, 'Фид без заголовка')).id;
    const txt = [
      'https://sberbank-online.secure-login.xyz/ru/login',
      'http://tinkoff-bonus.top/auth/index.php',
      'https://xn--80ak6aa92e.com/signin',
      'http://185.203.116.44/paypal/login.html',
      'https://gosuslugi-compensation.online/lk?id=123#step2',
    ].join('\n');
    const u = await uploaded('feed.txt', txt);
    expect(u.headers).toEqual(['URL']);
    expect(u.preview.mapping).toEqual(['url']);
    expect(u.preview.notes).toEqual([
      'В файле нет строки заголовков: столбцы названы по содержимому, первая строка — данные',
      'Поле «Домен» берётся из поля «URL»: своего столбца у него нет',
    ]);
    expect(u.preview.mapping_errors).toEqual([]);
    // The first line is data, with its own number.
    expect(u.preview.rows.map((r) => r.row)).toEqual([1, 2, 3, 4, 5]);
    const { done } = await importAndWait(admin, txt, { name: 'feed.txt', company: feedCompany });
    expect(done).toMatchObject({ status: 'done', rows_total: 5, created: 5, failed: 0 });
    const mine = (await domainsOf(admin, feedCompany)).filter((e) => e.import_id === done.id);
    expect(mine.map((e) => e.domain).sort()).toEqual([
      '185.203.116.44',
      'gosuslugi-compensation.online',
      'sberbank-online.secure-login.xyz',
      'tinkoff-bonus.top',
      'аррӏе.com',
    ]);

    // Domains and IPs without a header: each column named by its kind, mapped by it.
    const two = await uploaded('pairs.csv', 'sber-bonus.ru;185.1.2.3\nалфа-банк.рф;185.1.2.4\n');
    expect(two.headers).toEqual(['Домен', 'IP-адрес']);
    expect(two.preview.mapping).toEqual(['domain', 'ip']);
  });

  it('the error report keeps a value with line breaks in its own cell', async () => {
    const csv = 'Домен;Регистратор\r\n"плохой\nдомен";A\r\n"ещё\rодин";B\r\n=cmd|x.ru;C\r\n';
    const { done } = await importAndWait(admin, csv, { name: 'переносы.csv' });
    expect(done).toMatchObject({ status: 'done', failed: 3 });
    const rep = await admin.get(`${BASE}/${done.id}/errors`);
    const rows = parse(rep.body.slice(1), { delimiter: ';' }) as string[][];
    expect(rows.slice(1).map((r) => [r[0], r[2]])).toEqual([
      ['2', 'плохой\nдомен'],
      ['3', 'ещё\rодин'],
      ['4', "'=cmd|x.ru"],
    ]);
    expect(rows.every((r) => r.length === 4)).toBe(true);
    // Excel ends a row at a bare LF or CR too: such values must be quoted.
    expect(rep.body).toContain('"плохой\nдомен"');
    expect(rep.body).toContain('"ещё\rодин"');
  });

  it('never duplicates: the same file again is skipped or updated, per the mode', async () => {
    const csv = 'Домен;Регистратор\nbeta-one.ru;A\nbeta-two.ru;A\nbeta-three.ru;A\n';
    const first = await importAndWait(admin, csv, { company: companyB });
    expect(first.done).toMatchObject({ status: 'done', created: 3 });
    const again = await importAndWait(admin, csv, { company: companyB, mode: 'skip' });
    expect(again.done).toMatchObject({ status: 'done', created: 0, skipped: 3, updated: 0 });
    const changed = await importAndWait(admin, csv.replaceAll(';A', ';B'), { company: companyB, mode: 'skip' });
    expect(changed.done).toMatchObject({ created: 0, skipped: 3, updated: 0 });
    const upd = await importAndWait(admin, csv.replaceAll(';A', ';B').replace('beta-three.ru;B', 'beta-three.ru;A'), {
      company: companyB,
      mode: 'update',
    });
    expect(upd.done).toMatchObject({ created: 0, updated: 2, skipped: 1 });
    const events = await domainsOf(admin, companyB);
    expect(events).toHaveLength(3);
    expect(events.map((e) => e.registrar)).toEqual(['B', 'B', 'A']);
    // The update is in each event's history.
    const h = await admin.get(`/modules/domains/events/${events[0]?.id}/history`);
    expect(
      h
        .json()
        .items.some(
          (x: { field: string; before: unknown; after: unknown }) =>
            x.field === 'registrar' && x.before === 'A' && x.after === 'B',
        ),
    ).toBe(true);
  });

  it('deleting an import removes the events it created and leaves the ones it only updated', async () => {
    const company = (await createCompany(ctx, 'Гамма')).id;
    const a = await importAndWait(admin, 'Домен;Регистратор\ngamma-1.ru;A\ngamma-2.ru;A\n', { company });
    const b = await importAndWait(admin, 'Домен;Регистратор\ngamma-2.ru;B\ngamma-3.ru;B\n', { company });
    expect(b.done).toMatchObject({ created: 1, updated: 1 });
    expect(await domainsOf(admin, company)).toHaveLength(3);

    expect((await admin.del(`${BASE}/${b.done.id}`)).statusCode).toBe(204);
    const left = await domainsOf(admin, company);
    expect(left.map((e) => [e.domain, e.registrar])).toEqual([
      ['gamma-1.ru', 'A'],
      ['gamma-2.ru', 'B'],
    ]);
    // Undone, it stays in the history as «Отменён» (its file goes); a second undo is refused.
    const undone = (await admin.get(`${BASE}/${b.done.id}`)).json() as ImportItem;
    expect(undone).toMatchObject({ status: 'undone', created: 1, errors_count: 0, doc_id: null });
    expect(undone.message).toBe('Отменён: созданные им записи удалены (1)');
    const listed = (await admin.get(`${BASE}?company_id=${company}`)).json() as { items: ImportItem[] };
    expect(listed.items.find((x) => x.id === b.done.id)?.status).toBe('undone');
    const again = await admin.del(`${BASE}/${b.done.id}`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Импорт уже отменён');
    const docGone = await admin.get(`/docs/${b.upload.doc_id}`);
    expect(docGone.statusCode).toBe(404);

    expect((await admin.del(`${BASE}/${a.done.id}`)).statusCode).toBe(204);
    expect(await domainsOf(admin, company)).toHaveLength(0);
  });

  it('reads Windows-1251 files', async () => {
    const company = (await createCompany(ctx, 'Дельта')).id;
    const csv = iconv.encode(
      'Домен;Регистратор;Заголовок страницы\nдельта-банк.рф;Регистратор «Рога и копыта»;Вход в личный кабинет\n',
      'win1251',
    );
    const { upload: u, done } = await importAndWait(admin, csv, { company });
    expect(u.encoding).toBe('windows-1251');
    expect(u.headers).toEqual(['Домен', 'Регистратор', 'Заголовок страницы']);
    expect(done).toMatchObject({ status: 'done', created: 1 });
    const [e] = await domainsOf(admin, company);
    expect(e).toMatchObject({
      domain: 'дельта-банк.рф',
      registrar: 'Регистратор «Рога и копыта»',
      page_title: 'Вход в личный кабинет',
    });
  });
});

describe('formats and modules', () => {
  it('imports an XLSX workbook through the job', async () => {
    const ExcelJS = (await import('exceljs')).default;
    const company = (await createCompany(ctx, 'Эпсилон')).id;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Лист1');
    ws.addRow(['Домен', 'Схожесть', 'Дата регистрации', 'Приоритет', 'Обнаружено']);
    for (let i = 1; i <= 30; i++)
      ws.addRow([`xlsx-${i}.ru`, 50 + i, new Date(Date.UTC(2026, 0, i)), i % 2 ? 'Высокий' : 'low', '01.02.2026 10:30']);
    ws.addRow(['bad domain', 10, null, null, null]);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const { done } = await importAndWait(admin, buf, { name: 'домены.xlsx', company });
    expect(done).toMatchObject({ status: 'done', rows_total: 31, created: 30, failed: 1 });
    const events = await domainsOf(admin, company);
    expect(events).toHaveLength(30);
    const first = events.find((e) => e.domain === 'xlsx-1.ru');
    expect(first).toMatchObject({ similarity: 51, registered_at: '2026-01-01', detected_at: '2026-02-01T07:30:00.000Z' });
    const prio = (await admin.get('/modules/domains/events/priorities')).json().items as { id: number; code: string }[];
    expect(first?.priority_id).toBe(prio.find((p) => p.code === 'high')?.id);
  });

  it('stores card numbers sealed and shows them masked', async () => {
    const company = (await createCompany(ctx, 'Карты')).id;
    const csv =
      'Номер карты;Держатель;Банк\n4276 0000 0000 0017;IVAN PETROV;Сбербанк\n2202 2000 0000 0024;ANNA;ВТБ\n1234 5678 9012 3456;X;Y\n';
    const up = await upload(ctx, admin, '/modules/acquiring/events/imports', { name: 'cards.csv', content: csv });
    expect(up.statusCode, up.body).toBe(201);
    const u = up.json() as ImportUploadResponse;
    expect(u.preview.rows[2]?.cells[0]?.error).toBe('Неверный формат номера карты');
    await admin.post(`/modules/acquiring/events/imports/${u.id}/start`, {
      mapping: u.preview.mapping,
      mode: 'update',
      company_id: company,
    });
    const done = await waitFor<ImportItem>(admin, `/modules/acquiring/events/imports/${u.id}`, finished);
    expect(done).toMatchObject({ status: 'done', created: 2, failed: 1 });
    const list = (await admin.get(`/modules/acquiring/events?company_id=${company}`)).json().items as Record<string, unknown>[];
    expect(list.map((e) => e.card_number).sort()).toEqual(['2202 **** **** 0024', '4276 **** **** 0017']);
    const raw = await ctx.database.pool.query("SELECT data::text AS d FROM events WHERE module = 'acquiring'");
    expect(raw.rows.some((r) => /4276000000000017|2202200000000024/.test(r.d))).toBe(false);
  });

  it('imports the leaks catalogue (dedup by name, undo)', async () => {
    const CAT = '/modules/leaks/imports';
    const csv =
      'Название;Тип;Дата утечки;Количество записей;Источник\nБаза «Ромашка»;Дамп базы данных;10.01.2026;1 500;https://leak.example/1\nКомбо 2026;combolist;;;\nБаза «Ромашка»;;;2000;\n;;;;\n';
    const up = await upload(ctx, admin, CAT, { name: 'leaks.csv', content: csv });
    expect(up.statusCode, up.body).toBe(201);
    const u = up.json() as ImportUploadResponse;
    expect(u.module).toBe('leaks_catalogue');
    expect(u.preview.mapping).toEqual(['name', 'leak_type_id', 'leaked_at', 'records_count', 'source_url']);
    expect((await admin.post(`${CAT}/${u.id}/start`, { mapping: u.preview.mapping, mode: 'update' })).statusCode).toBe(202);
    const done = await waitFor<ImportItem>(admin, `${CAT}/${u.id}`, finished);
    expect(done).toMatchObject({ status: 'done', created: 2, updated: 1, failed: 0, rows_total: 3 });
    const leaks = (await admin.get('/modules/leaks?q=Ромашка')).json().items as Record<string, unknown>[];
    expect(leaks).toHaveLength(1);
    expect(leaks[0]).toMatchObject({
      name: 'База «Ромашка»',
      leaked_at: '2026-01-10',
      records_count: 2000,
      source_url: 'https://leak.example/1',
    });
    expect((await admin.get(`${CAT}`)).json().items.map((i: ImportItem) => i.id)).toContain(u.id);
    expect((await admin.del(`${CAT}/${u.id}`)).statusCode).toBe(204);
    expect((await admin.get('/modules/leaks?q=Ромашка')).json().items).toHaveLength(0);
  });
});

describe('access', () => {
  it('a company user imports only into their companies and sees only their imports', async () => {
    const alice = await signedIn(ctx, 'alice@alfa.test', 'COMPANY_USER', [{ id: companyA, role: 'COMPANY_ANALYST' }]);
    const up = await upload(ctx, alice, BASE, {
      name: 'a.csv',
      content: 'Домен;Компания\nalice-1.ru;\nalice-2.ru;Бета\nalice-3.ru;Альфа\n',
    });
    expect(up.statusCode, up.body).toBe(201);
    const u = up.json() as ImportUploadResponse;
    expect(u.preview.rows[1]?.cells[1]?.error).toBe('Компания не найдена или недоступна');
    const other = await alice.post(`${BASE}/${u.id}/start`, { mapping: u.preview.mapping, mode: 'update', company_id: companyB });
    expect(other.statusCode).toBe(404);
    const st = await alice.post(`${BASE}/${u.id}/start`, { mapping: u.preview.mapping, mode: 'update' });
    expect(st.statusCode, st.body).toBe(202);
    expect(st.json().company_id).toBe(companyA);
    const done = await waitFor<ImportItem>(alice, `${BASE}/${u.id}`, finished);
    expect(done).toMatchObject({ status: 'done', created: 2, failed: 1 });
    expect((await domainsOf(admin, companyB)).some((e) => String(e.domain).startsWith('alice'))).toBe(false);

    const list = (await alice.get(BASE)).json().items as ImportItem[];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((i) => i.company_id === companyA)).toBe(true);
    const bImport = (await admin.get(`${BASE}?company_id=${companyB}`)).json().items[0] as ImportItem;
    expect((await alice.get(`${BASE}/${bImport.id}`)).statusCode).toBe(404);
    expect((await alice.del(`${BASE}/${bImport.id}`)).statusCode).toBe(404);
    expect((await alice.get(`${BASE}/${bImport.id}/errors`)).statusCode).toBe(404);
  });

  it('refuses a company that has not enabled the module, at start and row by row', async () => {
    const only = (await createCompany(ctx, 'Только бренды')).id;
    await ctx.database.pool.query(`UPDATE companies SET modules = '{brand}' WHERE id = $1`, [only]);
    const up = await upload(ctx, admin, BASE, {
      name: 'm.csv',
      content: 'Домен;Компания\nmod-1.ru;Только бренды\nmod-2.ru;Альфа\n',
    });
    const u = up.json() as ImportUploadResponse;
    expect(u.preview.rows[0]?.cells[1]?.error).toBe('Этот модуль не подключён для компании');
    expect(u.preview.rows[1]?.cells.every((c) => !c.error)).toBe(true);
    const refused = await admin.post(`${BASE}/${u.id}/start`, { mapping: u.preview.mapping, mode: 'update', company_id: only });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Этот модуль не подключён для компании');
    expect(
      (await admin.post(`${BASE}/${u.id}/start`, { mapping: u.preview.mapping, mode: 'update', company_id: companyA }))
        .statusCode,
    ).toBe(202);
    const done = await waitFor<ImportItem>(admin, `${BASE}/${u.id}`, finished);
    expect(done).toMatchObject({ status: 'done', created: 1, failed: 1 });
  });

  it('viewers cannot import; the leaks catalogue needs settings rights', async () => {
    const viewer = await signedIn(ctx, 'viewer@forpost.test', 'VIEWER');
    expect((await upload(ctx, viewer, BASE, { name: 'a.csv', content: 'Домен\na.ru\n' })).statusCode).toBe(403);
    const analyst = await signedIn(ctx, 'cv@alfa.test', 'COMPANY_USER', [{ id: companyA, role: 'COMPANY_ANALYST' }]);
    expect((await upload(ctx, analyst, '/modules/leaks/imports', { name: 'a.csv', content: 'Название\nx\n' })).statusCode).toBe(
      403,
    );
  });

  it('an API key limited to one module cannot import into another', async () => {
    const key = (
      await admin.post('/apikeys', {
        name: 'Только домены',
        company_id: companyA,
        roles: [{ module: 'domains', access: 'write' }],
      })
    ).json();
    const { payload, contentType } = (await import('./imports-kit')).multipart({}, { name: 'a.csv', content: 'Бренд\nx\n' });
    const r = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/modules/brand/events/imports',
      headers: { authorization: `Bearer ${key.secret}`, 'content-type': contentType },
      payload,
    });
    expect(r.statusCode).toBe(403);
  });
});
