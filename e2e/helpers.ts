import { expect, type Page } from '@playwright/test';

/** The SUPER_ADMIN the e2e server creates on its fresh database (scripts/e2e-server.mjs). */
export const ADMIN_EMAIL = 'admin@forpost.local';
export const ADMIN_PASSWORD = 'Forpost-Admin-2026!Pass';

/**
 * Signs in through the login page. With `redirectPath` it opens that page first (landing on
 * /login?redirect=…) and waits to be brought back to it; otherwise it waits for the home page.
 */
export async function login(
  page: Page,
  redirectPath?: string,
  credentials: { email: string; password: string } = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
): Promise<void> {
  await page.goto(redirectPath ?? '/login');
  await expect(page).toHaveURL(/\/login(\?|$)/);
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Пароль', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: 'Войти' }).click();
  const target = redirectPath ?? '/';
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === target);
  await expect(page.getByTestId('user-menu')).toBeVisible();
}
