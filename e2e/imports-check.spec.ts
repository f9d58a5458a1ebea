import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { unicodeToPunycode } from '@forpost/contract/helpers';
import { expect, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Issue 16, imports: the mapping step checks the WHOLE file (not the first 20 rows) and shows the
 * errors by reason; a `company` column that fails most rows is named at the top with a one-click
 * «Не загружать этот столбец». A mixed-script domain is marked in the list; every Unicode domain
 * shows its punycode on hover. Screenshots go to
 * .tmp/shots/imports at 1280 and 1920 px.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/imports');
const stamp = Date.now().toString(36);
const COMPANY = `E2E Проверка ${stamp}`;
const MIXED = `ex\u0430mple-${stamp}.com`; // Cyrillic «а» among Latin letters
// One script per label (digits have none; the Latin stamp would make it mixed): no mark, still punycode on hover.
const CYRILLIC = `пример-${Date.now()}.рф`;
// Wholly Cyrillic letters that pass for Latin ones under .com: reads «apple-….com» (no script is mixed).
const LOOKALIKE_NO = Date.now();
const LOOKALIKE = `\u0430\u0440\u0440\u04cf\u0435-${LOOKALIKE_NO}.com`;
let companyId: number;

test.beforeAll(async ({ baseURL }) => {
  mkdirSync(SHOTS, { recursive: true });
  const api = await adminApi(baseURL);
  companyId = (await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: COMPANY } }), 'company')).id;
  for (const domain of [MIXED, CYRILLIC, LOOKALIKE])
    await ok(await api.post('/api/v1/modules/domains/events', { data: { company_id: companyId, domain } }), 'event');
  await api.dispose();
});

// 30 rows: the `company` column names the attacked brand (only row 4 names the client); row 27 has
// a bad domain — past the 20 rows the sample shows.
const CSV = [
  'domain,company,url',
  ...Array.from({ length: 30 }, (_, i) => {
    const n = i + 1;
    const domain = n === 26 ? 'это не домен' : `chk-${stamp}-${n}.com`;
    return `${domain},${n === 3 ? COMPANY : 'Sberbank'},https://chk-${stamp}-${n}.com/login`;
  }),
].join('\n');

test('the mapping step checks the whole file and proposes to leave out a column failing most rows', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, '/domains/import');
  await page.getByTestId('import-company').click();
  await page.locator('.ant-select-item-option', { hasText: COMPANY }).click();
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'feed.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV, 'utf8') });

  await expect(page.getByTestId('import-mapping')).toBeVisible();
  const verdict = page.getByTestId('check-verdict');
  await expect(verdict).toHaveText('Импорт отклонит 29 из 30 строк (ошибок: 30)');
  const warning = page.getByTestId('check-warning');
  await expect(warning).toHaveCount(1);
  await expect(warning).toContainText(
    'Столбец «company» (поле «Компания») не проходит проверку в 29 из 30 строк: Компания не найдена или недоступна',
  );
  await expect(page.getByTestId('check-reasons')).toContainText('Неверный формат домена');
  await page.screenshot({ path: path.join(SHOTS, 'check-warning-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: path.join(SHOTS, 'check-warning-1920.png'), fullPage: true });

  // One click: the column is no longer mapped; the whole file is checked again.
  await page.getByTestId('check-unmap').click();
  await expect(page.getByTestId('preview-table').locator('th', { hasText: 'company' })).toContainText('не импортируется');
  await expect(page.getByTestId('check-warning')).toHaveCount(0);
  await expect(verdict).toHaveText('Импорт отклонит 1 из 30 строк (ошибок: 1)');
  // The sample is clean, the bad row past it: its line speaks of the first 20 rows only, never of the file.
  await expect(page.getByTestId('preview-summary')).toHaveText('Первые 20 строк: ошибок нет');
  const reasons = page.getByTestId('check-reasons');
  await expect(reasons).toContainText('Неверный формат домена');
  await expect(reasons).toContainText('27: это не домен');
  await page.screenshot({ path: path.join(SHOTS, 'check-unmapped-1920.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(SHOTS, 'check-unmapped-1280.png'), fullPage: true });
});

test('a mixed-script domain and a Latin lookalike are marked in the list; every Unicode domain shows its punycode on hover', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, '/domains');
  await page.goto(`/domains?companyId=${companyId}`);
  const tag = page.getByTestId('mixed-script').first();
  await expect(tag).toHaveText('Смешанные алфавиты');
  await tag.hover();
  await expect(page.getByRole('tooltip').filter({ visible: true })).toContainText('xn--');
  await page.screenshot({ path: path.join(SHOTS, 'mixed-script-1280.png') });
  // The mouse leaves: that tooltip closes (it would cover the next row).
  await page.mouse.move(0, 0);
  await expect(page.getByRole('tooltip').filter({ visible: true })).toHaveCount(0);

  // A one-script Cyrillic host: no mark, but its registered (ASCII) name is on hover too.
  const row = page.locator('tr.ant-table-row', { hasText: CYRILLIC });
  await expect(row.getByTestId('mixed-script')).toHaveCount(0);
  await row.getByTestId('idn-host').hover();
  await expect(page.getByRole('tooltip').filter({ visible: true })).toHaveText(`Punycode: ${unicodeToPunycode(CYRILLIC)}`);
  await page.screenshot({ path: path.join(SHOTS, 'idn-hover-1280.png') });
  await page.mouse.move(0, 0);

  // «аррӏе-….com»: one script, but every letter passes for a Latin one — marked, with the name it reads as.
  const lookalike = page.locator('tr.ant-table-row', { hasText: LOOKALIKE }).getByTestId('latin-lookalike');
  await expect(lookalike).toHaveText('Похоже на латиницу');
  await lookalike.hover();
  // (the mouse crossed other hosts on its way: their hover may still be closing — this one is found by its text)
  await expect(page.getByRole('tooltip').filter({ visible: true, hasText: 'читается как' })).toContainText(
    `читается как apple-${LOOKALIKE_NO}.com`,
  );
  await page.screenshot({ path: path.join(SHOTS, 'latin-lookalike-1280.png') });
});

test('a bare list of URLs (a threat feed without a header) imports with each domain taken from its URL', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await login(page, '/domains/import');
  await page.getByTestId('import-company').click();
  await page.locator('.ant-select-item-option', { hasText: COMPANY }).click();
  const urls = [`https://feed-${stamp}-1.xyz/login`, `http://feed-${stamp}-2.top/auth/index.php`, 'http://185.203.116.44/pay'];
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'openphish.txt', mimeType: 'text/plain', buffer: Buffer.from(urls.join('\n'), 'utf8') });

  await expect(page.getByTestId('import-mapping')).toBeVisible();
  // A made-up «URL» header, mapped by itself; nothing asks for a domain column.
  await expect(page.getByTestId('preview-table').locator('th')).toContainText(['URL']);
  const notes = page.getByTestId('mapping-note');
  await expect(notes).toContainText([
    'В файле нет строки заголовков: столбцы названы по содержимому, первая строка — данные',
    'Поле «Домен» берётся из поля «URL»: своего столбца у него нет',
  ]);
  await expect(page.getByTestId('check-verdict')).toHaveText('Ошибок нет: проверены все строки файла (3)');
  await page.screenshot({ path: path.join(SHOTS, 'url-feed-mapping-1280.png'), fullPage: true });
  await page.getByTestId('import-start').click();
  const progress = page.getByTestId('import-progress');
  await expect(progress.getByTestId('import-status')).toHaveText('Завершён', { timeout: 60_000 });
  await expect(page.getByTestId('stat-created')).toContainText('3');

  await page.goto(`/domains?companyId=${companyId}&q=${encodeURIComponent(`feed-${stamp}-1.xyz`)}`);
  await expect(page.locator('tr.ant-table-row', { hasText: `feed-${stamp}-1.xyz` })).toHaveCount(1);
});
