import { expect, test } from '@playwright/test';
import { login } from './helpers';

/*
 * Issue 16, console routing: the server knows the console's route table (dist/routes.json from the
 * build) — a path that is no route is answered 404 and the console shows «Page Not Found: {path}»;
 * routes and module sections are 200.
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
