import { BULK_INLINE_MAX } from '@forpost/contract/events-bulk';
import { getModule } from '@forpost/contract/modules';
import { expect, type Page, type Request, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Bulk actions of an event list through the collection's endpoints only: the selected rows change in
 * one call (never one request per event), and «Выбрать все N по фильтру» runs a background job whose
 * progress the list shows before it refreshes.
 */

const stamp = Date.now().toString(36);
const m = getModule('services');
/** More than the API changes at once: the filter-wide change runs as a job. */
const N = BULK_INLINE_MAX + 30;

let companyId: number;
let statuses: { id: number; code: string; name: string }[];

const rows = (page: Page) => page.locator('[data-testid="events-table"] tbody tr.ant-table-row');

/** The requests the page sends to the module's events, from now on. */
function eventCalls(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (r.url().includes(`/api/v1/modules/${m.code}/events`) && r.method() !== 'GET') seen.push(r);
  });
  return seen;
}

test.describe
  .serial('bulk actions', () => {
    test.beforeAll(async ({ baseURL }) => {
      test.setTimeout(180_000);
      const api = await adminApi(baseURL);
      companyId = (
        await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Массовые ${stamp}` } }), 'company')
      ).id;
      for (let from = 0; from < N; from += 25) {
        await Promise.all(
          Array.from({ length: Math.min(25, N - from) }, (_, i) =>
            api
              .post(`/api/v1/modules/${m.code}/events`, { data: { company_id: companyId, ...m.sample(5000 + from + i) } })
              .then((r) => ok(r, 'create event')),
          ),
        );
      }
      statuses = (
        await ok<{ items: { id: number; code: string; name: string }[] }>(
          await api.get(`/api/v1/modules/${m.code}/events/statuses`),
          'statuses',
        )
      ).items;
      await api.dispose();
    });

    test.beforeEach(async ({ page }) => {
      await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
      await login(page);
      await page.goto(m.route);
      await expect(rows(page)).toHaveCount(20);
    });

    test('selected rows: their status changes in one call on the collection', async ({ page }) => {
      const inWork = statuses.find((s) => s.code === 'in_progress') ?? (statuses[1] as (typeof statuses)[number]);
      const [a, b] = await rows(page).evaluateAll((trs) => trs.slice(0, 2).map((tr) => tr.getAttribute('data-row-key')));
      for (const id of [a, b]) await page.locator(`tr[data-row-key="${id}"] .ant-table-selection-column .ant-checkbox`).click();
      await expect(page.getByTestId('bulk-count')).toHaveText('Выбрано: 2');
      // Two rows of twenty: the whole filter is not offered.
      await expect(page.getByTestId('bulk-all')).toHaveCount(0);
      const calls = eventCalls(page);
      await page.getByTestId('bulk-status').click();
      await page.getByRole('menuitem', { name: inWork.name }).click();
      await expect(page.locator('.ant-message')).toContainText('Статус изменён: 2 события');
      for (const id of [a, b]) await expect(page.locator(`tr[data-row-key="${id}"]`)).toContainText(inWork.name);
      await expect(page.getByTestId('bulk-bar')).toHaveCount(0);
      expect(calls.map((r) => `${r.method()} ${new URL(r.url()).pathname}`)).toEqual([`PATCH /api/v1/modules/${m.code}/events`]);
    });

    test('«Отменить» after a bulk change puts back what it changed', async ({ page, baseURL }) => {
      const api = await adminApi(baseURL);
      const statusOf = async (id: string | null) =>
        (await ok<{ status_id: number }>(await api.get(`/api/v1/modules/${m.code}/events/${id}`), 'event')).status_id;
      const [a, b] = await rows(page).evaluateAll((trs) => trs.slice(2, 4).map((tr) => tr.getAttribute('data-row-key')));
      const was = [await statusOf(a), await statusOf(b)];
      const target = statuses.find((s) => s.id !== was[0] && s.id !== was[1]) as (typeof statuses)[number];
      for (const id of [a, b]) await page.locator(`tr[data-row-key="${id}"] .ant-table-selection-column .ant-checkbox`).click();
      await page.getByTestId('bulk-status').click();
      await page.getByRole('menuitem', { name: target.name }).click();
      const toast = page.getByTestId('undo-toast');
      await expect(toast).toContainText('Статус изменён: 2 события');
      for (const id of [a, b]) await expect.poll(() => statusOf(id)).toBe(target.id);
      await toast.getByTestId('undo-button').click();
      await expect(page.locator('.ant-message')).toContainText('Изменение отменено: 2 события');
      await expect.poll(() => statusOf(a)).toBe(was[0]);
      await expect.poll(() => statusOf(b)).toBe(was[1]);
      await expect(page.locator(`tr[data-row-key="${a}"]`)).not.toContainText(target.name);
      await api.dispose();
    });

    test(`«Выбрать все ${N} по фильтру»: a job with progress, then a fresh list`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.locator('[data-testid="events-table"] thead .ant-table-selection-column .ant-checkbox').click();
      await expect(page.getByTestId('bulk-count')).toHaveText('Выбрано: 20');
      await page.getByTestId('bulk-all').click();
      await expect(page.getByTestId('bulk-count')).toHaveText(`Выбраны все ${N} событий по фильтру`);
      const calls = eventCalls(page);
      const polled: { status: string; processed: number; total: number }[] = [];
      page.on('response', async (r) => {
        if (/\/events\/bulk\/\d+$/.test(new URL(r.url()).pathname)) polled.push(await r.json());
      });
      // Every text the progress shows, however briefly (a short job may end within one poll).
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { progressSeen: string[] }).progressSeen = seen;
        new MutationObserver(() => {
          const text = document.querySelector('[data-testid="bulk-progress"]')?.textContent;
          if (text && seen.at(-1) !== text) seen.push(text);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await page.getByTestId('bulk-priority').click();
      await page.getByRole('menuitem', { name: 'Высокий' }).click();
      await expect(page.locator('.ant-message')).toContainText(`Приоритет изменён: ${N} событий`, { timeout: 60_000 });
      await expect(page.getByTestId('bulk-progress')).toHaveCount(0);
      const shown = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
      expect(shown.length).toBeGreaterThan(0);
      for (const text of shown) expect(text).toMatch(new RegExp(`^Приоритет изменён: \\d+ из ${N}`));
      expect(polled.at(-1)).toMatchObject({ status: 'done', processed: N, total: N });
      expect(polled.map((j) => j.processed)).toEqual(polled.map((j) => j.processed).sort((x, y) => x - y));
      // The list was refreshed: every row on the page shows the new priority.
      await expect(rows(page).filter({ hasText: 'Высокий' })).toHaveCount(20);
      expect(calls.map((r) => `${r.method()} ${new URL(r.url()).pathname}`)).toEqual([
        `POST /api/v1/modules/${m.code}/events/bulk`,
      ]);
      const filter = new URL(calls[0]?.url() as string).searchParams;
      expect(filter.get('company_id')).toBe(String(companyId));
      expect(filter.has('page')).toBe(false);
    });
  });
