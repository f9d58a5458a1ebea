import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { MODULE_LIST, type ModuleCode, type ModuleDescriptor } from '@forpost/contract/modules';
import { expect, type Page, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * The event sections: seeded through the API (a fresh company, a few events per module), then
 * driven through the console — lists of all sixteen sections, URL filters, a detail page's triage
 * (status, comment, screenshot), bulk priority, 404 — with screenshots of every section.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/events');
const stamp = Date.now().toString(36);
/** A word only this run's domain events contain (full-text search finds it by prefix). */
const MARK = `zeta${stamp}`;

interface Seeded {
  companyId: number;
  tagId: number;
  leakName: string;
  /** Event ids per module code, in creation order. */
  ids: Record<ModuleCode, number[]>;
  statuses: Record<string, number>;
  priorities: Record<string, number>;
}

let seeded: Seeded;

// ---------------------------------------------------------------------------
// A generated PNG (a small gradient) for the screenshot upload
// ---------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function makePng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = 47 + Math.round((x / width) * 150);
      row[2 + x * 3] = 84 + Math.round((y / height) * 100);
      row[3 + x * 3] = 235;
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------------------------------------------------------------------------
// Seeding through the API
// ---------------------------------------------------------------------------

/** Module fields of the n-th seeded event (domains get this run's marker, one of them Cyrillic). */
function eventBody(m: ModuleDescriptor, n: number, companyId: number): Record<string, unknown> {
  if (m.code === 'domains') {
    const domain = [`${MARK}-one.ru`, `${MARK}-two.ru`, `зеркало-${stamp}.рф`][n] as string;
    return {
      company_id: companyId,
      domain,
      ip: `185.10.0.${n + 1}`,
      registrar: 'REG.RU',
      registered_at: '2026-01-15',
      similarity: 90 - n,
    };
  }
  return { company_id: companyId, ...m.sample(1000 + n) };
}

async function seed(baseURL: string): Promise<Seeded> {
  const api = await adminApi(baseURL);
  const company = await ok<{ id: number }>(
    await api.post('/api/v1/companies', { data: { name: `E2E События ${stamp}` } }),
    'company',
  );
  const tag = await ok<{ id: number }>(
    await api.post('/api/v1/tags', { data: { name: `e2e-${stamp}`, color: '#722ed1' } }),
    'tag',
  );
  // The second domain matches the company's whitelist: its events carry «Партнёр».
  await ok(
    await api.post(`/api/v1/companies/${company.id}/whitelist`, {
      data: { type: 'domain', value: `${MARK}-two.ru`, kind: 'whitelistPartner' },
    }),
    'whitelist',
  );
  const leakName = `Утечка e2e ${stamp}`;
  await ok(await api.post('/api/v1/modules/leaks', { data: { name: leakName } }), 'leak');
  const refs = async (code: ModuleCode, what: 'statuses' | 'priorities') =>
    Object.fromEntries(
      (
        await ok<{ items: { id: number; code: string }[] }>(await api.get(`/api/v1/modules/${code}/events/${what}`), what)
      ).items.map((x) => [x.code, x.id]),
    );
  const ids = {} as Record<ModuleCode, number[]>;
  for (const m of MODULE_LIST) {
    ids[m.code] = [];
    for (let n = 0; n < 3; n++) {
      const ev = await ok<{ id: number }>(
        await api.post(`/api/v1/modules/${m.code}/events`, { data: eventBody(m, n, company.id) }),
        `create ${m.code}`,
      );
      ids[m.code].push(ev.id);
    }
  }
  const statuses = await refs('domains', 'statuses');
  const priorities = await refs('domains', 'priorities');
  // The second domain is in progress and tagged: the URL filter test finds exactly it.
  await ok(
    await api.patch(`/api/v1/modules/domains/events/${ids.domains[1]}`, {
      data: { status_id: statuses.in_progress, tags_add: [tag.id] },
    }),
    'patch domain',
  );
  await api.dispose();
  return { companyId: company.id, tagId: tag.id, leakName, ids, statuses, priorities };
}

/** Signs in with the seeded company selected in the header. */
async function open(page: Page, companyId: number) {
  await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
  await login(page);
}

const rows = (page: Page) => page.locator('[data-testid="events-table"] tbody tr.ant-table-row');
async function shot(page: Page, name: string) {
  // From the top: a full-page capture of a scrolled page repeats the sticky header and menu.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

test.describe
  .serial('event sections', () => {
    test.beforeAll(async ({ baseURL }) => {
      mkdirSync(SHOTS, { recursive: true });
      seeded = await seed(baseURL as string);
    });

    test('every section lists its events from the registry, and each detail opens', async ({ page }) => {
      test.setTimeout(240_000);
      await open(page, seeded.companyId);
      for (const m of MODULE_LIST) {
        const section = m.route.slice(1);
        await page.goto(m.route);
        await expect(page.getByTestId('page-title')).toHaveText(m.name);
        await expect(page).toHaveTitle(`${m.name} — Форпост`);
        await expect(rows(page)).toHaveCount(3);
        // Columns come from the descriptor: every header is a Russian label.
        const headers = await page.locator('[data-testid="events-table"] thead th').allInnerTexts();
        expect(headers.join(' ')).not.toMatch(/_id\b|[a-z]+_[a-z]+/);
        await expect(page.getByTestId('status-count-all')).toContainText('3');
        await shot(page, `list-${section}`);

        const first = seeded.ids[m.code][0] as number;
        await page.getByTestId(`event-link-${first}`).first().click();
        await expect(page).toHaveURL((u) => u.pathname === `/${section}/${first}`);
        await expect(page.getByTestId('event-fields')).toBeVisible();
        await expect(page.getByTestId('breadcrumbs')).toContainText(m.name);
        await expect(page).toHaveTitle(`Событие №${first} · ${m.name} — Форпост`);
        for (const f of m.fields) await expect(page.getByTestId('event-fields')).toContainText(f.label);
        await expect(page.getByTestId('history-item').first()).toBeVisible();
        await shot(page, `detail-${section}`);
      }
    });

    test('the URL filters the list: /domains?q=…&status=…', async ({ page }) => {
      await open(page, seeded.companyId);
      const [one, two, idn] = seeded.ids.domains;
      await page.goto(`/domains?q=${MARK}&status=in_progress`);
      await expect(rows(page)).toHaveCount(1);
      await expect(page.locator(`tr[data-row-key="${two}"]`)).toContainText(`${MARK}-two.ru`);
      await expect(page.locator(`tr[data-row-key="${two}"]`)).toContainText('Партнёр');
      await expect(page.getByTestId('filter-q')).toHaveValue(MARK);
      await expect(page.getByTestId('filter-status')).toContainText('В работе');
      // The strip counts the same search over every status; a click on «Новое» filters by it.
      await expect(page.getByTestId('status-count-new')).toContainText('1');
      await page.getByTestId('status-count-new').click();
      await expect(page).toHaveURL(/status=new/);
      await expect(rows(page)).toHaveCount(1);
      await expect(page.locator(`tr[data-row-key="${one}"]`)).toBeVisible();

      // A tag filter from the panel, then «Сбросить» brings back all three.
      await page.goto(`/domains?tags=${seeded.tagId}`);
      await expect(page.getByTestId('filters-panel')).toBeVisible();
      await expect(rows(page)).toHaveCount(1);
      await shot(page, 'list-domains-filters');
      await page.getByTestId('filters-reset').click();
      await expect(rows(page)).toHaveCount(3);
      await expect(page).toHaveURL((u) => u.search === '');

      // IDN domains are flagged.
      await expect(page.locator(`tr[data-row-key="${idn}"]`)).toContainText('Кириллица');

      // Sorting is in the URL.
      await page.locator('[data-testid="events-table"] thead th', { hasText: 'Домен' }).first().click();
      await expect(page).toHaveURL(/sort=-?domain/);

      // A sort the API refuses: its message, and a way back to a clean list.
      await page.goto('/domains?sort=-no_such_field');
      await expect(page.getByTestId('list-error')).toContainText('Сортировка по этому полю недоступна');
      await page.getByRole('button', { name: 'Сбросить фильтры и сортировку' }).click();
      await expect(rows(page)).toHaveCount(3);

      // Nothing matches: the empty state offers to reset.
      await page.goto(`/domains?q=nothing${stamp}xyz`);
      await expect(page.getByText('Событий не найдено')).toBeVisible();
      await page.getByRole('button', { name: 'Сбросить фильтры' }).click();
      await expect(rows(page)).toHaveCount(3);
    });

    test('a search broader than the count cap: «более 1 000» and statuses without numbers', async ({ page }) => {
      // A thousand matching events are not seeded here: the API's answer for such a search (its
      // semantics are covered by apps/api/test/events-search.test.ts) is given to the page as is.
      await page.route('**/api/v1/modules/domains/events?*', async (route) => {
        const url = new URL(route.request().url());
        if (!url.searchParams.get('q')) return route.continue();
        const res = await route.fetch();
        const body = await res.json();
        await route.fulfill({
          response: res,
          json: { ...body, total: 1000, total_capped: true, status_counts: [], status_counts_capped: true },
        });
      });
      await open(page, seeded.companyId);
      await page.goto(`/domains?q=${MARK}`);
      await expect(page.getByTestId('status-count-all')).toContainText('более 1 000');
      await expect(page.getByTestId('status-count-new')).toHaveText('Новое');
      await expect(page.getByText('Всего: более 1 000')).toBeVisible();
      // The statuses still filter.
      await page.getByTestId('status-count-new').click();
      await expect(page).toHaveURL(/status=new/);
      await shot(page, 'list-domains-search-capped');
    });

    test('status counts above 99 are shown in full, not «99+»', async ({ page }) => {
      await page.route('**/api/v1/modules/domains/events?*', async (route) => {
        const res = await route.fetch();
        const body = await res.json();
        const counts = (body.status_counts ?? []).map((c: { status_id: number }) => ({ ...c, count: 150 }));
        await route.fulfill({ response: res, json: { ...body, status_counts: counts } });
      });
      await open(page, seeded.companyId);
      await page.goto('/domains');
      await expect(page.getByTestId('status-count-new')).toContainText('150');
      await expect(page.getByTestId('status-strip')).not.toContainText('+');
    });

    test('a status past the list count cap reads «более 10 000», and «Все» too', async ({ page }) => {
      // The API counts each status of a list up to COUNT_CAP (events-search.test.ts); its answer
      // for a status past it is given to the page as is.
      await page.route('**/api/v1/modules/domains/events?*', async (route) => {
        const res = await route.fetch();
        const body = await res.json();
        const counts = (body.status_counts ?? []).map((c: { status_id: number }, i: number) =>
          i === 0 ? { ...c, count: 10_000, capped: true } : { ...c, count: 3 },
        );
        await route.fulfill({ response: res, json: { ...body, status_counts: counts } });
      });
      await open(page, seeded.companyId);
      await page.goto('/domains');
      const strip = page.getByTestId('status-strip');
      await expect(strip).toContainText('более 10 000');
      await expect(page.getByTestId('status-count-all')).toContainText('более 10 0');
      for (const width of [1280, 1920]) {
        await page.setViewportSize({ width, height: 900 });
        await expect(strip).toBeInViewport();
        await shot(page, `list-domains-status-capped-${width}`);
      }
    });

    test('a detail: change status, comment, attach a screenshot', async ({ page }) => {
      await open(page, seeded.companyId);
      const id = seeded.ids.domains[0] as number;
      await page.goto(`/domains/${id}`);
      await expect(page.getByTestId('page-title')).toHaveText(`${MARK}-one.ru`);

      // Status: PATCH, the header tag follows, the history records it.
      const patched = page.waitForResponse(
        (r) => r.url().endsWith(`/modules/domains/events/${id}`) && r.request().method() === 'PATCH',
      );
      await page.getByTestId('triage-status_id').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Ожидает ответа' }).click();
      expect((await patched).status()).toBe(200);
      await expect(page.getByTestId('triage-card')).toContainText('Ожидает ответа');
      await expect(page.getByTestId('history')).toContainText('Новое → Ожидает ответа');

      // A comment is plain text, never HTML.
      const text = `Проверено e2e <b>${stamp}</b>`;
      await page.getByTestId('comment-input').fill(text);
      await page.getByTestId('comment-submit').click();
      await expect(page.getByTestId('comments').getByTestId('comment-text')).toHaveText(text);
      await expect(page.getByTestId('comments').locator('b')).toHaveCount(0);

      // A screenshot: uploaded with the event id, shown as a thumbnail that really loads.
      await page
        .locator('[data-testid="attachments"] input[type=file]')
        .setInputFiles({ name: `screen-${stamp}.png`, mimeType: 'image/png', buffer: makePng(320, 200) });
      const thumb = page.getByTestId('attachments').getByRole('img', { name: `screen-${stamp}.png` });
      await expect(thumb).toBeVisible();
      await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
      await thumb.click();
      await expect(page.locator('.ant-image-preview-img')).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(page.locator('.ant-image-preview-img')).toHaveCount(0);
      await shot(page, 'detail-domains-triaged');

      // The list shows the new status.
      await page.getByRole('button', { name: 'К списку' }).click();
      await expect(page.locator(`tr[data-row-key="${id}"]`)).toContainText('Ожидает ответа');
    });

    for (const code of ['leaks', 'media'] as const) {
      test(`bulk: the priority of two ${code} events (one call on the collection)`, async ({ page }) => {
        const m = MODULE_LIST.find((x) => x.code === code) as ModuleDescriptor;
        await open(page, seeded.companyId);
        await page.goto(m.route);
        await expect(rows(page)).toHaveCount(3);
        const [a, b, c] = seeded.ids[code];
        for (const id of [a, b]) await page.locator(`tr[data-row-key="${id}"] .ant-table-selection-column .ant-checkbox`).click();
        await expect(page.getByTestId('bulk-bar')).toContainText('Выбрано: 2');
        await shot(page, `list-${code}-bulk`);
        await page.getByTestId('bulk-priority').click();
        await page.getByRole('menuitem', { name: 'Высокий' }).click();
        await expect(page.locator('.ant-message')).toContainText('Приоритет изменён: 2 события');
        for (const id of [a, b]) await expect(page.locator(`tr[data-row-key="${id}"]`)).toContainText('Высокий');
        await expect(page.locator(`tr[data-row-key="${c}"]`)).not.toContainText('Высокий');
        await expect(page.getByTestId('bulk-bar')).toHaveCount(0);
      });
    }

    test('module extras: card reveal, domain action, re-classification, repository file, linked leak, merchant category', async ({
      page,
    }) => {
      await open(page, seeded.companyId);

      // Acquiring: masked number, revealed in groups of four on request.
      await page.goto(`/acquiring/${seeded.ids.acquiring[0]}`);
      await expect(page.getByTestId('card-number')).toContainText('****');
      await page.getByTestId('card-reveal').click();
      await expect(page.getByTestId('card-number')).toHaveText(/^\d{4} \d{4} \d{4} \d{4}$/);

      // Domains: an action goes to the history.
      await page.goto(`/domains/${seeded.ids.domains[2]}`);
      await page.getByTestId('action-recheck').click();
      await page.getByRole('dialog').getByRole('textbox').fill('Сайт снова доступен');
      await page.getByRole('dialog').getByRole('button', { name: 'Отправить' }).click();
      await expect(page.getByTestId('history')).toContainText('Действие: Перепроверить');
      await expect(page.getByTestId('history')).toContainText('Сайт снова доступен');

      // Classification: the classifier's verdict is shown, and an analyst can send the event again.
      await expect(page.getByTestId('ml-state')).toContainText('Встроенный');
      await expect(page.getByTestId('ml-requeue')).toBeEnabled();
      await page.getByTestId('ml-requeue').click();
      await expect(page.locator('.ant-message')).toContainText('Событие поставлено в очередь на классификацию');

      // Repositories: a found file.
      await page.goto(`/repositories/${seeded.ids.repositories[0]}`);
      await page.getByRole('button', { name: 'Добавить файл' }).click();
      await page.getByLabel('Путь в репозитории').fill('config/secrets.yml');
      await page.getByLabel('Совпадение').fill('api_key: sk_live_…');
      await page.getByRole('dialog').getByRole('button', { name: 'Сохранить' }).click();
      await expect(page.getByTestId('repo-files')).toContainText('config/secrets.yml');
      await shot(page, 'detail-repositories-file');
      // Editing opens the form filled with the file; an empty path is refused in Russian, a new one saved.
      await page.getByRole('button', { name: 'Изменить файл' }).click();
      const fileDialog = page.getByRole('dialog', { name: 'Файл' });
      await expect(fileDialog.getByLabel('Путь в репозитории')).toHaveValue('config/secrets.yml');
      await expect(fileDialog.getByLabel('Совпадение')).toHaveValue('api_key: sk_live_…');
      await fileDialog.getByLabel('Путь в репозитории').fill(' ');
      await fileDialog.getByRole('button', { name: 'Сохранить' }).click();
      await expect(fileDialog).toContainText('Обязательное поле');
      await fileDialog.getByLabel('Путь в репозитории').fill('config/prod.yml');
      await fileDialog.getByRole('button', { name: 'Сохранить' }).click();
      await expect(fileDialog).toBeHidden();
      await expect(page.getByTestId('repo-files')).toContainText('config/prod.yml');
      await expect(page.getByTestId('repo-files')).not.toContainText('config/secrets.yml');

      // Accounts: link a leak of the catalogue by its name.
      await page.goto(`/accounts/${seeded.ids.accounts[0]}`);
      await page.getByTestId('leak-link').click();
      await page.keyboard.type(`e2e ${stamp}`);
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: seeded.leakName }).click();
      await expect(page.getByTestId('linked-leaks')).toContainText(seeded.leakName);
      await shot(page, 'detail-accounts-linked');

      // Merchants: the breach category from the API's list.
      await page.goto(`/merchants/${seeded.ids.merchant[0]}`);
      await page.getByTestId('merchant-categories').getByLabel('Категория нарушения').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Криптовалюта' }).click();
      await expect(page.getByTestId('history')).toContainText('Азартные игры → Криптовалюта');
    });

    test('an unknown event id is the 404 page', async ({ page }) => {
      await open(page, seeded.companyId);
      await page.goto('/domains/987654321');
      await expect(page.getByTestId('error-status')).toHaveText('404');
      await expect(page.getByTestId('error-message')).toHaveText('Событие не найдено');
      await page.goto('/domains/not-a-number');
      await expect(page.getByTestId('error-status')).toHaveText('404');
    });
  });
