import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { maskCardNumber } from '@forpost/contract/helpers';
import { MSG } from '@forpost/contract/messages';
import { EVENT_MSG, sampleCard } from '@forpost/contract/modules';
import { expect, type Page, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * The event detail page: «Изменить» of the module's own fields (client-side validation with the
 * registry's messages, save, the change in the history, no edit for a viewer) and «Перепроверить» of a
 * domain → the snapshot producer's job → a snapshot with its screenshot in the timeline. The e2e server
 * (scripts/e2e-server.mjs) maps snapshot-target.ru to a page it serves on loopback.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/event-detail');
const stamp = Date.now().toString(36);
const CARD = sampleCard(Date.now() % 100_000, '427638');
const VIEWER = { email: `viewer-${stamp}@forpost.test`, password: '' };

let companyId = 0;
let domainId = 0;
let firmId = 0;
let otherFirmId = 0;
let cardId = 0;

async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function open(page: Page, credentials?: { email: string; password: string }) {
  await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
  await login(page, undefined, credentials);
}

test.describe
  .serial('event detail: edit fields, domain snapshots', () => {
    test.beforeAll(async ({ baseURL }) => {
      mkdirSync(SHOTS, { recursive: true });
      const api = await adminApi(baseURL);
      companyId = (
        await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Карточка ${stamp}` } }), 'company')
      ).id;
      domainId = (
        await ok<{ id: number }>(
          await api.post('/api/v1/modules/domains/events', {
            data: {
              company_id: companyId,
              domain: 'snapshot-target.ru',
              url: 'https://snapshot-target.ru/login',
              ip: '185.10.0.7',
              registrar: 'REG.RU',
              registered_at: '2026-01-15',
              similarity: 91,
            },
          }),
          'domain event',
        )
      ).id;
      firmId = (
        await ok<{ id: number }>(
          await api.post('/api/v1/modules/firms/events', {
            data: { company_id: companyId, firm_name: `ООО «Двойник ${stamp}»`, inn: '7707083893' },
          }),
          'firm event',
        )
      ).id;
      otherFirmId = (
        await ok<{ id: number }>(
          await api.post('/api/v1/modules/firms/events', {
            data: { company_id: companyId, firm_name: 'ООО «Другая»', inn: '7736207543' },
          }),
          'other firm event',
        )
      ).id;
      cardId = (
        await ok<{ id: number }>(
          await api.post('/api/v1/modules/acquiring/events', {
            data: { company_id: companyId, card_number: CARD, card_holder: 'IVAN PETROV', bank: 'ПАО Сбербанк' },
          }),
          'card event',
        )
      ).id;
      // An earlier check that failed (as an external collector would post it): the timeline shows its reason.
      await ok(
        await api.post(`/api/v1/modules/domains/events/snapshots/${domainId}`, {
          data: { taken_at: '2026-11-01T09:30:00Z', error: 'Домен не найден в DNS (NXDOMAIN)' },
        }),
        'failed snapshot',
      );
      const viewer = await ok<{ generated_password: string }>(
        await api.post('/api/v1/users', {
          data: {
            email: VIEWER.email,
            name: 'Наблюдатель',
            role: 'COMPANY_USER',
            companies: [{ company_id: companyId, role: 'COMPANY_VIEWER' }],
          },
        }),
        'viewer',
      );
      VIEWER.password = viewer.generated_password;
      await api.dispose();
    });

    test('«Изменить»: the registry’s validation messages, save, the change in the history', async ({ page }) => {
      await open(page);
      await page.goto(`/domains/${domainId}`);
      const card = page.getByTestId('event-fields');
      await expect(card).toContainText('REG.RU');
      await page.getByTestId('fields-edit').click();
      const form = page.getByTestId('event-fields-form');
      await expect(form.locator('#event-fields_registrar')).toHaveValue('REG.RU');
      await expect(form.locator('#event-fields_domain')).toHaveValue('snapshot-target.ru');

      // Bad values get the same messages as the API (the registry's zod schemas).
      await form.locator('#event-fields_url').fill('ссылка без протокола');
      await form.locator('#event-fields_ip').fill('300.1.2.3');
      await form.locator('#event-fields_domain').fill('');
      await page.getByTestId('fields-save').click();
      await expect(form).toContainText(MSG.url);
      await expect(form).toContainText(EVENT_MSG.ip);
      await expect(form).toContainText(MSG.required);
      await expect(page.getByTestId('event-fields-error')).toHaveText(MSG.fillRequired);
      await shot(page, 'edit-mode-validation');

      // Good values are saved; only what changed is sent and lands in the history.
      await form.locator('#event-fields_domain').fill('snapshot-target.ru');
      await form.locator('#event-fields_url').fill('https://snapshot-target.ru/bonus');
      await form.locator('#event-fields_ip').fill('185.10.0.8');
      await form.locator('#event-fields_registrar').fill('RU-CENTER');
      await expect(form).not.toContainText(MSG.url);
      await shot(page, 'edit-mode-filled');
      await page.getByTestId('fields-save').click();
      await expect(page.locator('.ant-message')).toContainText('Изменения сохранены');
      await expect(page.getByTestId('event-fields-form')).toHaveCount(0);
      await expect(card).toContainText('RU-CENTER');
      await expect(card).toContainText('https://snapshot-target.ru/bonus');
      const history = page.getByTestId('history');
      await expect(history).toContainText('Регистратор');
      await expect(history).toContainText('RU-CENTER');
      await expect(history).toContainText('185.10.0.8');
      await shot(page, 'edit-saved-history');

      // A firm's INN: the check digit is verified in the form; the API's refusal (another event already
      // has this INN) lands on the field too.
      await page.goto(`/firms/${firmId}`);
      await page.getByTestId('fields-edit').click();
      const firmForm = page.getByTestId('event-fields-form');
      const inn = firmForm.locator('#event-fields_inn');
      await inn.fill('7707083894');
      await page.getByTestId('fields-save').click();
      await expect(firmForm).toContainText(MSG.inn);
      await inn.fill('7736207543');
      // The check-digit message goes (antd animates it out) before the server's answer comes.
      await expect(firmForm.getByText(MSG.inn)).toHaveCount(0);
      await page.getByTestId('fields-save').click();
      // On the fields that identify the event (antd may still be animating the old message out).
      await expect(firmForm.locator('.ant-form-item-explain-error', { hasText: EVENT_MSG.duplicate }).first()).toHaveText(
        `${EVENT_MSG.duplicate} (№${otherFirmId})`,
      );
      await shot(page, 'edit-server-error');
      await inn.fill('7702070139');
      await page.getByTestId('fields-save').click();
      await expect(page.getByTestId('event-fields')).toContainText('7702070139');
      await expect(page.getByTestId('history')).toContainText('7702070139');
    });

    test('at 1280 px the «Обработка» card holds its selects and buttons: no sideways scroll', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await login(page, `/domains/${domainId}`);
      await expect(page.getByTestId('triage-card')).toBeVisible();
      await expect(page.getByTestId('triage-card').getByText('Состояние ML')).toBeVisible();
      const sizes = await page.evaluate(() => {
        const card = document.querySelector('[data-testid="triage-card"]') as HTMLElement;
        return { page: document.documentElement.scrollWidth, card: card.scrollWidth - card.clientWidth };
      });
      expect(sizes).toEqual({ page: 1280, card: 0 });
    });

    test('a card number never enters the form: empty field, the mask as a hint', async ({ page }) => {
      await open(page);
      await page.goto(`/acquiring/${cardId}`);
      await page.getByTestId('fields-edit').click();
      const card = page.locator('#event-fields_card_number');
      await expect(card).toHaveValue('');
      await expect(card).toHaveAttribute('placeholder', `${maskCardNumber(CARD)} — оставьте пустым, чтобы не менять`);
      expect(await page.content()).not.toContain(CARD);
      // Saving another field keeps the number.
      await page.locator('#event-fields_card_holder').fill('PETR IVANOV');
      await page.getByTestId('fields-save').click();
      await expect(page.getByTestId('event-fields')).toContainText('PETR IVANOV');
      await expect(page.getByTestId('card-number')).toHaveText(maskCardNumber(CARD));
      await shot(page, 'edit-card-saved');
    });

    test('a viewer sees the fields without «Изменить»', async ({ page }) => {
      await open(page, VIEWER);
      await page.goto(`/domains/${domainId}`);
      await expect(page.getByTestId('event-fields')).toContainText('RU-CENTER');
      await expect(page.getByTestId('fields-edit')).toHaveCount(0);
    });

    test('«Перепроверить» → a snapshot with status, IP, title and a screenshot that opens full size', async ({ page }) => {
      test.setTimeout(120_000);
      await open(page);
      await page.goto(`/domains/${domainId}`);
      const timeline = page.getByTestId('domain-snapshots');
      await expect(timeline.getByTestId('snapshot-item')).toHaveCount(1);
      await expect(timeline.getByTestId('snapshot-error')).toHaveText(/Домен не найден в DNS \(NXDOMAIN\)/);
      await expect(timeline.getByTestId('snapshot-no-screenshot')).toBeVisible();
      await page.getByTestId('action-recheck').click();
      await page.getByRole('dialog').getByRole('button', { name: 'Отправить' }).click();
      await expect(page.getByRole('dialog')).toBeHidden();
      await expect(page.locator('.ant-message')).toContainText('Проверка сайта поставлена в очередь');
      await expect(timeline.getByTestId('snapshot-item')).toHaveCount(2, { timeout: 60_000 });
      const item = timeline.getByTestId('snapshot-item').first();
      await expect(item).toContainText('HTTP 200');
      await expect(item).toContainText('IP: 127.0.0.1');
      await expect(item.getByTestId('snapshot-title')).toHaveText('Сбербанк Онлайн — бонусы (фишинг)');
      await expect(item).toContainText('http://snapshot-target.ru:');
      const thumb = item.locator('img');
      await expect(thumb).toBeVisible();
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
      await timeline.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, 'snapshots-timeline.png'), fullPage: true });
      await timeline.screenshot({ path: path.join(SHOTS, 'snapshots-timeline-card.png') });

      // Full size: the preview shows the whole 1280×800 capture.
      await thumb.click();
      const preview = page.locator('.ant-image-preview-img');
      await expect(preview).toBeVisible();
      await page.waitForTimeout(800); // the opening animation
      await page.screenshot({ path: path.join(SHOTS, 'snapshot-preview.png') });
      await page.keyboard.press('Escape');
      await expect(preview).toHaveCount(0);
    });

    // Issue #30 item 11: each figure of the card says what it is and whose it is — the source's
    // «Схожесть, %» beside the built-in classifier's «Риск фишинга по оценке классификатора Форпоста».
    test('the card names the classifier’s figure and whose it is, beside the imported similarity', async ({ page }) => {
      test.setTimeout(120_000);
      await open(page);
      await page.goto(`/domains/${domainId}`);
      await expect(page.getByText('Схожесть, %', { exact: true })).toBeVisible();
      const ml = page.getByTestId('ml-state');
      // The worker classifies the new event within seconds (every 2 s); the card refetches its state.
      await expect
        .poll(
          async () => {
            await page.reload();
            return expect(ml.getByTestId('ml-score'))
              .toBeVisible({ timeout: 5_000 })
              .then(
                () => true,
                () => false,
              );
          },
          { timeout: 90_000, intervals: [2_000, 5_000] },
        )
        .toBe(true);
      await expect(ml.getByTestId('ml-score')).toHaveText(/^Риск фишинга по оценке классификатора Форпоста: \d{1,3}%$/);
      await expect(ml).toContainText('Встроенный');
      // The imported similarity, named as the source's, and how the verdict used it.
      await expect(ml).toContainText('Схожесть по данным источника: 91%');
      await ml.scrollIntoViewIfNeeded();
      for (const size of [
        { width: 1280, height: 800 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(size);
        await page.screenshot({ path: path.join(SHOTS, `ml-score-${size.width}.png`), fullPage: true });
      }
    });

    test('the producer’s settings are in «Интеграции»', async ({ page }) => {
      await open(page);
      await page.goto('/settings/configs');
      const group = page.getByTestId('config-group-integrations');
      await expect(group).toContainText('Интеграции');
      await expect(page.getByTestId('config-snapshot_timeout_seconds')).toContainText('Снимки доменов: таймаут проверки');
      await expect(page.getByTestId('config-snapshot_timeout_seconds').getByRole('spinbutton')).toHaveValue('15');
      await expect(page.getByTestId('config-snapshot_chromium_path')).toContainText('CHROMIUM_PATH');
      await group.scrollIntoViewIfNeeded();
      await group.screenshot({ path: path.join(SHOTS, 'configs-integrations.png') });
    });
  });
