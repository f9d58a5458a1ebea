import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Keyboard triage: in a filtered list j/k move the marked row and Enter opens it; on the card j/k step
 * to the next/previous event of the same filter (across a page edge), s + a digit sets the status,
 * ? shows the keys, u returns to the list with its filter. Each step is screenshot at 1280 and 1920 px
 * (the page as the user sees it, not the full page) to .tmp/shots/keyboard.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/keyboard');

/**
 * The list's column widths follow its measured width (a ResizeObserver): after a resize, wait until the
 * header cells stand over the cells of the first row again.
 */
async function settled(page: Page): Promise<void> {
  await expect(async () => {
    const offsets = await page.evaluate(() => {
      const row = document.querySelector('.ant-table-tbody > tr.ant-table-row');
      const head = row?.closest('.ant-table')?.querySelector('.ant-table-thead > tr');
      const lefts = (r: Element | null | undefined) =>
        [...(r?.children ?? [])].map((c) => Math.round(c.getBoundingClientRect().left));
      return { head: lefts(head), body: lefts(row) };
    });
    if (offsets.body.length) expect(offsets.head.slice(0, offsets.body.length)).toEqual(offsets.body);
  }).toPass({ timeout: 15_000 });
}

/** The viewport as the test left it (1280×800), then at 1920×1080; the test goes on at 1280. */
async function shots(page: Page, name: string): Promise<void> {
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    await settled(page);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await settled(page);
}

const stamp = Date.now().toString(36);
let companyId = 0;
const ids: number[] = [];

test.describe
  .serial('keyboard triage', () => {
    test.beforeAll(async ({ baseURL }) => {
      mkdirSync(SHOTS, { recursive: true });
      const api = await adminApi(baseURL);
      companyId = (
        await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Клавиши ${stamp}` } }), 'company')
      ).id;
      for (let i = 1; i <= 3; i++) {
        const e = await ok<{ id: number }>(
          await api.post('/api/v1/modules/domains/events', {
            data: { company_id: companyId, domain: `keys-${stamp}-${i}.ru`, registrar: `Клавиши ${stamp}` },
          }),
          'event',
        );
        ids.push(e.id);
      }
    });

    test('j/k and Enter in the list; next/previous, status by key and help on the card', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
      await login(page);
      // Newest first; two per page, so stepping crosses a page edge.
      await page.goto(`/domains?registrar=${encodeURIComponent(`Клавиши ${stamp}`)}&page_size=2`);
      // Page 1 holds the two newest; the oldest is on page 2.
      await expect(page.locator(`tr[data-row-key="${ids[1]}"]`)).toBeVisible();
      await expect(page.locator(`tr[data-row-key="${ids[0]}"]`)).toHaveCount(0);
      await page.getByTestId('page-title').click();
      await page.keyboard.press('j');
      await expect(page.locator(`tr[data-row-key="${ids[2]}"]`)).toHaveAttribute('data-active', 'true');
      await page.keyboard.press('j');
      const marked = page.locator(`tr[data-row-key="${ids[1]}"]`);
      await expect(marked).toHaveAttribute('data-active', 'true');
      // The mark is drawn by every cell, the pinned ones too (the row's own outline is under them).
      for (const cell of [marked.locator('td').first(), marked.getByRole('cell', { name: `keys-${stamp}-2.ru` })])
        await expect(cell).toHaveCSS('box-shadow', /rgb\(47, 84, 235\)/);
      await shots(page, 'list-active-row');
      await page.keyboard.press('k');
      await page.keyboard.press('j');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/domains/${ids[1]}$`));
      await expect(page.getByTestId('event-position')).toHaveText('2 из 3');

      // The next event is on the list's second page: the card loads it.
      await page.keyboard.press('j');
      await expect(page).toHaveURL(new RegExp(`/domains/${ids[0]}$`));
      await expect(page.getByTestId('event-position')).toHaveText('3 из 3');
      await expect(page.getByTestId('event-next')).toBeDisabled();
      await shots(page, 'card-last-of-filter');
      await page.keyboard.press('k');
      await expect(page).toHaveURL(new RegExp(`/domains/${ids[1]}$`));

      // s, then a digit: the status is saved and confirmed.
      await page.keyboard.press('s');
      const pick = page.getByTestId('quick-pick');
      await expect(pick).toBeVisible();
      await shots(page, 'card-status-pick');
      const second = (await pick.getByRole('option').nth(1).innerText())
        .replace(/^\d+\s*/, '')
        .replace(/\s*сейчас$/, '')
        .trim();
      await page.keyboard.press('2');
      await expect(pick).toBeHidden();
      await expect(page.getByText('Изменения сохранены')).toBeVisible();
      await expect(page.getByTestId('triage-status_id')).toContainText(second);

      // a: the assignee picker opens; typing finds the user, Enter assigns.
      await page.keyboard.press('a');
      await page.keyboard.type('Администратор');
      await expect(page.locator('.ant-select-dropdown:visible').getByText('Администратор').first()).toBeVisible();
      await shots(page, 'card-assignee-pick');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('triage-assignee_id')).toContainText('Администратор');
      await page.getByTestId('page-title').click();

      await page.keyboard.press('?');
      await expect(page.getByTestId('keys-help')).toContainText('Изменить статус');
      await shots(page, 'keys-help');
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('keys-help')).toBeHidden();

      await page.keyboard.press('u');
      await expect(page).toHaveURL(/\/domains\?/);
      await expect(page).toHaveURL(/page_size=2/);
    });

    test('the same triage keys on the list’s marked row and on the card: ↓ and Enter apply the highlight; «Отменить»', async ({
      page,
      baseURL,
    }) => {
      const api = await adminApi(baseURL);
      const event = async (id: number) =>
        ok<{ status_id: number; priority_id: number | null }>(await api.get(`/api/v1/modules/domains/events/${id}`), 'event');
      const statuses = (
        await ok<{ items: { id: number; name: string }[] }>(await api.get('/api/v1/modules/domains/events/statuses'), 'statuses')
      ).items;
      const priorities = (
        await ok<{ items: { id: number; name: string }[] }>(
          await api.get('/api/v1/modules/domains/events/priorities'),
          'priorities',
        )
      ).items;
      const newest = ids[2] as number;
      const before = await event(newest);
      const at = statuses.findIndex((x) => x.id === before.status_id);
      const next = statuses[at + 1] as { id: number; name: string };

      await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
      await login(page);
      await page.goto(`/domains?registrar=${encodeURIComponent(`Клавиши ${stamp}`)}`);
      await expect(page.locator(`tr[data-row-key="${newest}"]`)).toBeVisible();
      await page.getByTestId('page-title').click();
      // In the list: mark the newest row, s, ↓, Enter — the next status is saved.
      await page.keyboard.press('j');
      await expect(page.locator(`tr[data-row-key="${newest}"]`)).toHaveAttribute('data-active', 'true');
      await page.keyboard.press('s');
      const pick = page.getByTestId('quick-pick');
      await expect(pick).toBeVisible();
      await page.keyboard.press('ArrowDown');
      await expect(pick.locator('[data-highlighted]')).toContainText(next.name);
      await page.keyboard.press('Enter');
      await expect(pick).toBeHidden();
      await expect.poll(async () => (await event(newest)).status_id).toBe(next.id);
      await expect(page.locator(`tr[data-row-key="${newest}"]`)).toContainText(next.name);
      // «Отменить» puts the status back.
      await expect(page.getByTestId('undo-toast')).toContainText('Изменения сохранены');
      await page.getByTestId('undo-button').click();
      await expect(page.locator('.ant-message')).toContainText('Изменение отменено: 1 событие');
      await expect.poll(async () => (await event(newest)).status_id).toBe(before.status_id);

      // On the card: p, ↓, Enter — the priority after the current one.
      await page.goto(`/domains/${newest}`);
      await expect(page.getByTestId('page-title')).toBeVisible();
      await page.getByTestId('page-title').click();
      const was = (await event(newest)).priority_id;
      const pAt = priorities.findIndex((x) => x.id === was);
      const pNext = priorities[Math.max(0, pAt) + 1] as { id: number; name: string };
      await page.keyboard.press('p');
      await expect(pick).toBeVisible();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect(pick).toBeHidden();
      await expect.poll(async () => (await event(newest)).priority_id).toBe(pNext.id);
      // s, ↓, Enter on the card too.
      await page.keyboard.press('s');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await event(newest)).status_id).toBe(next.id);
      await expect(page.getByTestId('history')).toContainText('Статус');
      await api.dispose();
    });
  });
