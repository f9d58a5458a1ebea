/*
 * The Telegram collector (#35) in the browser: a public channel whose web preview is served by a local
 * server (started here in Telegram's markup; the preview's base address is the telegram_preview_url
 * setting, the e2e server allows private addresses) is added in the console for two companies with
 * their own keywords; the e2e server's own collector reads it, and /messages shows each company only
 * the posts its keywords match, with the rule; the channel list shows the collector's state.
 */
import path from 'node:path';
import { TELEGRAM_MSG } from '@forpost/contract/telegram';
import { expect as baseExpect, test } from '@playwright/test';
import { E2E_PHONE_PREFIX, LOGIN_CODE, PASSWORD_HINT } from '../apps/api/test/telegram-login-codes';
import { fakePosts, startPreviewServer } from '../apps/api/test/telegram-preview-kit';
import { adminApi, e2eSql, login, ok, pickOption } from './helpers';

const expect = baseExpect.configure({ timeout: 30_000 });
const token = Date.now().toString(36);
const CHANNEL = `tg_e2e_${token}`;
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/telegram');
const SIZES = [
  [1280, 800],
  [1920, 1080],
] as const;

test('telegram: a public channel read from its preview lands on /messages with its matches', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const tg = await startPreviewServer({
    [CHANNEL]: {
      title: 'Новости рынка',
      posts: [
        ...fakePosts(3, (i) => `Обзор рынка за день ${i}`),
        {
          id: 4,
          html: 'Ромашка Ритейл: клиенты жалуются на <b>фишинговый</b> сайт <i class="emoji"><b>⚠️</b></i><br/><a href="https://example.ru">example.ru</a>',
          date: new Date(Date.now() - 60_000),
          author: 'Редакция',
          forwardedFrom: 'Слухи рынка',
          views: '2.5K',
        },
        { id: 5, html: 'Северный Банк обновил приложение', date: new Date(Date.now() - 30_000) },
      ],
    },
  });
  try {
    const api = await adminApi(baseURL);
    const company = async (name: string) =>
      ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name } }), 'company');
    const romashka = await company(`Ромашка ${token}`);
    const north = await company(`Северный ${token}`);
    const setConfig = async (key: string, value: unknown) => {
      const r = await api.post('/api/v1/configs', { data: { key, value } });
      if (r.status() === 409) await ok(await api.patch(`/api/v1/configs/${key}`, { data: { value } }), key);
      else await ok(r, key);
    };
    await setConfig('telegram_preview_url', tg.url);

    // The first company's subscription is added in the console.
    await login(page, '/telegram/channels');
    await page.getByRole('button', { name: 'Добавить канал' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('channel-link').fill(`https://t.me/${CHANNEL}`);
    await expect(dialog.getByText(`Сохранится как @${CHANNEL}`)).toBeVisible();
    // After the other specs there are many companies and the dropdown renders only those in view: type to filter.
    await dialog.getByTestId('channel-company').click();
    await dialog.getByTestId('channel-company').locator('input').fill(`Ромашка ${token}`);
    await pickOption(page, dialog.getByTestId('channel-company'), `Ромашка ${token}`);
    const keywords = dialog.getByTestId('channel-keywords');
    await keywords.click();
    await page.keyboard.type('Ромашка');
    await page.keyboard.press('Enter');
    await expect(dialog.getByText('только публичные каналы, новые посты появляются с задержкой')).toBeVisible();
    await dialog.getByRole('button', { name: /Добавить|Сохранить|Создать/ }).click();
    await expect(dialog).toBeHidden();
    // Another company follows the same channel (through the API): one source, two subscriptions.
    await ok(
      await api.post('/api/v1/modules/telegram/channels', {
        data: { link: `@${CHANNEL}`, company_id: north.id, keywords: ['Северный'] },
      }),
      'north follows',
    );

    // The server's collector (a pass every 5 s) reads the preview; /messages of the company shows the match.
    const romashkaChannel = (
      await ok<{ items: { id: number }[] }>(
        await api.get(`/api/v1/modules/telegram/channels?q=${CHANNEL}&company_id=${romashka.id}`),
        'channel',
      )
    ).items[0]?.id;
    await expect(async () => {
      await page.goto(`/messages?channel=${romashkaChannel}`);
      await expect(page.getByText('клиенты жалуются', { exact: false })).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 45_000 });
    const row = page.locator('tr', { hasText: 'клиенты жалуются' });
    await expect(row).toContainText(`@${CHANNEL}`);
    await expect(row.locator('.ant-tag', { hasText: 'Ромашка' })).toBeVisible();
    // Where it was forwarded from, the signature and the views are kept.
    await expect(row).toContainText('Переслано из Слухи рынка');
    await expect(row).toContainText('Редакция');
    await expect(row).toContainText(/2\s500/);
    // What the account collector records when Telegram edits or deletes a post: the row says so.
    await e2eSql(
      `UPDATE filtrator_messages SET edited_at = now() - interval '1 minute', deleted_at = now()
       WHERE channel_id = $1 AND message_id = 4`,
      [romashkaChannel],
    );
    await page.reload();
    await expect(row.getByText('изменено', { exact: true })).toBeVisible();
    await expect(row.getByText('удалено', { exact: true })).toBeVisible();
    // Posts about nobody, and the post about the other company, are not filed under this one.
    await expect(page.getByText('Обзор рынка за день')).toHaveCount(0);
    await expect(page.getByText('Северный Банк обновил приложение')).toHaveCount(0);
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: path.join(SHOTS, `messages-${width}.png`), fullPage: true });
    }

    // The channel list: the collector's state, matches and today's count.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/telegram/channels?q=${CHANNEL}`);
    const channelRow = page.locator('tr', { hasText: `Ромашка ${token}` });
    await expect(channelRow.getByTestId(`collector-${romashkaChannel}`)).toContainText('Собирается');
    await expect(channelRow).toContainText('сегодня 1');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: path.join(SHOTS, `channels-${width}.png`), fullPage: true });
    }
  } finally {
    // Back to the default address: later specs on this server must not read from a closed server.
    const api = await adminApi(baseURL);
    await api.delete('/api/v1/configs/telegram_preview_url');
    await tg.close();
  }
});

/*
 * «Войти» on /telegram/accounts against our API. No real Telegram runs in CI: the e2e server
 * (e2e/server-main.ts) gives accounts with a test number (+99966…) a stand-in "Telegram" on mtcute's
 * harness answering the real sign-in methods, so the dialog's steps run through the real routes, the
 * service and mtcute's sign-in code. Flood-wait: the state the API derives and the dialog's refusal.
 */
test('telegram: «Войти» — code, a wrong code refused in Russian, the cloud password, then «Активен»', async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL);
  const phone = `${E2E_PHONE_PREFIX}${String(Date.now()).slice(-5)}`;
  const acc = await ok<{ id: number }>(
    await api.post('/api/v1/modules/telegram/accounts', {
      data: { name: `Вход ${token}`, phone, api_id: '12345', api_hash: 'e2e-hash-not-real' },
    }),
    'account',
  );
  await login(page, `/telegram/accounts?q=${token}`);
  const row = page.getByTestId('accounts-table').getByRole('row', { name: new RegExp(`Вход ${token}`) });
  await expect(row.getByTestId(`account-state-${acc.id}`)).toHaveText('Нужен вход');
  await row.getByRole('button', { name: 'Войти' }).click();
  const dialog = page.getByTestId('telegram-login');
  const submit = dialog.getByTestId('telegram-login-submit');
  await expect(dialog.getByText(`Telegram отправит код входа на ${phone}`)).toBeVisible();
  await submit.click();
  // The code step; a wrong code is refused with the API's Russian words and the step stays.
  const code = dialog.getByLabel('Код из Telegram');
  await code.fill('11111');
  await submit.click();
  await expect(dialog.getByTestId('telegram-login-error')).toHaveText(TELEGRAM_MSG.codeInvalid);
  await page.screenshot({ path: path.join(SHOTS, 'login-wrong-code-1280.png') });
  await code.fill(LOGIN_CODE);
  await submit.click();
  // The account has a cloud password: its step, with Telegram's hint.
  const password = dialog.getByLabel('Облачный пароль');
  await expect(password).toBeVisible();
  await expect(dialog).toContainText(`Подсказка: ${PASSWORD_HINT}`);
  await expect(dialog.getByTestId('telegram-login-error')).toHaveCount(0);
  await password.fill('облачный пароль e2e');
  await submit.click();
  await expect(dialog.getByText('Вход выполнен: сессия сохранена, аккаунт активен')).toBeVisible();
  await submit.click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId(`account-state-${acc.id}`)).toHaveText('Активен');
  const got = await ok<{ state: string; has_session: boolean }>(
    await api.get(`/api/v1/modules/telegram/accounts/${acc.id}`),
    'account after sign-in',
  );
  expect(got).toMatchObject({ state: 'active', has_session: true });
});

test('telegram: an account in flood-wait — the state and the sign-in dialog’s refusal', async ({ page, baseURL }) => {
  const api = await adminApi(baseURL);
  const digits = String(Date.now()).slice(-7);
  const acc = await ok<{ id: number }>(
    await api.post('/api/v1/modules/telegram/accounts', {
      data: { name: `Сборщик ${token}`, phone: `+7995${digits}`, api_id: '12345', api_hash: 'e2e-hash-not-real' },
    }),
    'account',
  );
  await login(page, `/telegram/accounts?q=${token}`);
  const row = page.getByTestId('accounts-table').getByRole('row', { name: new RegExp(`Сборщик ${token}`) });
  await expect(row.getByText('Нужен вход')).toBeVisible();
  await e2eSql("UPDATE telegram_accounts SET flood_wait_until = now() + interval '1 hour' WHERE id = $1", [acc.id]);
  await page.reload();
  await expect(row.getByText(/Flood-wait до /)).toBeVisible();
  await row.getByRole('button', { name: 'Войти' }).click();
  const dialog = page.getByTestId('telegram-login');
  await expect(dialog.getByText(`Telegram отправит код входа на +7995${digits}`)).toBeVisible();
  await dialog.getByTestId('telegram-login-submit').click();
  await expect(dialog.getByTestId('telegram-login-error')).toContainText('Telegram просит подождать: вход возможен после');
  await expect(dialog.getByLabel('Код из Telegram')).toHaveCount(0);
  await page.screenshot({ path: path.join(SHOTS, 'login-flood-wait-1280.png') });
});
