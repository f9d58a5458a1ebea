import { expect, test } from '@playwright/test';
import { ADMIN_EMAIL, login, logout } from './helpers';

test.describe('console shell', () => {
  test('a logged-out visit is sent to login and comes back after signing in', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);
    await expect(page.getByText('Вход в консоль')).toBeVisible();
    await expect(page).toHaveTitle('Вход в консоль — Форпост');

    // Nothing filled: each field says what is wrong, and the toast (its code loads on demand) says why
    // nothing was sent.
    await page.getByRole('button', { name: 'Войти' }).click();
    await expect(page.locator('#login-email-error')).toHaveText('Обязательное поле');
    await expect(page.locator('#login-password-error')).toHaveText('Обязательное поле');
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Пароль', { exact: true })).toHaveAttribute('aria-required', 'true');
    await expect(page.locator('.ant-message-notice')).toContainText('Заполните все обязательные поля');
    await page.getByLabel('Email').fill('not-an-email');
    await expect(page.locator('#login-email-error')).toHaveText('Неверный формат email');

    // Wrong password: the API's message is shown inline.
    await page.getByLabel('Email').fill(ADMIN_EMAIL);
    await expect(page.locator('#login-email-error')).toHaveCount(0);
    await page.getByLabel('Пароль', { exact: true }).fill('definitely-not-the-password');
    await page.getByRole('button', { name: 'Войти' }).click();
    await expect(page.getByTestId('login-error')).toContainText('Неверный email или пароль');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/);

    await login(page, '/profile');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('page-title')).toHaveText('Профиль');
    await expect(page).toHaveTitle('Профиль — Форпост');

    // Signed in, /login sends to the home page.
    await page.goto('/login');
    await expect(page).toHaveURL((url) => url.pathname === '/');
  });

  test('«less motion» in the system turns the animations off; without it they are on', async ({ page }) => {
    // The suite runs with reducedMotion: 'reduce' (playwright.config.ts).
    await login(page);
    const duration = () =>
      page.getByTestId('user-menu').evaluate((el) => getComputedStyle(el).getPropertyValue('--ant-motion-duration-mid').trim());
    await expect.poll(duration).toBe('0s');
    await page.getByTestId('user-menu').click();
    await expect(page.getByRole('menuitem', { name: 'Выйти' })).toBeVisible();
    await expect(page.locator('.ant-slide-up-enter, .ant-slide-up-appear')).toHaveCount(0);
    await page.keyboard.press('Escape');
    // The setting is read when the console loads (switching it live would remount the page).
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.reload();
    await expect.poll(duration).toBe('0.2s');
  });

  test('an unknown route shows the 404 page with the home button', async ({ page }) => {
    await login(page);
    await page.goto('/no-such-page');
    await expect(page.getByTestId('error-status')).toHaveText('404');
    await expect(page.getByRole('heading', { name: 'Страница не найдена' })).toBeVisible();
    await expect(page.getByText('Page Not Found: /no-such-page')).toBeVisible();
    const home = page.getByRole('button', { name: 'На главную' });
    await expect(home).toBeVisible();
    await home.click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await expect(page.getByTestId('page-title')).toHaveText('Главная');
  });

  test('an expired access session is refreshed without the user noticing', async ({ page, context }) => {
    await login(page);
    const names = async () => (await context.cookies()).map((c) => c.name);
    expect(await names()).toEqual(expect.arrayContaining(['fp_access', 'fp_refresh']));
    await context.clearCookies({ name: 'fp_access' });
    expect(await names()).not.toContain('fp_access');

    const refreshes: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/v1/auth/refresh') && r.request().method() === 'POST') refreshes.push(r.status());
    });
    // Opening a section loads the profile again: its 401 is healed by one refresh and a retry.
    await page.goto('/users');
    await expect(page).toHaveURL((url) => url.pathname === '/users');
    await expect(page.getByTestId('page-title')).toHaveText('Пользователи');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    // Playwright reports a response with Set-Cookie once its raw headers arrived too, which may be
    // after the page already used it: wait for the report (one refresh; a second one fails below).
    await expect.poll(() => refreshes).toEqual([200]);
    expect(await names()).toContain('fp_access');
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);

    // Navigating inside the app keeps working, still without any toast.
    await page.getByTestId('nav-/companies').click();
    await expect(page).toHaveURL((url) => url.pathname === '/companies');
    await expect(page.getByTestId('page-title')).toHaveText('Компании');
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
    expect(refreshes).toEqual([200]);
  });

  test('the outdated-version notice appears and «Обновить» reloads the page', async ({ page }) => {
    await page.clock.install();
    await login(page);
    // The start check found the same version: no notice.
    await expect(page.getByText('Версия приложения устарела')).toHaveCount(0);

    let versionCalls = 0;
    await page.route(/\/version\.json\?timestamp=\d+$/, async (route) => {
      versionCalls++;
      await route.fulfill({ json: { version: 'newer-build' } });
    });
    await page.clock.runFor(61_000);
    await expect.poll(() => versionCalls).toBeGreaterThan(0);

    const notice = page.locator('.ant-notification-notice').filter({ hasText: 'Версия приложения устарела' });
    await expect(notice).toBeVisible();
    // Persistent: still there long after a normal notification would have closed.
    await page.clock.runFor(10_000);
    await expect(notice).toBeVisible();

    await page.evaluate(() => {
      (window as unknown as { __beforeReload?: boolean }).__beforeReload = true;
    });
    await Promise.all([page.waitForEvent('load'), notice.getByRole('button', { name: 'Обновить' }).click()]);
    expect(await page.evaluate(() => (window as unknown as { __beforeReload?: boolean }).__beforeReload)).toBeUndefined();
  });

  test('the company selector offers «Все компании» first', async ({ page }) => {
    await login(page);
    const selector = page.getByTestId('company-selector');
    await expect(selector).toContainText('Все компании');
    await selector.click();
    const options = page.locator('.ant-select-dropdown .ant-select-item-option');
    await expect(options.first()).toHaveText('Все компании');
  });

  test('logout returns to the login page', async ({ page, context }) => {
    await login(page);
    await logout(page);
    await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
    expect((await context.cookies()).some((c) => c.name === 'fp_access' && c.value !== '')).toBe(false);

    // The session is really gone: a protected page sends back to login.
    await page.goto('/users');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fusers$/);
  });
});
