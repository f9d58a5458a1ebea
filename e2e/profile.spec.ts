import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD, login, logout } from './helpers';

// ---------------------------------------------------------------------------
// TOTP (RFC 6238: HMAC-SHA-1, 30 s step, 6 digits) computed by the test itself.
// ---------------------------------------------------------------------------

function base32Decode(input: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = input.replace(/[\s=-]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const idx = alphabet.indexOf(ch);
    if (idx < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

const STEP_MS = 30_000;

/** A 16×16 PNG for the avatar upload. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAHklEQVR4nGNkaPjPQApgYmBgYBjVMKphVMOohmGnAQB0WgG9Qm0VngAAAABJRU5ErkJggg==',
  'base64',
);

function totp(secret: string, at = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / STEP_MS)));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, '0');
}

/** A code from a step no earlier code of this test used (the server refuses a replayed step). */
async function freshTotp(secret: string, usedStep: { value: number }): Promise<string> {
  let step = Math.floor(Date.now() / STEP_MS);
  // Too close to the end of a step, or the step was used: wait for the next one.
  if (step <= usedStep.value || STEP_MS - (Date.now() % STEP_MS) < 2_000) {
    await new Promise((r) => setTimeout(r, STEP_MS - (Date.now() % STEP_MS) + 300));
    step = Math.floor(Date.now() / STEP_MS);
  }
  usedStep.value = step;
  return totp(secret);
}

async function typeOtp(page: Page, scope: ReturnType<Page['locator']>, code: string) {
  await scope.locator('input').first().click();
  await page.keyboard.type(code);
}

// ---------------------------------------------------------------------------
// API helpers: the admin creates the test users (the shared admin account stays without 2FA).
// ---------------------------------------------------------------------------

async function adminApi(baseURL: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });
  const res = await api.post('/api/v1/auth/login', { data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
  expect(res.status()).toBe(200);
  return api;
}

async function createStaffUser(baseURL: string, email: string, name: string): Promise<string> {
  const api = await adminApi(baseURL);
  const res = await api.post('/api/v1/users', { data: { email, name, role: 'ANALYST', password_mode: 'generate' } });
  expect(res.status()).toBe(201);
  const body = (await res.json()) as { generated_password: string };
  await api.dispose();
  return body.generated_password;
}

/** The readable text of an .eml: headers plus its base64 and quoted-printable parts decoded. */
function mailText(raw: string): string {
  const parts = [raw];
  for (const m of raw.matchAll(/Content-Transfer-Encoding: base64\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/g)) {
    parts.push(Buffer.from((m[1] ?? '').replace(/\s/g, ''), 'base64').toString('utf8'));
  }
  parts.push(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))),
  );
  return parts.join('\n');
}

/** The newest .eml the e2e server wrote for `to` (DATA_DIR/mail, see playwright.config.ts). */
async function readMailLink(to: string, since: number): Promise<string> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  const dir = path.join(dataDir, 'mail');
  let link: string | null = null;
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
        } catch {
          return null;
        }
        for (const f of files.sort().reverse()) {
          const text = mailText(readFileSync(path.join(dir, f), 'utf8'));
          if (!text.toLowerCase().includes(to.toLowerCase())) continue;
          const m = /https?:\/\/[^\s"<>]+\/newpassword\?token=[A-Za-z0-9_%.~-]+/.exec(text);
          const dateOk =
            Date.parse(f.slice(0, 24).replace(/^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3})Z.*/, '$1:$2:$3.$4Z')) >=
            since - 5_000;
          if (m && dateOk) {
            link = m[0];
            return link;
          }
        }
        return null;
      },
      { message: `письмо для ${to} в ${dir}`, timeout: 15_000 },
    )
    .not.toBeNull();
  return link as unknown as string;
}

test.describe('profile', () => {
  test('validation messages, allowed IPs, and saving the name', async ({ page }) => {
    await login(page, '/profile');
    await expect(page.getByTestId('page-title')).toHaveText('Профиль');

    // Password strength (checked as typed), repeat (checked on blur).
    await page.getByLabel('Новый пароль').fill('short1!A');
    await expect(page.getByText('Слишком слабый пароль')).toBeVisible();
    await page.getByLabel('Повторите пароль').fill('something-else');
    await expect(page.getByText('Пароли не совпадают')).toHaveCount(0);
    await page.getByLabel('Повторите пароль').blur();
    await expect(page.getByText('Пароли не совпадают')).toBeVisible();

    // A failed check on save: the general message.
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.locator('.ant-message-notice').filter({ hasText: 'Заполните все обязательные поля' })).toBeVisible();

    // Leaving the password empty is fine.
    await page.getByLabel('Новый пароль').fill('');
    await page.getByLabel('Повторите пароль').fill('');
    await page.getByLabel('Повторите пароль').blur();
    await expect(page.getByText('Слишком слабый пароль')).toHaveCount(0);
    await expect(page.getByText('Пароли не совпадают')).toHaveCount(0);

    // Allowed IPs: checked on blur, duplicates refused, add and remove.
    const ipInput = page.getByTestId('allowed-ips-input');
    await ipInput.fill('300.1.2.3');
    await ipInput.blur();
    await expect(page.getByText('Некорректный IP или CIDR')).toBeVisible();
    await ipInput.fill('10.0.0.0/8');
    await ipInput.blur();
    await expect(page.getByText('Некорректный IP или CIDR')).toHaveCount(0);
    await page.getByTestId('allowed-ips-add').click();
    await expect(page.getByTestId('allowed-ips-list')).toContainText('10.0.0.0/8');
    await expect(ipInput).toHaveValue('');
    await ipInput.fill('10.0.0.0/8');
    await ipInput.blur();
    await expect(page.getByText('IP уже добавлен')).toBeVisible();
    await ipInput.fill('');
    await ipInput.blur();
    await expect(page.getByText('IP уже добавлен')).toHaveCount(0);
    // Saving 10.0.0.0/8 would lock this session out (127.0.0.1): take it off again.
    await page.getByTestId('allowed-ips-list').locator('.ant-tag-close-icon').click();
    await expect(page.getByTestId('allowed-ips-empty')).toBeVisible();

    // A wrong current password is reported next to its field.
    const strong = 'Очень-Надёжный-Пароль-2026!';
    await page.getByLabel('Новый пароль').fill(strong);
    await page.getByLabel('Повторите пароль').fill(strong);
    await page.getByLabel('Текущий пароль').fill('not-the-current-password');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(page.getByText('Неверный текущий пароль')).toBeVisible();
    for (const label of ['Новый пароль', 'Повторите пароль', 'Текущий пароль']) await page.getByLabel(label).fill('');

    // Avatar: only images; a PNG is uploaded at once and stored on save.
    const fileInput = page.locator('input[type=file]');
    await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(
      page.locator('.ant-message-notice').filter({ hasText: 'Подойдёт изображение PNG, JPEG или WebP' }),
    ).toBeVisible();
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/v1/docs') && r.request().method() === 'POST');
    await fileInput.setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: PNG });
    expect((await uploaded).status()).toBe(201);
    await expect(page.getByText('изменение сохранится после нажатия «Сохранить»')).toBeVisible();

    // Name: required (checked as typed), trimmed on save.
    const name = page.getByLabel('Имя', { exact: true });
    await name.fill('');
    await expect(page.getByText('Обязательное поле')).toBeVisible();
    await page.getByRole('button', { name: 'Сохранить' }).click();
    await expect(
      page.locator('.ant-message-notice').filter({ hasText: 'Заполните все обязательные поля' }).first(),
    ).toBeVisible();
    const newName = `  Администратор ${Date.now().toString(36)}  `;
    await name.fill(newName);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/v1/me') && r.request().method() === 'PATCH');
    await page.getByRole('button', { name: 'Сохранить' }).click();
    expect((await saved).status()).toBe(200);
    await expect(page.locator('.ant-message-notice').filter({ hasText: 'Профиль обновлён' })).toBeVisible();
    await expect(page.getByTestId('user-menu')).toContainText(newName.trim());
    await expect(name).toHaveValue(newName.trim());
    await expect(page.getByTestId('user-menu').locator('img')).toHaveAttribute('src', /\/api\/v1\/docs\/\d+\/content$/);

    // Sessions: this one is marked as current.
    await expect(page.getByTestId('sessions-table')).toContainText('Текущий');
  });

  test('two-factor sign-in with a computed code, and a password reset from the mailed link', async ({ page, baseURL }) => {
    test.setTimeout(150_000);
    const stamp = Date.now().toString(36);
    const email = `twofa-${stamp}@forpost.local`;
    const password = await createStaffUser(baseURL as string, email, `Аналитик ${stamp}`);
    const usedStep = { value: 0 };

    await login(page, '/profile', { email, password });

    // Enable: QR + secret → code → the recovery codes, shown once with a copy button.
    await page.getByTestId('twofa-switch').click();
    const setup = page.getByTestId('twofa-setup');
    await expect(setup.getByRole('img', { name: 'QR-код для приложения-аутентификатора' })).toBeVisible();
    // Shown in groups of four for typing by hand.
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await typeOtp(page, page.getByTestId('twofa-code'), await freshTotp(secret, usedStep));
    await setup.getByRole('button', { name: 'Подтвердить' }).click();

    const codesPanel = page.getByTestId('recovery-codes');
    await expect(codesPanel).toBeVisible();
    await expect(codesPanel.getByTestId('recovery-code')).toHaveCount(10);
    const recoveryCodes = await codesPanel.getByTestId('recovery-code').allTextContents();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await codesPanel.getByRole('button', { name: 'Скопировать коды' }).click();
    await expect(codesPanel.getByRole('button', { name: 'Скопировано' })).toBeVisible();
    // The copied mark goes away after 1500 ms.
    await expect(codesPanel.getByRole('button', { name: 'Скопировать коды' })).toBeVisible({ timeout: 3_000 });
    await codesPanel.getByRole('button', { name: 'Я сохранил коды' }).click();
    await expect(codesPanel).toHaveCount(0);
    await expect(page.getByText('Включена', { exact: true })).toBeVisible();

    // Sign out and back in: password, then the code at /login?type=2fa.
    await logout(page);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Пароль', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await expect(page).toHaveURL(/\/login\?.*type=2fa/);
    await typeOtp(page, page.locator('.ant-otp'), await freshTotp(secret, usedStep));
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    // Back where the logout happened (/login?redirect=%2Fprofile).
    await expect(page).toHaveURL((url) => url.pathname === '/profile');
    await expect(page.getByText('Включена', { exact: true })).toBeVisible();

    // Forgotten password: the mailed link leads to the new-password step.
    await logout(page);
    const requestedAt = Date.now();
    await page.getByRole('button', { name: 'Забыли пароль?' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Отправить ссылку' }).click();
    const link = await readMailLink(email, requestedAt);
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page).toHaveURL(/\/login\?.*type=new-password/);
    const newPassword = `Новый-Пароль-${stamp}-2026!Aa`;
    await page.getByLabel('Новый пароль').fill(newPassword);
    await page.getByLabel('Повторите пароль').fill(newPassword);
    await page.getByRole('button', { name: 'Сохранить пароль' }).click();
    await expect(page.locator('.ant-message-notice').filter({ hasText: 'Пароль изменён' })).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === '/login');

    // The new password works (2FA still on: a recovery code this time); the old one does not.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Пароль', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Войти' }).click();
    await expect(page.getByTestId('login-error')).toBeVisible();
    await page.getByLabel('Пароль', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Войти' }).click();
    await expect(page).toHaveURL(/\/login\?.*type=2fa/);
    await page.getByRole('button', { name: 'Использовать резервный код' }).click();
    await page.getByLabel('Резервный код').fill(recoveryCodes[0] ?? '');
    await page.getByRole('button', { name: 'Подтвердить' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');

    // Logout returns to /login.
    await logout(page);
    await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
  });
});
