/*
 * Takedown requests (#32) in the browser: «Запрос на блокировку» on a domain's card opens the takedown
 * dialog (not a history line): a draft is prepared, the analyst adds an abuse address, sends it, and the
 * request is «Отправлен» (the e2e server writes the mail to .eml: no SMTP); the «Блокировки» page lists
 * it with its state, filters by state, opens it in a drawer; the figures block on the page and on
 * «Главная». Screenshots at 1280 and 1920 in .tmp/shots/takedown.
 */
import path from 'node:path';
import { expect as baseExpect, test } from '@playwright/test';
import { adminApi, login, ok, pickOption } from './helpers';

const expect = baseExpect.configure({ timeout: 20_000 });
const token = `tde2e${Date.now().toString(36)}`;
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/takedown');
const SIZES = [
  [1280, 800],
  [1920, 1080],
] as const;

test('takedown: the dialog in the card, sending, the «Блокировки» page and the figures', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const api = await adminApi(baseURL);
  // No RDAP here (the default bootstrap is IANA's, unreachable): recipients are added by hand.
  for (const [key, value] of Object.entries({ discovery_rdap_servers: '', discovery_rdap_bootstrap: '' })) {
    const r = await api.post('/api/v1/configs', { data: { key, value } });
    if (r.status() === 409) await ok(await api.patch(`/api/v1/configs/${key}`, { data: { value } }), key);
    else await ok(r, key);
  }
  const company = await ok<{ id: number }>(
    await api.post('/api/v1/companies', { data: { name: `Блокировки ${token}` } }),
    'company',
  );
  const domain = `sber-login-${token}.ru`;
  const id = (
    await ok<{ id: number }>(
      await api.post('/api/v1/modules/domains/events', {
        data: { company_id: company.id, domain, asset: 'sberbank.ru', similarity: 90 },
      }),
      'event',
    )
  ).id;

  await login(page);
  await page.goto(`/domains/${id}`);
  await page.getByTestId('action-takedown').click();
  const dialog = page.getByTestId('takedown-dialog');
  await expect(dialog).toContainText('найдены адреса abuse');
  await dialog.getByPlaceholder('Комментарий аналитика').fill('Клон страницы входа');
  await dialog.getByTestId('takedown-create').click();
  const view = dialog.getByTestId('takedown-view');
  await expect(view.getByTestId('takedown-state-draft')).toBeVisible();
  await expect(view.getByTestId('takedown-recipients')).toContainText('Получателей нет');
  await view.getByTestId('takedown-add-email').fill('abuse@registrar.test');
  await view.getByRole('button', { name: 'Добавить' }).click();
  await expect(view.getByTestId('takedown-recipients')).toContainText('abuse@registrar.test');
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SHOTS, `dialog-draft-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await view.getByTestId('takedown-send').click();
  await expect(view.getByTestId('takedown-state-sent')).toBeVisible();
  await expect(view.getByTestId('takedown-sent')).toContainText('abuse@registrar.test');
  await expect(view.getByTestId('takedown-log')).toContainText('Отправлен');
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SHOTS, `dialog-sent-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Escape');
  // The event's history names the request, not «Выполнено».
  const history = await ok<{ items: { field: string; after: { comment?: string } }[] }>(
    await api.get(`/api/v1/modules/domains/events/${id}/history`),
    'history',
  );
  expect(history.items.some((h) => h.field === 'takedown' && h.after?.comment?.includes('Отправлен'))).toBe(true);

  // «Блокировки»: the request with its state; the state filter; the drawer; the figures.
  await page.goto('/takedown');
  await expect(page.getByTestId('page-title')).toHaveText('Блокировки');
  const table = page.getByTestId('takedown-table');
  await page.getByTestId('takedown-search').locator('input').fill(token);
  await page.getByTestId('takedown-search').locator('input').press('Enter');
  await expect(table).toContainText(domain);
  await expect(table.getByTestId('takedown-state-sent')).toBeVisible();
  await pickOption(page, page.getByTestId('takedown-state-filter'), 'Ресурс недоступен');
  await expect(table).toContainText('Запросов нет');
  await pickOption(page, page.getByTestId('takedown-state-filter'), 'Отправлен');
  await expect(table).toContainText(domain);
  await expect(page.getByTestId('takedown-figures')).toContainText('Отправлено запросов');
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SHOTS, `page-${width}.png`), fullPage: true });
  }
  await table
    .getByText(domain)
    .locator('xpath=ancestor::tr')
    .getByText(/^FP-TD-/)
    .click();
  await expect(page.getByTestId('takedown-view')).toContainText('abuse@registrar.test');
  await page.getByTestId('takedown-view').getByTestId('takedown-step-acknowledge').click();
  await page.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('takedown-view').getByTestId('takedown-state-acknowledged')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'drawer-1920.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // «Главная»: the figures block.
  await page.goto('/');
  await expect(page.getByTestId('takedown-figures')).toContainText('До недоступности');
  await page.getByTestId('takedown-figures').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, 'home-1280.png') });
  await api.dispose();
});
