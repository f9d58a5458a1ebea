import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { getModule, MODULE_LIST } from '@forpost/contract/modules';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Issue 30, items 12 and 13: at 1280×800 and 1920×1080 nothing is clipped (a text's scrollWidth fits its
 * clientWidth), nothing covers the named controls (elementFromPoint at a control's centre is the control),
 * two exports or two events with similar names read differently, an undone import stays in the history
 * as «Отменён», and the dashboard's module chart shows the top modules and «Прочие» in distinguishable
 * colours, its donut's labels inside the card, the dark theme's grid lines and legends readable.
 * Screenshots: /work/shots/layout (SHOTS_DIR overrides).
 */

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/layout';
const stamp = Date.now().toString(36);
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;

let companyId: number;
let exportIds: number[] = [];
let reportId: number;
const leakIds: number[] = [];
const mediaIds: number[] = [];
const LEAKS = [`Дамп CRM «Ромашка» ${stamp}: розничные`, `Дамп CRM «Ромашка» ${stamp}: корпоративные`];
const MEDIA = [`Клиенты банка сообщили о сбое ${stamp}: Москва`, `Клиенты банка сообщили о сбое ${stamp}: Казань`];

/** Polls GET `path` until its `status` is `done`; fails on `failed`. */
async function waitStatus(api: APIRequestContext, url: string, done: string) {
  await expect
    .poll(
      async () => {
        const item = await ok<{ status: string; message?: string | null }>(await api.get(url), url);
        if (item.status === 'failed') throw new Error(`${url}: ${item.message}`);
        return item.status;
      },
      { timeout: 60_000 },
    )
    .toBe(done);
}

/** Whether the element's text fits its box (no clipped or ellipsised content). */
const fits = (l: Locator) =>
  l.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth, text: (el as HTMLElement).innerText }));

async function expectFits(l: Locator, what: string) {
  const f = await fits(l);
  expect(f.scroll, `${what} «${f.text}» is clipped (${f.scroll} > ${f.client})`).toBeLessThanOrEqual(f.client + 1);
}

/** A one-word header is never broken inside its word («Сформирова-н»): its text lies on one line. */
async function expectOneLine(l: Locator, what: string) {
  const lines = await l.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  });
  expect(lines, `${what} is broken over ${lines} lines`).toBe(1);
}

/**
 * Brings the element into the window vertically (never scrolling anything sideways) and checks that
 * the element (or its own child) is what is under its centre: nothing covers it, no scroller clips it.
 */
async function expectOnTop(page: Page, l: Locator, what: string) {
  await l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    window.scrollBy(0, r.top - window.innerHeight / 2);
  });
  const hit = await l.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const at = document.elementFromPoint(x, y);
    const inView = x >= 0 && x <= window.innerWidth && y >= 0 && y <= window.innerHeight;
    return {
      ok: inView && !!at && (at === el || el.contains(at)),
      at: at
        ? `${at.tagName}.${String((at as HTMLElement).className).slice(0, 60)} «${(at as HTMLElement).innerText?.slice(0, 40) ?? ''}»`
        : 'nothing',
    };
  });
  expect(hit.ok, `${what}: at its centre is ${hit.at}`).toBe(true);
  void page;
}

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, name), fullPage: true });

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const api = await adminApi(baseURL);
  companyId = (
    await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Раскладка ${stamp}` } }), 'company')
  ).id;
  for (const [i, leak_name] of LEAKS.entries())
    leakIds.push(
      (
        await ok<{ id: number }>(
          await api.post('/api/v1/modules/leaks/events', {
            data: { company_id: companyId, ...getModule('leaks').sample(7000 + i), leak_name },
          }),
          'leak',
        )
      ).id,
    );
  for (const [i, headline] of MEDIA.entries())
    mediaIds.push(
      (
        await ok<{ id: number }>(
          await api.post('/api/v1/modules/media/events', {
            data: {
              company_id: companyId,
              ...getModule('media').sample(7000 + i),
              url: `https://news.example.ru/${stamp}/${i}`,
              headline,
              connotation: ['Negative', 'Positive', 'Neutral'][i],
            },
          }),
          'media',
        )
      ).id,
    );
  // Two exports of one list with one name (the same module, fields and filters).
  const fields = await ok<{ items: { module: string; fields: { key: string; default: boolean }[] }[] }>(
    await api.get('/api/v1/modules/exports/fields', { params: { module: 'domains' } }),
    'fields',
  );
  const keys = (fields.items.find((m) => m.module === 'domains')?.fields ?? []).filter((f) => f.default).map((f) => f.key);
  await ok(
    await api.post('/api/v1/modules/domains/events', { data: { company_id: companyId, domain: `lay-${stamp}.ru` } }),
    'domain',
  );
  exportIds = [];
  for (let i = 0; i < 2; i++)
    exportIds.push(
      (
        await ok<{ id: number }>(
          await api.post('/api/v1/modules/exports', {
            data: { module: 'domains', format: 'csv', fields: keys, filters: { company_id: companyId } },
          }),
          'export',
        )
      ).id,
    );
  const day = (d: Date) => d.toISOString().slice(0, 10);
  reportId = (
    await ok<{ id: number }>(
      await api.post('/api/v1/tools/reports', {
        data: { company_id: companyId, from: day(new Date(Date.now() - 6 * 86_400_000)), to: day(new Date()) },
      }),
      'report',
    )
  ).id;
  for (const id of exportIds) await waitStatus(api, `/api/v1/modules/exports/${id}`, 'done');
  await waitStatus(api, `/api/v1/tools/reports/${reportId}`, 'ready');
  await api.dispose();
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
  await login(page);
});

test('/reports: «Сформировать» is whole, the «Отправка» column is not hidden under the actions', async ({ page }) => {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/reports');
    const create = page.getByTestId('report-create');
    await expect(create).toBeVisible();
    await expectFits(create, `«Сформировать» at ${size.width}`);
    await expectOnTop(page, create, `«Сформировать» at ${size.width}`);
    const table = page.getByTestId('reports-table');
    const row = table.locator(`tr[data-row-key="${reportId}"]`);
    await expect(row).toBeVisible();
    const th = table.locator('th', { hasText: 'Отправка' });
    await expectOnTop(page, th, `the «Отправка» header at ${size.width}`);
    const col = await th.evaluate((el) => (el as HTMLTableCellElement).cellIndex);
    await expectOnTop(page, row.locator('td').nth(col), `the «Отправка» cell at ${size.width}`);
    for (const title of ['Компания', 'Период', 'Статус', 'Сформирован', 'Отправка']) {
      const header = table.locator('th', { hasText: title }).first();
      await expectFits(header, `the «${title}» header at ${size.width}`);
      await expectOneLine(header, `the «${title}» header at ${size.width}`);
    }
    await shot(page, `reports-${size.width}.png`);
  }
});

test('/exports: names on two lines at most, «Хранится до» whole, two exports of one list differ', async ({ page }) => {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/exports');
    const table = page.getByTestId('exports-table');
    const rows = exportIds.map((id) => table.locator(`tr[data-row-key="${id}"]`));
    for (const r of rows) await expect(r).toBeVisible();
    const kept = table.locator('th', { hasText: 'Хранится до' });
    await expectFits(kept, `the «Хранится до» header at ${size.width}`);
    await expectOnTop(page, kept, `the «Хранится до» header at ${size.width}`);
    const keptCol = await kept.evaluate((el) => (el as HTMLTableCellElement).cellIndex);
    const texts: string[] = [];
    for (const r of rows) {
      const cell = r.locator('td').nth(keptCol);
      await expectFits(cell, `«Хранится до» at ${size.width}`);
      await expectOnTop(page, cell, `«Хранится до» at ${size.width}`);
      // The export's name (the first line of the first cell): at most two lines.
      const name = r.locator('td').first().locator('span').first();
      const lines = await name.evaluate((el) => {
        const lh = Number.parseFloat(getComputedStyle(el).lineHeight) || 22;
        return Math.round(el.getBoundingClientRect().height / lh);
      });
      expect(lines, `the export's name at ${size.width} takes ${lines} lines`).toBeLessThanOrEqual(2);
      texts.push((await r.locator('td').first().innerText()).trim());
    }
    expect(texts[0], 'two exports of one list read the same').not.toBe(texts[1]);
    for (const title of ['Статус', 'Объём', 'Создан', 'Хранится до']) {
      const header = table.locator('th', { hasText: title }).first();
      await expectFits(header, `the «${title}» header at ${size.width}`);
      await expectOneLine(header, `the «${title}» header at ${size.width}`);
    }
    await shot(page, `exports-${size.width}.png`);
  }
});

test('leaks and media lists: titles that differ past the 20th character are read whole', async ({ page }) => {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    for (const [section, ids] of [
      ['leaks', leakIds],
      ['media', mediaIds],
    ] as const) {
      await page.goto(`/${section}`);
      for (const id of ids) {
        const title = page.getByTestId(`event-link-${id}`).locator('.ant-typography');
        await expect(title).toBeVisible();
        await expectFits(title, `the ${section} title at ${size.width}`);
      }
      await shot(page, `${section}-${size.width}.png`);
    }
  }
});

test('the bulk bar: «Снять выделение» is whole and on top, no control clipped by the bar', async ({ page }) => {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/domains');
    const first = page.locator('[data-testid="events-table"] tbody tr.ant-table-row').first();
    await first.locator('.ant-table-selection-column .ant-checkbox').click();
    const bar = page.getByTestId('bulk-bar');
    await expect(bar).toBeVisible();
    const clear = bar.getByRole('button', { name: 'Снять выделение' });
    await expectFits(clear, `«Снять выделение» at ${size.width}`);
    await expectOnTop(page, clear, `«Снять выделение» at ${size.width}`);
    const barBox = (await bar.boundingBox()) as Box;
    for (const b of await bar.getByRole('button').all()) {
      const box = (await b.boundingBox()) as Box;
      expect(box.x + box.width, `${await b.innerText()} ends past the bar at ${size.width}`).toBeLessThanOrEqual(
        barBox.x + barBox.width + 0.5,
      );
    }
    await shot(page, `bulk-bar-${size.width}.png`);
    await clear.click();
    await expect(bar).toHaveCount(0);
  }
});

test('the import history: the undo tooltip leaves its confirmation free; an undone import shows as «Отменён»', async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL);
  const base = '/api/v1/modules/domains/events/imports';
  const csv = `domain\nimp-${stamp}-1.ru\nimp-${stamp}-2.ru\n`;
  const up = await ok<{ id: number; preview: { mapping: (string | null)[] } }>(
    await api.post(base, {
      multipart: { file: { name: `layout-${stamp}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') } },
    }),
    'upload',
  );
  await ok(await api.post(`${base}/${up.id}/start`, { data: { mapping: up.preview.mapping, company_id: companyId } }), 'start');
  await waitStatus(api, `${base}/${up.id}`, 'done');
  await api.dispose();

  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.goto('/domains/import');
    const row = page.getByTestId('import-history').locator(`tr[data-row-key="${up.id}"]`);
    await expect(row).toBeVisible();
    const del = row.getByRole('button', { name: 'Удалить импорт' });
    await del.hover();
    await expect(page.getByRole('tooltip', { name: 'Удалить (отменить импорт)' })).toBeVisible();
    await del.click();
    const confirm = page.locator('.ant-popconfirm:visible');
    await expect(confirm).toContainText('Удалить импорт?');
    const ok_ = confirm.getByRole('button', { name: 'Удалить' });
    const cancel = confirm.getByRole('button', { name: 'Отмена' });
    // The pointer still rests on the button: its tooltip must not lie over the confirmation's buttons.
    const tips = page.locator('.ant-tooltip:visible');
    for (const b of [ok_, cancel]) {
      const box = (await b.boundingBox()) as Box;
      for (const t of await tips.all())
        expect(intersects((await t.boundingBox()) as Box, box), `a tooltip covers «${await b.innerText()}»`).toBe(false);
      await expectOnTop(page, b, `«${await b.innerText()}» at ${size.width}`);
    }
    await shot(page, `import-confirm-${size.width}.png`);
    if (size.width === 1920) {
      await ok_.click();
      // Undone: still in the history, as «Отменён», without a second undo.
      await expect(row).toContainText('Отменён');
      await expect(row.getByRole('button', { name: 'Удалить импорт' })).toHaveCount(0);
      // Its counts read as history: «создано 2» struck through and grey (it was green, as a fresh result).
      const created = row.getByText('создано 2', { exact: true });
      await expect(created).toBeVisible();
      const look = await created.evaluate((el) => ({
        line: getComputedStyle(el).textDecorationLine,
        green: !!el.closest('.ant-typography-success'),
      }));
      expect(look).toEqual({ line: 'line-through', green: false });
      await shot(page, `import-undone-${size.width}.png`);
      await page.setViewportSize(WIDTHS[0]);
      await shot(page, `import-undone-${WIDTHS[0].width}.png`);
    } else {
      await cancel.click();
      await expect(confirm).toHaveCount(0);
    }
  }
});

/** The hex colour's relative luminance (WCAG). */
function luminance(hex: string): number {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(hex.trim());
  if (!m) {
    const rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(hex);
    if (!rgb) throw new Error(`not a colour: ${hex}`);
    return luminance(
      `#${rgb
        .slice(1, 4)
        .map((v) => Number(v).toString(16).padStart(2, '0'))
        .join('')}`,
    );
  }
  const [r, g, b] = m.slice(1, 4).map((h) => {
    const c = Number.parseInt(h, 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
};
/** Distance of two colours in RGB (0…441). */
const distance = (a: string, b: string) => {
  const rgb = (h: string) =>
    (/^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(h)?.slice(1, 4) ?? []).map((x) => Number.parseInt(x, 16));
  const [p, q] = [rgb(a), rgb(b)];
  return Math.hypot(...p.map((v, i) => v - (q[i] ?? 0)));
};

test.describe('dashboard', () => {
  let dashCompany: number;
  test.beforeAll(async ({ baseURL }) => {
    test.setTimeout(180_000);
    const api = await adminApi(baseURL);
    dashCompany = (
      await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Модули ${stamp}` } }), 'company')
    ).id;
    // Publications of every tone: the donut has slices on its left too (their labels fell past the card).
    for (const [i, connotation] of ['Negative', 'Negative', 'Neutral', 'Undefined', 'Positive'].entries())
      await ok(
        await api.post('/api/v1/modules/media/events', {
          data: {
            company_id: dashCompany,
            url: `https://news.example.ru/dash-${stamp}/${i}`,
            headline: `Публикация ${i}`,
            connotation,
          },
        }),
        'media',
      );
    // Every module has events today: the first ones more (they lead the chart).
    for (const [i, m] of MODULE_LIST.entries()) {
      const n = i < 8 ? 3 : 1;
      for (let k = 0; k < n; k++)
        await ok(
          await api.post(`/api/v1/modules/${m.code}/events`, {
            data: { company_id: dashCompany, ...m.sample(8000 + i * 10 + k) },
          }),
          `${m.code} event`,
        );
    }
    await api.dispose();
  });

  test.afterAll(async ({ baseURL }) => {
    const api = await adminApi(baseURL);
    await ok(await api.put('/api/v1/me/preferences/theme', { data: { value: 'light' } }), 'light theme');
    await api.dispose();
  });

  /** The fills of the module chart's bars (its legend's dots have the same colours). */
  const barFills = (page: Page) =>
    page
      .getByTestId('echart-new')
      .locator('svg path[fill]')
      .evaluateAll((els) =>
        els
          .filter((e) => (e as SVGGraphicsElement).getBoundingClientRect().height > 12)
          .map((e) => e.getAttribute('fill') as string)
          // Hex fills only: ECharts' invisible hit areas are rgb(0,0,0) at opacity 0.
          .filter((f) => /^#/.test(f) && !/^#fff/i.test(f)),
      );

  test('the module chart: top modules and «Прочие», distinguishable colours, no paged legend; the donut inside its card', async ({
    page,
  }) => {
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.goto(`/?companyId=${dashCompany}&period=7d`);
      const chart = page.getByTestId('echart-new');
      await expect(chart.locator('svg')).toBeVisible();
      await expect(chart).toContainText('Прочие');
      await expect.poll(async () => new Set(await barFills(page)).size).toBeGreaterThan(1);
      const fills = [...new Set((await barFills(page)).map((f) => f.toLowerCase()))];
      expect(fills.length, `colours in the module chart: ${fills.join(' ')}`).toBeLessThanOrEqual(8);
      for (const [i, a] of fills.entries())
        for (const b of fills.slice(i + 1)) expect(distance(a, b), `${a} and ${b} look alike`).toBeGreaterThan(60);
      // The legend is not paged («1/2» and arrows).
      expect(await chart.locator('text').allInnerTexts()).not.toContainEqual(expect.stringMatching(/^\d+\/\d+$/));

      // The donut's count labels — one per slice (three tones) — lie inside the chart (past its edge they are cut off).
      const donut = page.getByTestId('echart-connotation');
      await expect(donut.locator('svg')).toBeVisible();
      const area = (await donut.boundingBox()) as Box;
      const labels = await donut.locator('svg text').evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { text: e.textContent ?? '', x: r.x, y: r.y, width: r.width, height: r.height };
        }),
      );
      const inside = labels.filter(
        (l) =>
          /^\d+$/.test(l.text.trim()) &&
          l.width > 0 &&
          l.x >= area.x &&
          l.x + l.width <= area.x + area.width &&
          l.y >= area.y &&
          l.y + l.height <= area.y + area.height,
      );
      expect(inside.length, `the donut's counts inside it at ${size.width}: ${JSON.stringify(labels)}`).toBeGreaterThanOrEqual(3);
      await shot(page, `dashboard-${size.width}.png`);
    }
  });

  test('the dark theme: grid lines and legends in the theme’s colours', async ({ page, baseURL }) => {
    const api = await adminApi(baseURL);
    await ok(await api.put('/api/v1/me/preferences/theme', { data: { value: 'dark' } }), 'dark theme');
    await api.dispose();
    await page.addInitScript(() => window.localStorage.setItem('forpost:theme', 'dark'));
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      await page.goto(`/?companyId=${dashCompany}&period=7d`);
      await expect(page.locator('html')).toHaveCSS('color-scheme', 'dark');
      const chart = page.getByTestId('echart-new');
      await expect(chart.locator('svg')).toBeVisible();
      const bg = await page.getByTestId('chart-new').evaluate((el) => getComputedStyle(el).backgroundColor);
      // Grid lines: the horizontal strokes across the plot.
      const strokes = await chart.locator('svg path[stroke]').evaluateAll((els) =>
        els
          .filter((e) => {
            const r = (e as SVGGraphicsElement).getBoundingClientRect();
            return r.height < 2 && r.width > 100;
          })
          .map((e) => e.getAttribute('stroke') as string),
      );
      expect(strokes.length).toBeGreaterThan(0);
      for (const s of strokes) expect(luminance(s), `a grid line ${s} glares on the dark card`).toBeLessThan(0.2);
      // Legend and axis texts read on the card (WCAG AA for text: 4.5).
      const texts = await chart
        .locator('svg text')
        .evaluateAll((els) =>
          els.map((e) => ({ fill: e.getAttribute('fill') ?? '', text: e.textContent ?? '' })).filter((t) => t.text.trim()),
        );
      expect(texts.length).toBeGreaterThan(0);
      for (const t of texts.filter((x) => /[А-Яа-я]/.test(x.text)))
        expect(contrast(t.fill, bg), `the legend «${t.text}» (${t.fill} on ${bg})`).toBeGreaterThanOrEqual(4.5);
      await shot(page, `dashboard-dark-${size.width}.png`);
    }
  });
});
