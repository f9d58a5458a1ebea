/*
 * Issue #28.9: the console runs under its strict CSP with no violation — zod's JIT probe (`new
 * Function`) used to be blocked on every page. Every violation event of the document is collected
 * from the first script on, over the pages an analyst opens in a day.
 */
import { expect, test } from '@playwright/test';
import { login } from './helpers';

test('no CSP violation on the sign-in page, the home page, a list, a card and the settings', async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const violations = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);
  const seen: string[] = [];
  await page.goto('/login');
  await page.getByLabel('Email').fill('nobody@forpost.test');
  seen.push(...(await violations()));
  await login(page, '/domains');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  seen.push(...(await violations()));
  for (const path of ['/', '/settings/tags', '/profile']) {
    await page.goto(path);
    await expect(page.getByTestId('user-menu')).toBeVisible();
    seen.push(...(await violations()));
  }
  expect(seen).toEqual([]);
});

test('a signed-out visit logs no error: no 401 from GET /me or a refresh on /login or on the way there', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.request().method()} ${r.url()}`);
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
  await page.goto('/domains');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
  expect(errors).toEqual([]);
});
