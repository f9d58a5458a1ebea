import { groupCardNumber, maskCardNumber } from '@forpost/contract/helpers';
import { sampleCard } from '@forpost/contract/modules';
import { expect, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Issue 16, console routing: the server knows the console's route table (dist/routes.json from the
 * build) — a path that is no route is answered 404 and the console shows «Page Not Found: {path}»;
 * routes and module sections are 200. A card number field groups its digits in fours as typed.
 */

test('an unknown path is a 404 from the server and the console’s not-found page', async ({ page }) => {
  await login(page, '/audit');
  const known = await page.goto('/domains');
  expect(known?.status()).toBe(200);
  const unknown = await page.goto('/no-such-page');
  expect(unknown?.status()).toBe(404);
  await expect(page.getByText('Page Not Found: /no-such-page')).toBeVisible();
  const section = await page.goto('/domainz/5');
  expect(section?.status()).toBe(404);
  await expect(page.getByText('Page Not Found: /domainz/5')).toBeVisible();
});

test('a card number is typed in groups of four and saved as digits', async ({ page, baseURL }) => {
  const api = await adminApi(baseURL);
  const stamp = Date.now() % 100_000;
  const company = await ok<{ id: number }>(
    await api.post('/api/v1/companies', { data: { name: `E2E Карта ${stamp}` } }),
    'company',
  );
  const event = await ok<{ id: number }>(
    await api.post('/api/v1/modules/acquiring/events', {
      data: { company_id: company.id, card_number: sampleCard(stamp, '427638'), card_holder: 'IVAN PETROV' },
    }),
    'event',
  );
  await api.dispose();
  const next = sampleCard(stamp + 1, '220220');
  await login(page, `/acquiring/${event.id}`);
  await page.getByTestId('fields-edit').click();
  const card = page.locator('#event-fields_card_number');
  await card.pressSequentially(next.slice(0, 9));
  await expect(card).toHaveValue(`${next.slice(0, 4)} ${next.slice(4, 8)} ${next.slice(8, 9)}`);
  await card.pressSequentially(next.slice(9));
  await expect(card).toHaveValue(groupCardNumber(next));
  await page.getByTestId('fields-save').click();
  await expect(page.getByTestId('card-number')).toHaveText(maskCardNumber(next));
});
