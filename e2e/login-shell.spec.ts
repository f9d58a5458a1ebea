import { expect, type Page, test } from '@playwright/test';
import { login } from './helpers';

/*
 * /login's picture before its scripts run (apps/console/src/features/auth/loginShell.ts, #30 item 15):
 * drawn from plain HTML while the entry chunk is held back, then replaced by the page in one frame.
 * Its parts must be exactly where the page's are — the page must not move when React takes over.
 */
type Box = [x: number, y: number, width: number, height: number];

/** The picture's parts (`data-part`), rounded to whole pixels. */
const shellBoxes = (page: Page): Promise<Record<string, Box>> =>
  page.evaluate(() => {
    const box = (r: DOMRect): Box => [r.x, r.y, r.width, r.height].map(Math.round) as Box;
    const parts = [...document.querySelectorAll<HTMLElement>('#fp-login-shell [data-part]')];
    return Object.fromEntries(parts.map((el) => [el.dataset.part ?? '', box(el.getBoundingClientRect())]));
  });

/** The same parts of the page React drew. */
const pageBoxes = (page: Page): Promise<Record<string, Box | null>> =>
  page.evaluate(() => {
    const box = (el: Element | null | undefined): Box | null => {
      const r = el?.getBoundingClientRect();
      return r ? ([r.x, r.y, r.width, r.height].map(Math.round) as Box) : null;
    };
    const q = (s: string) => document.querySelector(s);
    return {
      box: box(q('form')?.parentElement),
      title: box(q('h2')),
      subtitle: box(q('[data-testid="login-step"]')),
      email: box(q('#login-email')?.closest('.fpls-input')),
      password: box(q('#login-password')?.closest('.fpls-input')),
      submit: box(q('button[type="submit"]')),
      forgot: box([...document.querySelectorAll('button')].find((b) => b.textContent === 'Забыли пароль?')),
      footer: box([...document.querySelectorAll('span')].find((s) => s.textContent?.includes('Вопросы о доступе'))),
    };
  });

for (const width of [412, 1280]) {
  test(`/login is drawn before its scripts run, where the page then draws itself (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login', { waitUntil: 'commit' });
    const shell = page.locator('#fp-login-shell');
    await expect(shell).toBeVisible();
    await expect(shell.getByText('Вход в консоль')).toBeVisible();
    // A picture: nothing in it for assistive technology, the keyboard or the tests' selectors.
    await expect(page.getByRole('button', { name: 'Войти' })).toHaveCount(0);
    await expect(page.getByLabel('Email')).toHaveCount(0);
    const drawn = await shellBoxes(page);
    expect(Object.keys(drawn).sort()).toEqual(['box', 'email', 'footer', 'forgot', 'password', 'submit', 'subtitle', 'title']);

    release();
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(shell).toHaveCount(0);
    expect(await pageBoxes(page)).toEqual(drawn);
  });
}

test('a signed-in visit to /login goes home without the picture; other steps start without it', async ({ page }) => {
  await page.goto('/login?type=2fa');
  await expect(page.getByTestId('login-step')).toHaveText('Подтверждение входа');
  await expect(page.locator('#fp-login-shell')).toHaveCount(0);

  await login(page);
  await page.goto('/login');
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expect(page.locator('#fp-login-shell')).toHaveCount(0);
});

test('the credentials step draws its own controls: the eye, the error frame, the focus ring in the theme colours', async ({
  page,
}) => {
  await page.goto('/login');
  const password = page.getByLabel('Пароль', { exact: true });
  await password.fill('s3cret');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Показать пароль' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(password).toBeFocused();
  await page.getByRole('button', { name: 'Скрыть пароль' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  /** A colour the form's variables name, as the browser computes it, and the frame's border and ring around an input. */
  const colours = (id: string, variable: string) =>
    page.evaluate(
      ([id, variable]) => {
        const form = document.querySelector('form') as HTMLFormElement;
        const probe = form.appendChild(document.createElement('i'));
        probe.style.color = `var(${variable})`;
        const want = getComputedStyle(probe).color;
        probe.remove();
        const frame = getComputedStyle(document.getElementById(id)?.closest('.fpls-input') as Element);
        return { want, border: frame.borderTopColor, ring: frame.boxShadow };
      },
      [id, variable],
    );
  await page.getByLabel('Email').focus();
  // (the frame's colours ease in over 0.2 s, as antd's do)
  const settled = async (id: string, variable: string) =>
    expect
      .poll(async () => {
        const c = await colours(id, variable);
        return c.border === c.want;
      })
      .toBe(true);
  await settled('login-email', '--primary');
  expect((await colours('login-email', '--primary')).ring).not.toBe('none');

  await page.getByRole('button', { name: 'Войти' }).click();
  await expect(page.locator('#login-email-error')).toHaveText('Обязательное поле');
  await page.mouse.move(0, 0);
  await page.getByRole('button', { name: 'Войти' }).blur();
  await settled('login-email', '--error');
  const fine = await colours('login-password', '--error');
  expect(fine.border).not.toBe(fine.want);
});
