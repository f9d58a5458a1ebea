import { readFileSync } from 'node:fs';
import { expect, request, test } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, login } from './helpers';

/*
 * STIX 2.1 out of the console (#33): «Экспорт» ▾ «Выгрузить в STIX 2.1» on the domains list, the file
 * from «Мои экспорты» parsed as a bundle; the card's «STIX 2.1» downloads the event's bundle.
 */

const stamp = Date.now().toString(36);
const DOMAIN = `stix-${stamp}.example`;
let companyId: number;
let eventId: number;

test.beforeAll(async ({ baseURL }) => {
  const origin = new URL(baseURL as string).origin;
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: origin } });
  expect((await api.post('/api/v1/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).ok()).toBe(true);
  const c = await api.post('/api/v1/companies', { data: { name: `E2E STIX ${stamp}` } });
  expect(c.ok(), await c.text()).toBe(true);
  companyId = (await c.json()).id;
  const e = await api.post('/api/v1/modules/domains/events', {
    data: { company_id: companyId, title: `Фишинг ${DOMAIN}`, domain: DOMAIN },
  });
  expect(e.ok(), await e.text()).toBe(true);
  eventId = (await e.json()).id;
  await api.dispose();
});

type Bundle = { type: string; id: string; objects: { type: string; id: string; pattern?: string }[] };

test('«Выгрузить в STIX 2.1» gives a bundle through «Мои экспорты»; the card gives the event’s bundle', async ({ page }) => {
  await login(page);
  await page.goto(`/domains?companyId=${companyId}`);
  await expect(page.getByTestId('events-table')).toContainText(DOMAIN);
  await page.getByTestId('export-more').click();
  await page.getByRole('menuitem', { name: 'Выгрузить в STIX 2.1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Экспорт: Домены' });
  await expect(dialog.getByRole('radio', { name: 'STIX 2.1 (JSON, bundle)' })).toBeChecked();
  await dialog.getByTestId('export-submit').click();
  await expect(page.getByText('Экспорт поставлен в очередь')).toBeVisible();

  await page.goto('/exports');
  const row = page.getByTestId('exports-table').locator('tbody tr.ant-table-row').first();
  await expect(row.getByTestId('export-status')).toHaveText('Готов', { timeout: 30_000 });
  const [file] = await Promise.all([page.waitForEvent('download'), row.getByTestId('export-download').click()]);
  expect(file.suggestedFilename()).toMatch(/\.stix\.json$/);
  const bundle = JSON.parse(readFileSync((await file.path()) as string, 'utf8')) as Bundle;
  expect(bundle.type).toBe('bundle');
  expect(bundle.objects.some((o) => o.type === 'indicator' && o.pattern === `[domain-name:value = '${DOMAIN}']`)).toBe(true);

  await page.goto(`/domains/${eventId}`);
  const [one] = await Promise.all([page.waitForEvent('download'), page.getByTestId('event-stix').click()]);
  expect(one.suggestedFilename()).toBe(`domains-${eventId}.stix.json`);
  const single = JSON.parse(readFileSync((await one.path()) as string, 'utf8')) as Bundle;
  expect(single.objects.filter((o) => o.type === 'incident')).toHaveLength(1);
  expect(single.objects.find((o) => o.type === 'domain-name')).toMatchObject({ value: DOMAIN });
});
