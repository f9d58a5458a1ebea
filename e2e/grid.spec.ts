import path from 'node:path';
import { MODULES } from '@forpost/contract/modules';
import { expect, type Page, test } from '@playwright/test';
import { adminApi, e2eSql, login, ok } from './helpers';

const SHOTS = process.env.GRID_SHOTS ?? '';
const stamp = `grid${Date.now().toString(36)}`;
const SIZES = [
  [1280, 800],
  [1920, 1080],
] as const;

/** Moves events' creation back in the e2e server's database (the API never lets a client set it). */
async function backdate(ids: number[], hours: number): Promise<void> {
  await e2eSql(`UPDATE events SET created_at = now() - $2 * interval '1 hour' WHERE id = ANY($1)`, [ids, hours]);
}

interface Report {
  problems: string[];
  checked: number;
}

/**
 * In the page: every shown row's cells under the headings `labels` are whole (no element inside
 * overflows its box, no text ends with «…», nothing sticks out of the cell) and on top at their
 * centre; no two pinned (sticky) cells of a row overlap.
 */
async function measureCells(page: Page, labels: string[]): Promise<Report> {
  return page.evaluate((labels) => {
    // The column heads: the sticky header's own table when there is one (the body's copy is hidden).
    const headCells = (t: Element) =>
      [...(t.querySelector('.ant-table-header') ?? t).querySelectorAll('thead tr:first-child > th')] as HTMLElement[];
    const problems: string[] = [];
    let checked = 0;
    const table = document.querySelector('[data-testid="events-table"], [data-testid="my-events-table"]');
    if (!table) return { problems: ['no table'], checked };
    const heads = headCells(table);
    const appBar = document.querySelector('.ant-layout-header')?.getBoundingClientRect();
    // Rows under the app bar or the (sticky) table header are not on screen to read.
    const headBottom = Math.max(0, ...heads.map((th) => th.getBoundingClientRect().bottom));
    const top = Math.max(appBar ? appBar.bottom : 0, headBottom);
    // …nor those under the table's sticky horizontal scroll bar at the bottom of the window.
    const bar = table.querySelector('.ant-table-sticky-scroll')?.getBoundingClientRect();
    const bottom = bar && bar.height > 0 ? Math.min(window.innerHeight, bar.top) : window.innerHeight;
    const idx = new Map<string, number>();
    for (const l of labels) {
      const i = heads.findIndex((th) => (th.textContent ?? '').trim().startsWith(l));
      if (i < 0) problems.push(`no column «${l}»`);
      else idx.set(l, i);
    }
    const rows = [...table.querySelectorAll('tbody tr.ant-table-row')] as HTMLTableRowElement[];
    for (const row of rows) {
      const rr = row.getBoundingClientRect();
      const cy = rr.top + rr.height / 2;
      if (cy < top + 2 || cy > bottom - 2) continue; // off screen: not read now
      const sticky = [...row.cells].filter((td) => getComputedStyle(td).position === 'sticky');
      for (let a = 0; a < sticky.length; a++)
        for (let b = a + 1; b < sticky.length; b++) {
          const x = sticky[a]?.getBoundingClientRect();
          const y = sticky[b]?.getBoundingClientRect();
          if (x && y && Math.min(x.right, y.right) - Math.max(x.left, y.left) > 0.5)
            problems.push(`row ${row.rowIndex}: pinned cells ${a} and ${b} overlap`);
        }
      for (const [label, i] of idx) {
        const td = row.cells[i];
        if (!td) continue;
        checked++;
        const where = `row ${row.rowIndex} «${label}» (${(td.textContent ?? '').trim()})`;
        const box = td.getBoundingClientRect();
        for (const el of [td, ...td.querySelectorAll('*')] as HTMLElement[]) {
          const cs = getComputedStyle(el);
          if (cs.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) problems.push(`${where}: clipped`);
          const r = el.getBoundingClientRect();
          if (r.width > 0 && (r.right > box.right + 1 || r.left < box.left - 1)) problems.push(`${where}: sticks out`);
        }
        if ((td.textContent ?? '').trim().endsWith('…')) problems.push(`${where}: ellipsis`);
        const content = (td.firstElementChild as HTMLElement | null) ?? td;
        const c = content.getBoundingClientRect();
        const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
        if (!hit || !td.contains(hit)) problems.push(`${where}: covered by ${hit?.tagName}.${hit?.className}`);
      }
    }
    return { problems: [...new Set(problems)], checked };
  }, labels);
}

/** In the page, after scrolling down: the table header is under the app bar, on top of the rows, and no cell covers the bar. */
async function measureHeader(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // The column heads: the sticky header's own table when there is one (the body's copy is hidden).
    const headCells = (t: Element) =>
      [...(t.querySelector('.ant-table-header') ?? t).querySelectorAll('thead tr:first-child > th')] as HTMLElement[];
    const problems: string[] = [];
    const bar = document.querySelector('.ant-layout-header') as HTMLElement | null;
    const table = document.querySelector('[data-testid="events-table"], [data-testid="my-events-table"]');
    if (!bar || !table) return ['no app bar or table'];
    const b = bar.getBoundingClientRect();
    const ths = headCells(table).filter((th) => th.getBoundingClientRect().width > 0);
    const first = ths[0]?.getBoundingClientRect();
    if (!first) return ['no header'];
    if (first.top < b.bottom - 1) problems.push(`header top ${first.top} above the app bar's bottom ${b.bottom}`);
    if (first.top > b.bottom + 40) problems.push(`header not sticky: top ${first.top}, app bar bottom ${b.bottom}`);
    for (let x = b.left + 8; x < b.right - 8; x += 60)
      for (const y of [b.top + 4, b.top + b.height / 2, b.bottom - 4]) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !bar.contains(hit)) problems.push(`app bar at ${Math.round(x)},${Math.round(y)} covered by ${hit?.tagName}`);
      }
    // Heads scrolled out of the header's own box (sideways) are not on screen to check.
    const box = (table.querySelector('.ant-table-header') ?? table).getBoundingClientRect();
    for (const th of ths) {
      const r = th.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      if (cx < box.left + 2 || cx > box.right - 2) continue;
      const hit = document.elementFromPoint(cx, r.top + r.height / 2);
      if (!hit || !(hit.closest('thead') || hit.closest('.ant-table-header')))
        problems.push(`header cell «${th.textContent}» covered by ${hit?.tagName}.${hit?.className}`);
    }
    return [...new Set(problems)];
  });
}

/** Scrolls the table's horizontal scroller to its left (0) or right end (1). */
async function scrollTable(page: Page, to: 0 | 1): Promise<void> {
  await page.evaluate((to) => {
    for (const el of document.querySelectorAll('.ant-table-content, .ant-table-body, .ant-table-header')) {
      el.scrollLeft = to ? el.scrollWidth : 0;
      el.dispatchEvent(new Event('scroll'));
    }
  }, to);
}

const PAGES = [
  { name: 'domains', url: () => `/domains?q=${stamp}&page_size=50`, labels: ['SLA', 'Статус', 'Приоритет', 'Исполнитель'] },
  { name: 'leaks', url: () => `/leaks?q=${stamp}&page_size=50`, labels: ['SLA', 'Статус', 'Приоритет', 'Исполнитель'] },
  { name: 'my-events', url: () => '/my-events?page_size=50', labels: ['SLA', 'Статус', 'Приоритет'] },
] as const;

// Not serial: each page and size is its own verdict (a failed one restarts the worker, which seeds again).
test.describe('triage grid', () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(180_000);
    const api = await adminApi(baseURL);
    const me = await ok<{ id: number }>(await api.get('/api/v1/me'), 'me');
    const company = await ok<{ id: number }>(
      await api.post('/api/v1/companies', { data: { name: `E2E Сетка ${stamp}` } }),
      'company',
    );
    for (const code of ['domains', 'leaks'] as const) {
      const refs = async (what: string) =>
        (await ok<{ items: { id: number; code: string }[] }>(await api.get(`/api/v1/modules/${code}/events/${what}`), what))
          .items;
      const statuses = await refs('statuses');
      const prios = await refs('priorities');
      const status = (c: string) => statuses.find((s) => s.code === c)?.id;
      const ids: number[] = [];
      for (let i = 1; i <= 30; i++) {
        const own =
          code === 'domains'
            ? { ...MODULES.domains.sample(i), domain: `${stamp}-${i}-очень-длинное-имя-домена.ru` }
            : {
                ...MODULES.leaks.sample(i),
                leak_name: `${stamp} Дамп базы клиентов интернет-магазина с паролями, адресами и телефонами №${i}`,
              };
        const e = await ok<{ id: number }>(
          await api.post(`/api/v1/modules/${code}/events`, {
            data: {
              company_id: company.id,
              ...own,
              priority_id: prios.find((p) => p.code === (i % 3 ? 'critical' : 'medium'))?.id,
            },
          }),
          'event',
        );
        ids.push(e.id);
        // Long status names in the open queue, one final now and then.
        const s = i % 5 === 0 ? 'false_positive' : i % 2 ? 'awaiting' : 'in_progress';
        await ok(
          await api.patch(`/api/v1/modules/${code}/events/${e.id}`, { data: { status_id: status(s), assignee_id: me.id } }),
          'patch',
        );
      }
      // Overdue by about a day: «Просрочено на 1 д 4 ч» at full length.
      await backdate(
        ids.filter((_, i) => i % 2 === 0),
        52,
      );
    }
  });

  test('«Мои события»: the nearest deadline first; selected rows of one module get its bulk bar', async ({ page }) => {
    await login(page);
    await page.goto('/my-events?module=leaks&page_size=50');
    const table = page.getByTestId('my-events-table');
    const rows = table.locator('tbody tr.ant-table-row');
    await expect(rows.nth(5)).toBeVisible();
    // The SLA column, sorted ascending by default: overdue («−…») rows lead, rows without a deadline last.
    await expect(table.locator('thead th', { hasText: /^SLA$/ }).first()).toHaveAttribute('aria-sort', 'ascending');
    const states = await rows.evaluateAll((trs) =>
      trs.map((tr) => tr.querySelector('[data-testid="sla-value"]')?.getAttribute('data-state') ?? 'none'),
    );
    const rank: Record<string, number> = { overdue: 0, due_soon: 1, on_track: 2, none: 3 };
    const ranks = states.map((x) => rank[x] ?? 9);
    expect(ranks).toEqual([...ranks].sort((x, y) => x - y));
    expect(states[0]).toBe('overdue');
    // Two rows selected: the module's bulk bar; the status changes for both.
    const [a, b] = await rows.evaluateAll((trs) => trs.slice(0, 2).map((tr) => tr.getAttribute('data-row-key')));
    for (const id of [a, b]) await table.locator(`tr[data-row-key="${id}"] .ant-table-selection-column .ant-checkbox`).click();
    await expect(page.getByTestId('bulk-count')).toHaveText('Выбрано: 2');
    await page.getByTestId('bulk-status').click();
    await page.getByRole('menuitem', { name: 'В работе' }).click();
    await expect(page.locator('.ant-message')).toContainText('Статус изменён: 2 события');
    for (const id of [a, b]) await expect(table.locator(`tr[data-row-key="${id}"]`)).toContainText('В работе');
    await expect(page.getByTestId('bulk-bar')).toHaveCount(0);
  });

  for (const [w, h] of SIZES)
    for (const p of PAGES)
      test(`${p.name} at ${w}×${h}: triage cells whole and on top, header under the app bar`, async ({ page }) => {
        await page.setViewportSize({ width: w, height: h });
        await login(page);
        await page.goto(p.url());
        const table = page.locator('[data-testid="events-table"], [data-testid="my-events-table"]').first();
        await expect(table.locator('tbody tr.ant-table-row').nth(19)).toBeVisible({ timeout: 30_000 });
        // «Мои события» puts the nearest deadlines first: earlier runs' events may lead the page.
        await expect(table.getByText(p.name === 'my-events' ? /grid[0-9a-z]+/ : stamp).first()).toBeVisible();
        if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${p.name}-${w}.png`) });

        const atStart = await measureCells(page, [...p.labels]);
        await scrollTable(page, 1);
        const atEnd = await measureCells(page, [...p.labels]);
        await page.mouse.wheel(0, 500);
        await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
        const header = await measureHeader(page);
        const scrolled = await measureCells(page, [...p.labels]);
        if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${p.name}-${w}-scrolled.png`) });

        expect(atStart.checked, 'cells measured').toBeGreaterThan(10);
        expect(scrolled.checked, 'cells measured after scrolling').toBeGreaterThan(5);
        expect({ atStart: atStart.problems, atEnd: atEnd.problems, scrolled: scrolled.problems, header }).toEqual({
          atStart: [],
          atEnd: [],
          scrolled: [],
          header: [],
        });
      });
});
