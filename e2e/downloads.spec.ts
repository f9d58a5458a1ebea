import { readFileSync } from 'node:fs';
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, adminApi, columnValues, login, ok, parseDownloadedCsv } from './helpers';

/*
 * File downloads with an expired access session. A download is a plain link, which bypasses the
 * console's http client: the browser would save the API's JSON 401 body as the «file». The click
 * first makes sure the session is valid through the http client (one shared refresh), then starts
 * the browser's download — so the file saved is the real CSV / PDF. Without any session the click
 * leads to the login page instead of a download.
 */

const stamp = Date.now().toString(36);
const salt = Math.random().toString(36).slice(2, 8);
const DOMAINS = [`dl-one-${salt}.ru`, `dl-two-${salt}.ru`, `dl-three-${salt}.ru`];

let companyId: number;
let exportId: number;
let reportId: number;

/** Polls GET `path` until its `status` is `done`; fails on `failed`. */
async function waitReady(api: APIRequestContext, path: string, done: string) {
  await expect
    .poll(
      async () => {
        const item = await ok<{ status: string; message?: string | null }>(await api.get(path), path);
        if (item.status === 'failed') throw new Error(`${path}: ${item.message}`);
        return item.status;
      },
      { timeout: 60_000 },
    )
    .toBe(done);
}

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(120_000);
  const api = await adminApi(baseURL);
  companyId = (
    await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Скачивание ${stamp}` } }), 'company')
  ).id;
  for (const domain of DOMAINS)
    await ok(await api.post('/api/v1/modules/domains/events', { data: { company_id: companyId, domain } }), 'domain');

  // An export of this company's domains (owned by the admin: it shows in the admin's «Мои экспорты»).
  const fields = await ok<{ items: { module: string; fields: { key: string; default: boolean }[] }[] }>(
    await api.get('/api/v1/modules/exports/fields', { params: { module: 'domains' } }),
    'fields',
  );
  const keys = (fields.items.find((m) => m.module === 'domains')?.fields ?? []).filter((f) => f.default).map((f) => f.key);
  exportId = (
    await ok<{ id: number }>(
      await api.post('/api/v1/modules/exports', {
        data: { module: 'domains', format: 'csv', fields: keys, filters: { company_id: companyId } },
      }),
      'export',
    )
  ).id;

  // A PDF report of the company for the last week.
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const to = new Date();
  const from = new Date(to.getTime() - 6 * 86_400_000);
  reportId = (
    await ok<{ id: number }>(
      await api.post('/api/v1/tools/reports', { data: { company_id: companyId, from: day(from), to: day(to) } }),
      'report',
    )
  ).id;

  await waitReady(api, `/api/v1/modules/exports/${exportId}`, 'done');
  await waitReady(api, `/api/v1/tools/reports/${reportId}`, 'ready');
  await api.dispose();
});

/** The «Скачать» link of this spec's export in «Мои экспорты» (other specs may add exports of their own). */
const exportLink = (page: Page) =>
  page.getByTestId('exports-table').locator(`a[data-testid="export-download"][href$="/exports/${exportId}/download"]`);

const cookieNames = async (context: BrowserContext) => (await context.cookies()).map((c) => c.name);

/** Drops the access cookie (as if it expired) and checks that a plain request would now get the JSON 401. */
async function expireAccess(page: Page, context: BrowserContext, url: string) {
  expect(await cookieNames(context)).toEqual(expect.arrayContaining(['fp_access', 'fp_refresh']));
  await context.clearCookies({ name: 'fp_access' });
  expect(await cookieNames(context)).not.toContain('fp_access');
  // What a plain link would save: the API's error body, not the file.
  const direct = await page.request.get(url);
  expect(direct.status()).toBe(401);
  expect((await direct.json()).statusCode).toBe(401);
}

/** Records the status of every POST /auth/refresh of the page. */
function watchRefreshes(page: Page): number[] {
  const refreshes: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/api/v1/auth/refresh') && r.request().method() === 'POST') refreshes.push(r.status());
  });
  return refreshes;
}

test('an export is downloaded as the real CSV when the access session has expired', async ({ page, context }) => {
  await login(page, '/exports');
  const link = exportLink(page);
  // Still a link named «Скачать» (the icon adds «download»), pointing at the file.
  await expect(link).toHaveRole('link');
  await expect(link).toHaveAccessibleName('download Скачать');
  await expect(link).toHaveAttribute('href', `/api/v1/modules/exports/${exportId}/download`);

  await expireAccess(page, context, `/api/v1/modules/exports/${exportId}/download`);
  const refreshes = watchRefreshes(page);
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const csv = readFileSync((await file.path()) as string, 'utf8');
  expect(csv).not.toContain('statusCode');
  expect(csv.startsWith('\ufeff')).toBe(true);
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const rows = parseDownloadedCsv(csv);
  const header = rows[0] ?? [];
  expect(header).toContain('Домен');
  expect(columnValues(rows, 'Домен')).toEqual([...DOMAINS].sort());
  // Healed by exactly one refresh, without an error toast, still on the page.
  expect(refreshes).toEqual([200]);
  expect(await cookieNames(context)).toContain('fp_access');
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await expect(page).toHaveURL((url) => url.pathname === '/exports');
});

test('a report is downloaded as the real PDF when the access session has expired', async ({ page, context }) => {
  await login(page, `/reports?companyId=${companyId}`);
  const link = page.getByTestId(`report-download-${reportId}`);
  await expect(link).toHaveRole('link');
  await expect(link).toHaveAccessibleName('Скачать');
  const href = (await link.getAttribute('href')) as string;
  expect(href).toBe(`/api/v1/tools/reports/${reportId}/download`);

  await expireAccess(page, context, href);
  const refreshes = watchRefreshes(page);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const pdf = readFileSync((await download.path()) as string);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf.length).toBeGreaterThan(10_000);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  expect(refreshes).toEqual([200]);
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
});

test('without any session a download click leads to the login page, not to a saved error', async ({ page, context }) => {
  await login(page, '/exports');
  const link = exportLink(page);
  await expect(link).toBeVisible();
  await context.clearCookies({ name: 'fp_access' });
  await context.clearCookies({ name: 'fp_refresh' });

  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  const refreshes = watchRefreshes(page);
  await link.click();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fexports$/);
  await expect(page.getByText('Вход в консоль')).toBeVisible();
  // The refresh was tried and refused (the login page probes the session once more).
  expect(refreshes.length).toBeGreaterThan(0);
  expect(refreshes).not.toContain(200);
  expect(downloads).toEqual([]);

  // Signing in again brings the user back to the list, where the file downloads.
  await page.getByLabel('Email').fill(ADMIN_EMAIL);
  await page.getByLabel('Пароль', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/exports');
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(readFileSync((await file.path()) as string, 'utf8').startsWith('\ufeff')).toBe(true);
});
