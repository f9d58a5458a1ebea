/*
 * The malicious / broken file corpus, generated here: every file is refused with a clear Russian
 * message and leaves nothing behind (no import, no doc, no stored bytes).
 */
import { readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ImportUploadResponse } from '@forpost/contract/imports';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, Client, createCompany, createUser, ORIGIN, setupApp, type TestContext } from './helpers';
import { upload, xlsxOf, zip } from './imports-kit';

let ctx: TestContext;
let admin: Client;
const BASE = '/modules/domains/events/imports';

async function refused(name: string, content: Buffer | string, status = 400) {
  const before = await counts();
  const r = await upload(ctx, admin, BASE, { name, content });
  expect(r.statusCode, r.body).toBe(status);
  expect(await counts()).toEqual(before);
  return r.json().message as string;
}

async function counts() {
  const q = async (t: string) => Number((await ctx.database.pool.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
  const files = (dir: string): number => {
    try {
      return readdirSync(dir, { withFileTypes: true }).reduce(
        (n, e) => n + (e.isDirectory() ? files(path.join(dir, e.name)) : 1),
        0,
      );
    } catch {
      return 0;
    }
  };
  return {
    imports: await q('imports'),
    docs: await q('docs'),
    files: files(path.join(ctx.config.dataDir, 'files')),
    tmp: files(path.join(ctx.config.dataDir, 'tmp')),
  };
}

beforeAll(async () => {
  ctx = await setupApp();
  await createUser(ctx, { email: ADMIN.email });
  admin = new Client(ctx);
  await admin.login(ADMIN.email, ADMIN.password);
  await createCompany(ctx, 'Альфа');
});

describe('wrong file type', () => {
  it('refuses an unknown extension, an old .xls, a renamed file and a binary «CSV»', async () => {
    expect(await refused('report.pdf', '%PDF-1.7 ...')).toBe('Поддерживаются файлы CSV и XLSX');
    expect(await refused('old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toMatch(
      /\.xls\) не поддерживается/,
    );
    expect(await refused('fake.xlsx', 'Домен\nexample.com\n')).toBe(
      'Файл не является книгой Excel (.xlsx): содержимое не совпадает с расширением',
    );
    expect(await refused('fake.csv', Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(100, 7)]))).toBe(
      'Файл не похож на текстовый CSV: содержимое не совпадает с расширением',
    );
    expect(await refused('zip.csv', zip([{ name: 'a.txt', data: 'x' }]))).toMatch(/не похож на текстовый CSV/);
    expect(await refused('bin.csv', Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 7) % 32)))).toMatch(
      /не похож на текстовый CSV/,
    );
  });

  it('refuses an empty file, a header without data, a file without a header', async () => {
    expect(await refused('empty.csv', '')).toBe('Файл пустой');
    expect(await refused('bom.csv', '\ufeff')).toBe('Файл пустой');
    expect(await refused('blank.csv', '\n\n  \n')).toBe('Файл пустой');
    expect(await refused('header.csv', 'Домен;Регистратор\r\n')).toBe('В файле только строка заголовков — нет строк с данными');
    expect(await refused('header-blank-rows.csv', 'Домен;Регистратор\n;\n;;\n')).toBe(
      'В файле только строка заголовков — нет строк с данными',
    );
    expect(await refused('header.xlsx', xlsxOf([['Домен', 'IP']]))).toBe(
      'В файле только строка заголовков — нет строк с данными',
    );
    expect(await refused('nothing.xlsx', xlsxOf([]))).toBe('В файле нет строки заголовков');
  });
});

describe('encodings', () => {
  it('refuses text that is neither UTF-8 nor Windows-1251, and UTF-16 without a BOM', async () => {
    // Bytes of the 0x80–0xBF range: symbols in Windows-1251, never Russian text.
    const junk = Buffer.concat([
      Buffer.from('Домен;X\n', 'utf8').subarray(0, 0),
      Buffer.from('Domain;X\n'),
      Buffer.from([0x81, 0x83, 0x8a, 0x8c, 0x8e, 0x9a, 0x9c, 0x9e, 0xa1, 0xa2, 0xa4, 0xa6, 0x0a]),
    ]);
    expect(await refused('junk.csv', junk)).toBe(
      'Не удалось определить кодировку файла — сохраните его в UTF-8 или Windows-1251',
    );
    const utf16 = Buffer.from('Домен;IP\nexample.com;1.1.1.1\n', 'utf16le');
    expect(await refused('utf16.csv', utf16)).toBe(
      'Не удалось определить кодировку файла — сохраните его в UTF-8 или Windows-1251',
    );
  });

  it('accepts UTF-16 with a BOM (Excel «Unicode text») and UTF-8 without one', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Домен\tIP-адрес\nпример.рф\t1.1.1.1\n', 'utf16le')]);
    const r = await upload(ctx, admin, BASE, { name: 'unicode.txt', content: utf16 });
    expect(r.statusCode, r.body).toBe(201);
    expect(r.json()).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', headers: ['Домен', 'IP-адрес'] });
    const plain = await upload(ctx, admin, BASE, { name: 'plain.csv', content: 'Домен,IP-адрес\nпример.рф,1.1.1.1\n' });
    expect(plain.json()).toMatchObject({ encoding: 'utf-8', delimiter: ',' });
  });
});

describe('CSV structure', () => {
  it('a broken quote is reported with its row before anything is imported', async () => {
    // The upload only reads the first rows; the rest is checked by the job before its first batch (imports-retry.test.ts).
    expect(await refused('quote.csv', 'Домен;Регистратор\n"example.com;REG\n')).toMatch(
      /^Ошибка в структуре CSV в строке 2: не закрыта кавычка/,
    );
  });

  it('headers like __proto__ or constructor are plain column names', async () => {
    const r = await upload(ctx, admin, BASE, {
      name: 'proto.csv',
      content: '__proto__;constructor;Домен;prototype\n{"polluted":1};x;example.com;y\n',
    });
    expect(r.statusCode, r.body).toBe(201);
    const b = r.json() as ImportUploadResponse;
    expect(b.headers).toEqual(['__proto__', 'constructor', 'Домен', 'prototype']);
    expect(b.preview.mapping).toEqual([null, null, 'domain', null]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const p = await admin.post(`${BASE}/${b.id}/preview`, { mapping: ['__proto__', 'constructor', 'domain', null] });
    expect(p.statusCode).toBe(200);
    expect(p.json().mapping_errors).toContain('Неизвестное поле');
    const s = await admin.post(`${BASE}/${b.id}/start`, { mapping: ['__proto__', null, 'domain', null], mode: 'update' });
    expect(s.statusCode).toBe(400);
    expect(s.json().message).toBe('Неизвестное поле');
  });
});

describe('XLSX archives', () => {
  it('refuses a zip whose central directory declares more than 1 GB uncompressed, before inflating anything', async () => {
    const bomb = xlsxOf([['Домен'], ['example.com']], {
      extra: [{ name: 'xl/media/huge.bin', data: 'x', declaredSize: 0xfffffff0 }],
    });
    expect(await refused('bomb.xlsx', bomb)).toBe('Файл XLSX отклонён: после распаковки он слишком велик (возможна «zip-бомба»)');
  });

  it('refuses an entry that inflates more than 200 times', async () => {
    const bomb = xlsxOf([['Домен'], ['example.com']], {
      extra: [{ name: 'xl/media/zeros.bin', data: Buffer.alloc(64 * 1024 * 1024) }],
    });
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(await refused('ratio.xlsx', bomb)).toMatch(/zip-бомба/);
  });

  it('refuses a part that inflates to more than its directory entry says', async () => {
    const liar = xlsxOf([], {
      sheetXml: `<worksheet><sheetData>${'<row r="1"/>'.repeat(50_000)}</sheetData></worksheet>`,
      extra: [],
    });
    // Rewrite the sheet's declared size (central directory and local header) to 100 bytes.
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    let at = liar.indexOf(name);
    while (at !== -1) {
      const sig = liar.readUInt32LE(at - 30) === 0x04034b50 ? at - 30 : at - 46;
      liar.writeUInt32LE(100, sig + (sig === at - 30 ? 22 : 24));
      at = liar.indexOf(name, at + 1);
    }
    expect(await refused('liar.xlsx', liar)).toBe('Файл XLSX повреждён: не удалось прочитать архив');
  });

  it('refuses more than 10 000 entries', async () => {
    const many = xlsxOf([['Домен'], ['example.com']], {
      extra: Array.from({ length: 10_001 }, (_, i) => ({ name: `xl/junk/${i}.txt`, data: '', store: true })),
    });
    expect(await refused('many.xlsx', many)).toBe('Файл XLSX отклонён: в архиве более 10\u00a0000 файлов');
  });

  it('refuses XML with a DOCTYPE or entities (XXE, billion laughs), wherever it is', async () => {
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&x;</t></is></c></row></sheetData></worksheet>`;
    expect(await refused('xxe.xlsx', xlsxOf([], { sheetXml: xxe }))).toBe(
      'Файл XLSX отклонён: содержит объявления DOCTYPE или внешние сущности XML',
    );
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&lol2;</t></si></sst>`;
    expect(await refused('laughs.xlsx', xlsxOf([['Домен'], ['a.ru']], { sharedStringsXml: laughs }))).toMatch(/DOCTYPE/);
    const hidden = xlsxOf([['Домен'], ['a.ru']], {
      extra: [{ name: 'docProps/custom.xml', data: '<?xml version="1.0"?>\n<!doctype x SYSTEM "http://evil/x.dtd"><x/>' }],
    });
    expect(await refused('hidden.xlsx', hidden)).toMatch(/DOCTYPE/);
  });

  it('refuses a million shared strings', async () => {
    const sst = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1000000" uniqueCount="1000000">${Array.from(
      { length: 1_000_000 },
      (_, i) => `<si><t>${i}</t></si>`,
    ).join('')}</sst>`;
    expect(await refused('strings.xlsx', xlsxOf([['Домен'], ['a.ru']], { sharedStringsXml: sst }))).toBe(
      'Файл XLSX отклонён: более 500\u00a0000 уникальных строк — разделите файл или сохраните его как CSV',
    );
  });

  it('reads a real workbook (exceljs): shared strings, numbers, dates, formulas by their cached result', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Домены');
    ws.addRow(['Домен', 'Схожесть, %', 'Дата регистрации', 'Регистратор']);
    ws.addRow(['xlsx-one.ru', 87, new Date(Date.UTC(2026, 2, 1)), { formula: 'UPPER("reg.ru")', result: 'REG.RU' }]);
    ws.addRow(['=cmd|calc', 'x', 'завтра', '']);
    const buf = Buffer.from(await wb.xlsx.writeBuffer());
    const r = await upload(ctx, admin, BASE, { name: 'книга.xlsx', content: buf });
    expect(r.statusCode, r.body).toBe(201);
    const b = r.json() as ImportUploadResponse;
    expect(b).toMatchObject({
      format: 'xlsx',
      encoding: null,
      delimiter: null,
      headers: ['Домен', 'Схожесть, %', 'Дата регистрации', 'Регистратор'],
    });
    expect(b.preview.rows[0]?.cells.map((c) => c.value)).toEqual(['xlsx-one.ru', '87', '2026-03-01', 'REG.RU']);
    expect(b.preview.rows[0]?.cells.every((c) => !c.error)).toBe(true);
    expect(b.preview.rows[1]?.cells.map((c) => Boolean(c.error))).toEqual([true, true, true, false]);
  });
});

describe('size limit', () => {
  it('a multi-gigabyte upload is refused at the configured limit while it streams', async () => {
    const set = await admin.post('/configs', { key: 'import_file_max_mb', value: 1 });
    expect([200, 201]).toContain(set.statusCode);
    expect(await refused('big.csv', `Домен\n${'a'.repeat(1024 * 1024 + 10)}\n`, 413)).toBe('Файл слишком большой: не более 1 МБ');

    // Over a real socket: the client offers 2 GB; the server answers 413 after about 1 MB and hangs up.
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as AddressInfo).port;
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const boundary = '----forpostbig';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nДомен\n`,
    );
    const chunk = Buffer.from('example-domain-name.ru\n'.repeat(2800)); // ~64 KB
    const total = 2 * 1024 * 1024 * 1024;
    const rssBefore = process.memoryUsage().rss;
    const result = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered: { status: number; body: string } | undefined;
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v1${BASE}`,
        headers: {
          cookie,
          origin: ORIGIN,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(total),
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => {
          answered = { status: res.statusCode ?? 0, body };
          resolve({ ...answered, sent });
        });
      });
      req.on('error', (e) => (answered ? resolve({ ...answered, sent }) : reject(e)));
      const pump = () => {
        while (!answered && sent < total) {
          const ok = req.write(sent === 0 ? head : chunk);
          sent += sent === 0 ? head.length : chunk.length;
          if (!ok) return void req.once('drain', pump);
        }
      };
      pump();
    });
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body).message).toBe('Файл слишком большой: не более 1 МБ');
    expect(result.sent).toBeLessThan(64 * 1024 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(await counts()).toMatchObject({ tmp: 0 });
  });
});
