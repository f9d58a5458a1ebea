import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MODULES } from '@forpost/contract/modules';
import { expect, type Page, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Assignment: bulk «Назначить» from a module's list (the assignee chosen with the keyboard in the
 * dialog), the «Исполнитель» column, the assignee's «Мои события» and the bell's notification,
 * opened and marked read.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/assignment');
const stamp = Date.now().toString(36);
const ANALYST = { email: `analyst-${stamp}@forpost.test`, name: `Ирина Исполнитель ${stamp}`, password: '' };
let companyId = 0;
const ids: number[] = [];

/** The list's row of an event, by its domain. */
const rowOf = (page: Page, i: number) =>
  page.locator('[data-testid="events-table"] tbody tr.ant-table-row').filter({ hasText: `assign-${i}-${stamp}.ru` });
const shoot = async (page: Page, name: string, width: number) =>
  page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: false });
const sizes = [
  [1280, 800],
  [1920, 1080],
] as const;

test.describe
  .serial('assignment', () => {
    test.describe.configure({ timeout: 120_000 });
    test.beforeAll(async ({ baseURL }) => {
      mkdirSync(SHOTS, { recursive: true });
      const api = await adminApi(baseURL);
      companyId = (
        await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Назначения ${stamp}` } }), 'company')
      ).id;
      for (let i = 1; i <= 3; i++)
        ids.push(
          (
            await ok<{ id: number }>(
              await api.post('/api/v1/modules/domains/events', {
                data: { company_id: companyId, ...MODULES.domains.sample(i), domain: `assign-${i}-${stamp}.ru` },
              }),
              'event',
            )
          ).id,
        );
      ANALYST.password = (
        await ok<{ generated_password: string }>(
          await api.post('/api/v1/users', {
            data: {
              email: ANALYST.email,
              name: ANALYST.name,
              role: 'COMPANY_USER',
              companies: [{ company_id: companyId, role: 'COMPANY_ANALYST' }],
            },
          }),
          'analyst',
        )
      ).generated_password;
      await api.dispose();
    });

    test('bulk «Назначить» from the list, the assignee picked with the keyboard', async ({ page }) => {
      await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
      await login(page);
      await page.goto('/domains');
      for (const i of [1, 2, 3]) await expect(rowOf(page, i)).toBeVisible();
      for (const i of [1, 2, 3]) await rowOf(page, i).locator('.ant-table-selection-column .ant-checkbox').click();
      await page.getByTestId('bulk-assign').click();
      const dialog = page.getByRole('dialog', { name: 'Назначить исполнителя' });
      await expect(dialog).toContainText('Для: 3 события');
      // The select takes the focus once the dialog is shown: type, choose with Enter, confirm.
      await expect(dialog.getByRole('combobox')).toBeFocused();
      await page.keyboard.type('Ирина');
      await expect(page.locator('.ant-select-item-option').filter({ hasText: ANALYST.name })).toBeVisible();
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await shoot(page, 'assign-dialog', width);
      }
      await page.keyboard.press('Enter');
      await expect(dialog.getByTestId('assign-dialog-select')).toContainText(ANALYST.name);
      await dialog.getByTestId('assign-ok').click();
      await expect(page.getByText('Исполнитель назначен: 3 события')).toBeVisible();
      const header = page.locator('thead th').filter({ hasText: 'Исполнитель' });
      await expect(header).toBeVisible();
      for (const i of [1, 2, 3]) await expect(rowOf(page, i)).toContainText(ANALYST.name.slice(0, 12));
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await shoot(page, 'list', width);
      }
      // The filter «Исполнитель» keeps exactly them.
      await page.goto('/domains?assignee=none');
      await expect(page.getByTestId('list-empty')).toBeVisible({ timeout: 30_000 });
      for (const i of [1, 2, 3]) await expect(rowOf(page, i)).toHaveCount(0);
    });

    test('«Мои события» lists them; the bell shows the notification and marks it read', async ({ page }) => {
      await login(page, undefined, { email: ANALYST.email, password: ANALYST.password });
      const badge = page.getByTestId('bell-badge');
      await expect(badge.locator('.ant-badge-count')).toHaveText('1');
      await page.getByRole('menuitem', { name: 'Мониторинг' }).click();
      await page.getByRole('link', { name: 'Мои события' }).click();
      await expect(page).toHaveURL(/\/my-events$/);
      const links = page.getByTestId('my-event-link');
      await expect(links).toHaveCount(3);
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await shoot(page, 'my-events', width);
      }
      await page.getByTestId('bell').click();
      const panel = page.getByTestId('bell-panel');
      await expect(panel.getByTestId('bell-item').first()).toContainText('назначил(а) вам событий: 3');
      await expect(panel.locator('[data-unread="true"]')).toHaveCount(1);
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await shoot(page, 'bell', width);
      }
      await panel.getByTestId('bell-read-all').click();
      await expect(panel.locator('[data-unread="true"]')).toHaveCount(0);
      await expect(badge.locator('.ant-badge-count')).toHaveCount(0);
      // A row opens the event in its module.
      await page.keyboard.press('Escape');
      await links.first().click();
      await expect(page).toHaveURL(new RegExp(`/domains/(${ids.join('|')})$`));
      await expect(page.getByTestId('triage-assignee_id')).toContainText(ANALYST.name);
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await shoot(page, 'detail', width);
      }
    });
  });
