import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MODULES } from '@forpost/contract/modules';
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Settings, whitelist, Telegram and messages, driven through the console against the real API:
 * a whitelist entry added in the UI marks a matching domain event; a channel added in the UI
 * receives a message from a collector API key, the message is found highlighted in /messages and
 * becomes an event; tags are merged, a media type in use refuses deletion, system settings save
 * with Russian validation and keep secrets write-only. Every page is screenshotted at 1440×900.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/settings');
const stamp = Date.now().toString(36);
const DOMAIN = `portal-${stamp}.ru`;
const CHANNEL = `forpost_e2e_${stamp}`;

interface Seeded {
  companyId: number;
  companyName: string;
  domainEventId: number;
  mediaEventId: number;
  mediaTypeName: string;
}
let seeded: Seeded;
let api: APIRequestContext;

/** Signs in with the seeded company selected in the header. */
async function open(page: Page) {
  await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), seeded.companyId);
  await login(page);
}

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  // Let tables settle (loading masks, fonts) before the capture.
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  // …and modal open/close animations.
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A modal dialog by its title. */
const dialog = (page: Page, title: string | RegExp) =>
  page.getByRole('dialog').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

test.describe
  .serial('settings, whitelist, telegram, messages', () => {
    test.beforeAll(async ({ baseURL }) => {
      mkdirSync(SHOTS, { recursive: true });
      api = await adminApi(baseURL);
      const companyName = `E2E Настройки ${stamp}`;
      const company = await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: companyName } }), 'company');
      const domainEvent = await ok<{ id: number; whitelist_kind: string | null }>(
        await api.post('/api/v1/modules/domains/events', {
          data: { company_id: company.id, domain: `login.${DOMAIN}`, url: `https://login.${DOMAIN}/auth` },
        }),
        'domain event',
      );
      expect(domainEvent.whitelist_kind).not.toBe('whitelistClient');
      const mediaTypeName = `Телеканал ${stamp}`;
      const mediaType = await ok<{ id: number }>(
        await api.post('/api/v1/modules/media/types', { data: { name: mediaTypeName } }),
        'media type',
      );
      const mediaEvent = await ok<{ id: number }>(
        await api.post('/api/v1/modules/media/events', {
          data: { company_id: company.id, ...MODULES.media.sample(7), media_type_id: mediaType.id },
        }),
        'media event',
      );
      seeded = { companyId: company.id, companyName, domainEventId: domainEvent.id, mediaEventId: mediaEvent.id, mediaTypeName };
    });

    test.afterAll(async () => {
      await api?.dispose();
    });

    test('a whitelist entry added in the UI marks the matching domain event; bulk add reports every line', async ({ page }) => {
      await open(page);
      await page.goto('/settings/whitelist?tab=company');
      await expect(page.getByTestId('page-title')).toHaveText('Белый список');
      await expect(page.getByTestId('tab-company')).toContainText(seeded.companyName);
      await expect(page.getByTestId('whitelist-table')).toContainText('Записей пока нет');

      // Per-type validation with the contract's Russian messages.
      await page.getByTestId('wl-add').click();
      const add = dialog(page, 'Новая запись');
      await add.getByTestId('wl-value').fill('не домен');
      await add.getByTestId('wl-value').blur();
      await expect(add).toContainText('Неверный формат домена');
      await add.getByTestId('wl-type').click();
      await page.locator('.ant-select-item-option', { hasText: 'IP или подсеть' }).click();
      await add.getByTestId('wl-value').fill('10.0.0.0/33');
      await add.getByTestId('wl-value').blur();
      await expect(add).toContainText('Некорректный IP или CIDR');
      await add.getByTestId('wl-type').click();
      await page.locator('.ant-select-item-option', { hasText: 'Домен' }).click();
      await add.getByTestId('wl-value').fill(DOMAIN);
      await add.getByLabel('Комментарий').fill('Основной портал клиента');
      await shot(page, 'whitelist-add-modal');
      await add.getByRole('button', { name: 'Добавить' }).click();
      await expect(add).toBeHidden();
      const table = page.getByTestId('whitelist-table');
      await expect(table).toContainText(DOMAIN);
      await expect(table).toContainText('Клиент');
      await expect(table).toContainText('Бессрочно');

      // The event is re-marked in the background: poll the API, then see it on the event page.
      await expect
        .poll(
          async () =>
            (
              await ok<{ whitelist_kind: string | null }>(
                await api.get(`/api/v1/modules/domains/events/${seeded.domainEventId}`),
                'event',
              )
            ).whitelist_kind,
          { timeout: 30_000 },
        )
        .toBe('whitelistClient');
      await page.goto(`/domains/${seeded.domainEventId}`);
      await expect(page.getByTestId('page-title')).toBeVisible();
      await expect(page.locator('main')).toContainText('Клиент');

      // Bulk add: one result per line.
      await page.goto('/settings/whitelist?tab=company');
      await page.getByTestId('wl-bulk').click();
      const bulk = dialog(page, 'Массовое добавление');
      await bulk
        .getByTestId('bulk-text')
        .fill([`shop-${stamp}.ru`, '10.1.2.0/24', 'bad@@mail', '999.1.1.1', DOMAIN, `https://shop-${stamp}.ru/pay`].join('\n'));
      await expect(bulk).toContainText('6 строк');
      await bulk.getByTestId('bulk-submit').click();
      const result = bulk.getByTestId('bulk-result');
      await expect(result).toContainText('Добавлено: 3');
      await expect(result).toContainText('С ошибками: 3');
      // Only the failures are listed first, each with its Russian reason.
      await expect(result).toContainText('Неверный формат email');
      await expect(result).toContainText('Некорректный IP или CIDR');
      await expect(result).toContainText('Такая запись уже есть в белом списке');
      await result.getByText('Все (6)').click();
      await expect(result.locator('.ant-typography-success')).toHaveCount(3);
      await expect(result.locator('.ant-typography-danger')).toHaveCount(3);
      await shot(page, 'whitelist-bulk-result');
      await bulk.getByRole('button', { name: 'Готово' }).click();
      await expect(bulk).toBeHidden();
      await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(4);
      await shot(page, 'whitelist-company');

      // Filters live in the URL.
      await page.getByTestId('filter-type').click();
      await page.locator('.ant-select-item-option', { hasText: 'IP или подсеть' }).click();
      await expect(page).toHaveURL(/type=ip/);
      await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(1);
      await expect(table).toContainText('10.1.2.0/24');

      await page.goto('/settings/whitelist?tab=global');
      await expect(page.getByTestId('whitelist-table')).toBeVisible();
      await shot(page, 'whitelist-global');
    });

    test('a channel added in the UI gets a collected message, found highlighted in /messages and turned into an event', async ({
      page,
      baseURL,
    }) => {
      await open(page);
      await page.goto('/telegram/channels');
      await expect(page.getByTestId('page-title')).toHaveText('Каналы');
      await page.getByTestId('channel-add').click();
      const add = dialog(page, 'Новый канал');
      await add.getByTestId('channel-link').fill('t.me/+invite');
      await add.getByTestId('channel-link').blur();
      await expect(add).toContainText('Неверная ссылка на канал');
      await add.getByTestId('channel-link').fill(`https://t.me/${CHANNEL.toUpperCase()}`);
      await expect(add).toContainText(`Сохранится как @${CHANNEL}`);
      await add.getByTestId('channel-title').fill('Сливы и утечки');
      // The company comes preselected from the header.
      await expect(add.getByTestId('channel-company')).toContainText(seeded.companyName);
      const keywords = add.getByTestId('channel-keywords').locator('input');
      for (const k of ['утечка', 'пароли']) {
        await keywords.fill(k);
        await keywords.press('Enter');
      }
      await shot(page, 'channel-modal');
      await add.getByRole('button', { name: 'Добавить' }).click();
      await expect(add).toBeHidden();
      const row = page.getByTestId('channels-table').locator('tbody tr', { hasText: `@${CHANNEL}` });
      await expect(row).toContainText('Сливы и утечки');
      await expect(row).toContainText('утечка');
      await expect(row).toContainText('пароли');
      await expect(row.getByRole('switch')).toBeChecked();

      // A collector key (admin, via the API) posts two messages to the channel.
      const key = await ok<{ secret: string }>(
        await api.post('/api/v1/apikeys', { data: { name: `Сборщик ${stamp}`, company_id: seeded.companyId, collector: true } }),
        'api key',
      );
      const collector = await request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${key.secret}` } });
      const text = `Внимание!\nВ даркнете выставлена утечка паролей сотрудников ${seeded.companyName}: 12 000 строк.`;
      const msg = await ok<{ id: number; rules: string[] }>(
        await collector.post('/api/v1/modules/filtrator/messages', {
          data: { channel: `@${CHANNEL}`, message_id: 101, text, posted_at: new Date().toISOString(), author: 'anon' },
        }),
        'collect',
      );
      expect(msg.rules.sort()).toEqual(['пароли', 'утечка']);
      // Markup in a message is text, never HTML.
      const hostile = await ok<{ id: number }>(
        await collector.post('/api/v1/modules/filtrator/messages', {
          data: {
            channel: `@${CHANNEL}`,
            message_id: 102,
            text: 'Опять утечка <img src=x onerror="window.__xss=1"> <b>жирный</b>',
            posted_at: new Date().toISOString(),
          },
        }),
        'collect hostile',
      );
      await collector.dispose();

      await page.goto('/messages');
      const messages = page.getByTestId('messages-table');
      const first = messages.getByTestId(`message-link-${msg.id}`);
      await expect(first.locator('mark').first()).toBeVisible();
      await expect(first.locator('mark', { hasText: 'утечка' })).toBeVisible();
      const evil = messages.getByTestId(`message-link-${hostile.id}`);
      await expect(evil).toContainText('<img src=x onerror="window.__xss=1">');
      await expect(evil.locator('img, b')).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();

      // Full-text search from the UI, in the URL; the found word form is marked.
      await page.getByTestId('messages-q').locator('input').fill('пароль');
      await page.getByTestId('messages-q').locator('input').press('Enter');
      await expect(page).toHaveURL(/q=/);
      await expect(messages.locator('tbody tr.ant-table-row')).toHaveCount(1);
      await expect(first.locator('mark', { hasText: 'паролей' })).toBeVisible();
      await shot(page, 'messages-search');

      await first.click();
      await expect(page).toHaveURL(new RegExp(`/messages/${msg.id}`));
      await expect(page.getByTestId('page-title')).toHaveText(`Сообщение №${msg.id}`);
      await expect(page.getByTestId('message-text').locator('mark', { hasText: 'утечка' })).toBeVisible();
      await expect(page.getByTestId('message-text').locator('mark', { hasText: 'паролей' })).toBeVisible();
      const original = page.getByTestId('message-original');
      await expect(original).toHaveAttribute('href', `https://t.me/${CHANNEL}/101`);
      await expect(original).toHaveAttribute('rel', 'noopener noreferrer');
      await expect(page.getByTestId('message-rules')).toContainText('утечка');
      await shot(page, 'message-detail');

      await page.getByTestId('to-event').click();
      const toEvent = dialog(page, 'Создать событие из сообщения');
      await toEvent.getByTestId('to-event-module').click();
      await toEvent.getByTestId('to-event-module').locator('input').fill('СМИ');
      await page.locator('.ant-select-item-option', { hasText: 'СМИ' }).click();
      await expect(toEvent).toContainText('заполнятся из сообщения');
      await shot(page, 'to-event-modal');
      await toEvent.getByRole('button', { name: 'Создать событие' }).click();
      await expect(page).toHaveURL(/\/media\/\d+$/);
      const eventId = Number(new URL(page.url()).pathname.split('/').pop());
      const ev = await ok<{ company_id: number; source: string; url?: string; title: string }>(
        await api.get(`/api/v1/modules/media/events/${eventId}`),
        'event',
      );
      expect(ev).toMatchObject({ company_id: seeded.companyId, source: 'Telegram', title: 'Внимание!' });
      await expect(page.getByTestId('page-title')).toBeVisible();

      await page.goto('/messages');
      await expect(messages.locator('tbody tr.ant-table-row')).toHaveCount(2);
      await shot(page, 'messages');
      await page.goto('/telegram/channels');
      await expect(page.getByTestId('channels-table')).toContainText(`@${CHANNEL}`);
      await shot(page, 'telegram-channels');
    });

    test('telegram accounts keep their keys write-only', async ({ page }) => {
      await open(page);
      await page.goto('/telegram/accounts');
      await expect(page.getByTestId('accounts-table')).toBeVisible();
      await page.getByRole('button', { name: 'Добавить аккаунт' }).first().click();
      const add = dialog(page, 'Новый аккаунт Telegram');
      await add.getByLabel('Название').fill(`Сборщик ${stamp}`);
      await add.getByLabel('Телефон').fill('8 (912) 345-67-89');
      await expect(add).toContainText('Сохранится как +79123456789');
      await add.getByLabel('api_id').fill('abc');
      await add.getByLabel('api_id').blur();
      await expect(add).toContainText('api_id — это число');
      await add.getByLabel('api_id').fill('123456');
      await add.getByLabel('api_hash').fill('0123456789abcdef0123456789abcdef');
      await add.getByRole('button', { name: 'Добавить' }).click();
      await expect(add).toBeHidden();
      const row = page.getByTestId('accounts-table').locator('tbody tr', { hasText: `Сборщик ${stamp}` });
      await expect(row).toContainText('+79123456789');
      await expect(row).toContainText('api_id: задано');
      await expect(row).toContainText('сессия: не задано');
      await row.getByRole('button', { name: /Изменить/ }).click();
      const edit = dialog(page, `Аккаунт «Сборщик ${stamp}»`);
      await expect(edit.getByLabel('api_id')).toHaveValue('');
      await expect(edit.getByLabel('api_hash')).toHaveValue('');
      await shot(page, 'account-modal');
      await edit.getByRole('button', { name: 'Отмена' }).click();
      await expect(edit).toBeHidden();
      await shot(page, 'telegram-accounts');
    });

    test('tags: create in the UI, usage counts, merge two tags', async ({ page }) => {
      const a = await ok<{ id: number }>(
        await api.post('/api/v1/tags', { data: { name: `Фишинг ${stamp}`, color: '#f5222d' } }),
        'tag',
      );
      await ok(
        await api.patch(`/api/v1/modules/domains/events/${seeded.domainEventId}`, { data: { tags_add: [a.id] } }),
        'tag event',
      );
      await open(page);
      await page.goto('/settings/tags');
      await expect(page.getByTestId(`tag-usage-${a.id}`)).toHaveText('1 событие');
      await page.getByRole('button', { name: 'Добавить тег' }).first().click();
      const add = dialog(page, 'Новый тег');
      await add.getByLabel('Название').fill(`Фишинговые ${stamp}`);
      await add.getByRole('button', { name: 'Добавить' }).click();
      await expect(add).toBeHidden();
      const table = page.getByTestId('tags-table');
      await expect(table).toContainText(`Фишинговые ${stamp}`);

      await table
        .locator('tbody tr', { hasText: `Фишинг ${stamp}` })
        .getByRole('button', { name: /Объединить/ })
        .click();
      const merge = dialog(page, 'Объединить теги');
      await merge.getByTestId('merge-target').click();
      await page.locator('.ant-select-item-option', { hasText: `Фишинговые ${stamp}` }).click();
      await expect(merge).toContainText('будет удалён');
      await shot(page, 'tags-merge');
      await merge.getByRole('button', { name: 'Объединить' }).click();
      await expect(merge).toBeHidden();
      await expect(table.locator('tbody tr', { hasText: `Фишинговые ${stamp}` })).toContainText('1 событие');
      await expect(table.locator('tbody tr', { hasText: new RegExp(`^Фишинг ${stamp}`) })).toHaveCount(0);
      const ev = await ok<{ tags: number[] }>(await api.get(`/api/v1/modules/domains/events/${seeded.domainEventId}`), 'event');
      expect(ev.tags).not.toContain(a.id);
      expect(ev.tags).toHaveLength(1);
      await shot(page, 'tags');
    });

    test('reference lists: media types (in use → refused), leaks catalogue, leak types', async ({ page }) => {
      await open(page);
      await page.goto('/settings/media-types');
      await page.getByTestId('list-search').locator('input').fill(seeded.mediaTypeName);
      await page.getByTestId('list-search').locator('input').press('Enter');
      await expect(page).toHaveURL(/q=/);
      const row = page.getByTestId('media-types-table').locator('tbody tr', { hasText: seeded.mediaTypeName });
      await row.getByRole('button', { name: /Удалить/ }).click();
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Удалить' }).click();
      await expect(page.locator('.ant-message')).toContainText('Тип СМИ используется в событиях');
      await expect(row).toBeVisible();
      await page.goto('/settings/media-types');
      await page.getByRole('button', { name: 'Добавить тип' }).click();
      const addType = dialog(page, 'Новый тип СМИ');
      await addType.getByLabel('Название').fill(`Блог ${stamp}`);
      await addType.getByRole('button', { name: 'Добавить' }).click();
      await expect(page.getByTestId('media-types-table')).toContainText(`Блог ${stamp}`);
      await shot(page, 'media-types');

      await page.goto('/settings/leaks');
      await expect(page.getByRole('link', { name: 'Импорт' })).toHaveAttribute('href', '/settings/leaks/import');
      await page.getByRole('button', { name: 'Добавить утечку' }).click();
      const addLeak = dialog(page, 'Новая утечка');
      await addLeak.getByLabel('Название').fill(`База магазина ${stamp}`);
      await addLeak.getByLabel('Источник').fill('не ссылка');
      await addLeak.getByLabel('Источник').blur();
      await expect(addLeak).toContainText('Неверный формат URL');
      await addLeak.getByLabel('Источник').fill('https://example.org/leak');
      await addLeak.getByLabel('Записей').fill('150000');
      await addLeak.getByRole('button', { name: 'Добавить' }).click();
      await expect(addLeak).toBeHidden();
      await expect(page.getByTestId('leaks-table')).toContainText(`База магазина ${stamp}`);
      await expect(page.getByTestId('leaks-table')).toContainText('150 000');
      await shot(page, 'leaks');

      await page.goto('/settings/leaks-types');
      await expect(page.getByTestId('leak-types-table').locator('tbody tr.ant-table-row').first()).toBeVisible();
      await shot(page, 'leaks-types');
    });

    test('system configuration: grouped, validated in Russian, secrets write-only', async ({ page }) => {
      await open(page);
      await page.goto('/settings/configs');
      await expect(page.getByTestId('config-group-mail')).toContainText('Почта');
      await expect(page.getByTestId('config-group-files')).toContainText('Файлы и выгрузки');

      const from = page.getByTestId('config-mail_from');
      await from.getByRole('textbox').fill('не почта');
      await from.getByTestId('config-save').click();
      await expect(from).toContainText('Неверный адрес отправителя');

      const days = page.getByTestId('config-export_retention_days');
      await expect(days).toContainText('дн.');
      await days.getByRole('spinbutton').fill('45');
      await days.getByTestId('config-save').click();
      await expect(page.locator('.ant-message')).toContainText('Срок хранения выгрузок');
      await expect(days).toContainText('Изменено');

      // A secret: «не задано» → set → «задано», the field stays empty (never shown back).
      const smtp = page.getByTestId('config-smtp_url');
      await expect(smtp.getByTestId('secret-state')).toHaveText('не задано');
      await smtp.locator('input').fill('http://not-smtp');
      await smtp.getByTestId('config-save').click();
      await expect(smtp).toContainText('Неверный адрес SMTP');
      await smtp.locator('input').fill('smtp://user:secret@mail.example.ru:587');
      await smtp.getByTestId('config-save').click();
      await expect(smtp.getByTestId('secret-state')).toHaveText('задано');
      await expect(smtp.locator('input')).toHaveValue('');
      await page.reload();
      await expect(page.getByTestId('config-smtp_url').getByTestId('secret-state')).toHaveText('задано');
      await expect(page.getByTestId('config-smtp_url').locator('input')).toHaveValue('');
      await shot(page, 'configs');

      // Put both back (the other specs read mail from .eml files).
      for (const key of ['smtp_url', 'export_retention_days']) {
        const r = page.getByTestId(`config-${key}`);
        await r.getByRole('button', { name: /Удалить значение|Сбросить по умолчанию/ }).click();
        await page
          .locator('.ant-popconfirm')
          .getByRole('button', { name: /Удалить|Сбросить/ })
          .click();
        await expect(page.locator('.ant-popconfirm')).toBeHidden();
      }
      await expect(page.getByTestId('config-smtp_url').getByTestId('secret-state')).toHaveText('не задано');
      await expect(page.getByTestId('config-export_retention_days').getByRole('spinbutton')).toHaveValue('30');
    });
  });
