/*
 * «Поиск утечек» in the browser: a company with a protected domain, a catalogue leak, a small dump uploaded
 * on the page; the hunt is followed to «Готов» with its per-company summary, and the account appears in
 * «Аккаунты». Before it, a login pattern of the company is added in its settings (a bad one refused in
 * Russian) and folding switched on, so the dump's customer id and +tagged Gmail address are found too.
 * Screenshots at 1280 and 1920 (.tmp/shots/hunts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { adminApi, login, ok, pickOption } from './helpers';

const SHOTS = path.join(process.env.E2E_DATA_DIR ?? '.tmp', 'shots', 'hunts');
mkdirSync(SHOTS, { recursive: true });

async function shot(page: Page, name: string) {
  for (const [w, h] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${w}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('upload a dump, follow the hunt, see the account in «Аккаунты»', async ({ page, baseURL }) => {
  test.setTimeout(45_000);
  const api = await adminApi(baseURL);
  const company = await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: 'Хант Банк' } }), 'company');
  await ok(
    await api.post(`/api/v1/companies/${company.id}/assets`, { data: { kind: 'domain', value: 'hunt-bank.ru' } }),
    'asset',
  );
  await ok(await api.post('/api/v1/modules/leaks', { data: { name: 'Комбо-лист e2e' } }), 'leak');
  await api.dispose();
  const dump = path.join(SHOTS, 'dump.txt');
  writeFileSync(
    dump,
    'k.petrova@hunt-bank.ru:Qwerty-e2e-77\nsomeone@example.org:xx\nnot a line\nhb-1234567:Pin-e2e-1\nboss+x@gmail.com:Gm-e2e-2\n',
  );

  // Protected identities in the company settings, next to the assets.
  await login(page, `/companies/${company.id}/edit?tab=assets`);
  const ids = page.getByTestId('identities-card');
  await expect(ids).toContainText('Логинов и шаблонов нет');
  await ids.getByTestId('identity-value').fill('boss@gmail.com');
  await ids.getByTestId('identity-add').click();
  await expect(ids.getByTestId('identity-row')).toHaveText('boss@gmail.com');
  await pickOption(page, ids.getByTestId('identity-kind'), 'Шаблон логина');
  await ids.getByTestId('identity-value').fill('(a+)+$');
  await ids.getByTestId('identity-add').click();
  await expect(ids).toContainText('Шаблон логина: от 3 до 64 символов');
  await ids.getByTestId('identity-value').fill('hb-#######');
  await ids.getByTestId('identity-add').click();
  await expect(ids.getByTestId('identity-row')).toHaveCount(2);
  await ids.getByTestId('identities-fold').click();
  await expect(ids.getByTestId('identities-fold')).toBeChecked();
  await shot(page, 'identities');

  await page.goto('/hunts');
  await expect(page.getByTestId('page-title')).toHaveText('Поиск утечек');
  await pickOption(page, page.getByTestId('hunt-leak'), 'Комбо-лист e2e');
  await page.locator('input[type=file]').setInputFiles(dump);
  await page.getByRole('button', { name: 'Начать поиск' }).click();
  const item = page.getByTestId('hunt-item');
  await expect(item.getByTestId('hunt-status')).toHaveText('Готов', { timeout: 20_000 });
  await expect(item.getByRole('row', { name: /Хант Банк/ })).toContainText('3');
  await shot(page, 'hunt');

  await page.goto('/accounts');
  await expect(page.getByText('k.petrova@hunt-bank.ru').first()).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText('hb-1234567').first()).toBeVisible();
  await expect(page.getByText('boss+x@gmail.com').first()).toBeVisible();
  await shot(page, 'accounts');
});
