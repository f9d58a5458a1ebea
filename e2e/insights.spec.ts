import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getModule } from '@forpost/contract/modules';
import { expect, test } from '@playwright/test';
import { pdfPages } from '../apps/api/test/reports.pdftext';
import { adminApi, login, ok, pickOption } from './helpers';

/*
 * Home dashboard, notification mailings and reports: a fresh company seeded through the API, then
 * the dashboard with its figures and a click through to the filtered list, a mailing created with
 * its match preview, a report generated and downloaded — with screenshots of every page.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/insights');
const stamp = Date.now().toString(36);
/** Domain names get another suffix: the stamp is in the company's name, and the classifier would take it for the brand. */
const salt = Math.random().toString(36).slice(2, 8);

interface Seeded {
  companyId: number;
  /** Events created: domains (of which critical / high), media, accounts. */
  domains: number;
  critical: number;
  high: number;
  media: number;
  accounts: number;
}
let seeded: Seeded;

async function seed(baseURL: string): Promise<Seeded> {
  const api = await adminApi(baseURL);
  const company = await ok<{ id: number }>(
    await api.post('/api/v1/companies', { data: { name: `Сбербанк E2E ${stamp}` } }),
    'company',
  );
  const prio = Object.fromEntries(
    (
      await ok<{ items: { id: number; code: string }[] }>(
        await api.get('/api/v1/modules/domains/events/priorities'),
        'priorities',
      )
    ).items.map((p) => [p.code, p.id]),
  );
  const domains = [
    { domain: `sberbank-login-${salt}.xyz`, priority_id: prio.critical },
    { domain: `sber-bonus-${salt}.online`, priority_id: prio.critical },
    { domain: `сбер-оплата-${salt}.рф`, priority_id: prio.critical },
    { domain: `sbrebank-${salt}.ru`, priority_id: prio.high },
    { domain: `sber-promo-${salt}.site`, priority_id: prio.high },
    { domain: `example-${salt}.ru`, priority_id: prio.low },
    { domain: `shop-${salt}.ru` },
  ];
  for (const d of domains)
    await ok(await api.post('/api/v1/modules/domains/events', { data: { company_id: company.id, ...d } }), 'domain');
  const media = [
    { headline: `Клиенты пожаловались на сбой и утечку данных ${stamp}`, connotation: 'Negative' },
    { headline: `Мошенники атакуют клиентов банка ${stamp}`, connotation: 'Negative' },
    { headline: `Банк получил премию за надёжность ${stamp}`, connotation: 'Positive' },
    { headline: `Банк открыл новое отделение ${stamp}`, connotation: 'Neutral' },
  ];
  for (const [i, m] of media.entries()) {
    await ok(
      await api.post('/api/v1/modules/media/events', {
        data: { company_id: company.id, url: `https://news.example.ru/${stamp}/${i}`, ...m },
      }),
      'media',
    );
  }
  for (let i = 0; i < 3; i++) {
    await ok(
      await api.post('/api/v1/modules/accounts/events', { data: { company_id: company.id, ...accountSample(i) } }),
      'account',
    );
  }
  await api.dispose();
  return { companyId: company.id, domains: domains.length, critical: 3, high: 2, media: media.length, accounts: 3 };
}

/** A valid accounts event (the registry's sample varies by n). */
const accountSample = (i: number): Record<string, unknown> => getModule('accounts').sample(2000 + i);

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ baseURL }) => {
  mkdirSync(SHOTS, { recursive: true });
  seeded = await seed(baseURL ?? 'http://127.0.0.1:8199');
});

test('the dashboard shows the seeded figures and leads to the filtered list', async ({ page }) => {
  await login(page);
  // Opened with ?companyId=: the very first chart requests already carry the company (none for all companies).
  const asked: string[] = [];
  const onRequest = (r: { url(): string }) => {
    if (r.url().includes('/api/v1/modules/analytics/dashboard/')) asked.push(r.url());
  };
  // When the page's title entered the document (the page's first commit), on the page's own clock.
  await page.addInitScript(() => {
    const w = window as unknown as { __titleAt?: number };
    new MutationObserver((_m, o) => {
      if (!document.querySelector('[data-testid="page-title"]')) return;
      w.__titleAt = performance.now();
      o.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  page.on('request', onRequest);
  await page.goto(`/?companyId=${seeded.companyId}&period=7d`);
  await expect(page.getByTestId('page-title')).toHaveText('Главная');
  const total = seeded.domains + seeded.media + seeded.accounts;
  await expect(page.getByTestId('kpi-new')).toContainText(String(total));
  page.off('request', onRequest);
  expect(asked.filter((u) => new URL(u).searchParams.get('company_id') !== String(seeded.companyId))).toEqual([]);
  // The route's loader sends them before the page's first commit (not from its effects), each once:
  // six charts and SLA.
  const order = await page.evaluate(() => ({
    title: (window as unknown as { __titleAt?: number }).__titleAt ?? Number.NaN,
    asked: Math.min(
      ...performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/api/v1/modules/analytics/dashboard/'))
        .map((e) => e.startTime),
    ),
  }));
  expect(order.asked).toBeLessThan(order.title);
  const paths = asked.map((u) => new URL(u).pathname.replace('/api/v1/modules/analytics/dashboard/', ''));
  expect([...paths].sort()).toEqual(
    [
      'account/events',
      'common/criticalevents',
      'common/newevents',
      'common/priorityevents',
      'common/sla',
      'domains/events',
      'media/connotationevents',
    ].sort(),
  );
  await expect(page.getByTestId('kpi-critical')).toContainText(String(seeded.critical));
  await expect(page.getByTestId('kpi-domains')).toContainText(String(seeded.domains));
  await expect(page.getByTestId('chart-new-total')).toHaveText(String(total));
  await expect(page.getByTestId('chart-priority-total')).toHaveText(String(total));
  await expect(page.getByTestId('echart-new').locator('svg')).toBeVisible();
  await expect(page.getByTestId('echart-connotation').locator('svg')).toBeVisible();
  await expect(page.getByTestId('dashboard-subtitle')).toContainText('Сбербанк E2E');
  // The classifier worker marks the new events (Negative/Positive for media, priority for domains).
  await expect(page.getByTestId('kpi-negative')).toContainText('2');
  await page.waitForTimeout(500); // let the charts finish their entry animation
  await page.screenshot({ path: path.join(SHOTS, 'dashboard.png'), fullPage: true });

  // 90 days and back to 7 keep the figures (everything is from today).
  await page.getByTestId('period-presets').getByText('90 дней').click();
  await expect(page).toHaveURL(/period=90d/);
  await expect(page.getByTestId('chart-new-total')).toHaveText(String(total));

  // A click on the domains' bar opens the domains list of that day.
  await page.goto(`/?companyId=${seeded.companyId}&period=7d&modules=domains`);
  await expect(page.getByTestId('chart-new-total')).toHaveText(String(seeded.domains));
  // The module chart colours modules by rank (Okabe–Ito): the only module gets the palette's first colour.
  const bar = page.getByTestId('echart-new').locator('svg path[fill="#0072B2"]');
  const heights = () => bar.evaluateAll((els) => els.map((e) => (e as SVGGraphicsElement).getBoundingClientRect().height));
  await expect.poll(async () => Math.max(0, ...(await heights()))).toBeGreaterThan(50); // the bar, not the legend's dot
  const boxes = await heights();
  await bar.nth(boxes.indexOf(Math.max(...boxes))).click();
  await expect(page).toHaveURL(/\/domains\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('created_from')).toMatch(/T00:00:00\+03:00$/);
  expect(url.searchParams.get('created_to')).toMatch(/T23:59:59\.999\+03:00$/);
});

/** dd.MM.yyyy of the day `days` from today in Moscow (the tests run in that zone). */
const dayOffset = (days: number): string => {
  const d = new Date(Date.now() + days * 86_400_000);
  const [y, m, dd] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Moscow' }).format(d).split('-');
  return `${dd}.${m}.${y}`;
};

test('a chart whose request fails shows its error and «Повторить» loads it; no toasts', async ({ page }) => {
  await login(page);
  // The critical events' endpoint fails (500, with the client's retries) until the user asks again.
  let failing = true;
  let calls = 0;
  await page.route('**/api/v1/modules/analytics/dashboard/common/criticalevents?**', async (route) => {
    if (new URL(route.request().url()).searchParams.get('company_id') === String(seeded.companyId)) calls++;
    if (!failing) return route.fallback();
    return route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 500, statusMessage: 'Internal Server Error', message: 'Внутренняя ошибка сервера' }),
    });
  });
  await page.goto(`/?companyId=${seeded.companyId}&period=7d`);
  const card = page.getByTestId('chart-critical');
  await expect(page.getByTestId('chart-critical-error')).toContainText('Не удалось загрузить график');
  // One error for the page, with the API's message; the other charts are drawn.
  await expect(page.getByTestId('dashboard-error')).toHaveCount(1);
  await expect(page.getByTestId('dashboard-error')).toContainText('Не удалось загрузить графики: 1 из 7'); // six charts and the SLA card
  await expect(page.getByTestId('dashboard-error')).toContainText('Внутренняя ошибка сервера');
  await expect(page.getByTestId('echart-new').locator('svg')).toBeVisible();
  await expect(page.getByTestId('chart-new-total')).toHaveText(String(seeded.domains + seeded.media + seeded.accounts));
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await expect(card.getByTestId('chart-critical-total')).toHaveCount(0);
  await expect(page.getByTestId('kpi-critical')).toContainText('—');
  expect(calls).toBe(3); // the request and the HTTP client's two retries of a 500, then no more
  await page.waitForTimeout(500);
  await page.screenshot({ path: path.join(SHOTS, 'dashboard-error.png'), fullPage: true });

  failing = false;
  await card.getByRole('button', { name: 'Повторить' }).click();
  await expect(card.getByTestId('echart-critical').locator('svg')).toBeVisible();
  // Bars, not a line of 0/1 spikes (the chart's accessible description names its type).
  await expect(card.getByTestId('echart-critical')).toHaveAttribute('aria-label', /bar/i);
  await expect(page.getByTestId('chart-critical-total')).toHaveText(String(seeded.critical));
  await expect(page.getByTestId('kpi-critical')).toContainText(String(seeded.critical));
  await expect(page.getByTestId('dashboard-error')).toHaveCount(0);
  await expect(page.getByTestId('chart-critical-error')).toHaveCount(0);

  // Two charts down (a 503 from the accounts' endpoint too): the page's error offers «Повторить все».
  failing = true;
  await page.route('**/api/v1/modules/analytics/dashboard/account/events?**', (route) =>
    failing ? route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }) : route.fallback(),
  );
  await page.goto(`/?companyId=${seeded.companyId}&period=30d`);
  const alert = page.getByTestId('dashboard-error');
  await expect(alert).toContainText('Не удалось загрузить графики: 2 из 7');
  await expect(page.getByTestId('chart-accounts-error')).toBeVisible();
  await expect(page.getByTestId('chart-critical-error')).toBeVisible();
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  failing = false;
  await alert.getByRole('button', { name: 'Повторить все' }).click();
  await expect(page.getByTestId('chart-accounts-total')).toHaveText(String(seeded.accounts));
  await expect(page.getByTestId('chart-critical-total')).toHaveText(String(seeded.critical));
  await expect(alert).toHaveCount(0);
});

test('the custom range cannot be longer than the API allows, and the picker keeps it', async ({ page }) => {
  await login(page);
  await page.goto(`/?companyId=${seeded.companyId}&period=7d`);
  await expect(page.getByTestId('chart-new-total')).toHaveText(String(seeded.domains + seeded.media + seeded.accounts));
  const start = page.getByPlaceholder('Начало');
  const end = page.getByPlaceholder('Конец');
  // From 400 days ago: today is past the 366-day limit and cannot be chosen as the end.
  const from = dayOffset(-400);
  await start.click();
  await start.fill(from);
  await start.press('Enter');
  await expect(end).toBeFocused();
  const panel = page.locator('.ant-picker-dropdown:visible');
  const toDay = (d: string) => d.split('.').reverse().join('-');
  /** A day cell of the open panel (their titles are YYYY-MM-DD). */
  const cell = (day: string) => panel.locator(`td[title="${toDay(day)}"]`);
  // The first day's neighbourhood is shown: the day 365 days on is allowed, the next one is not.
  await end.fill(dayOffset(-400 + 365));
  await expect(cell(dayOffset(-400 + 365))).not.toHaveClass(/ant-picker-cell-disabled/);
  await end.fill(dayOffset(-400 + 366));
  await expect(cell(dayOffset(-400 + 366))).toHaveClass(/ant-picker-cell-disabled/);
  await page.screenshot({ path: path.join(SHOTS, 'dashboard-range-limit.png'), fullPage: true });
  // Typed anyway, the day is refused: the picker falls back to the period it had.
  await end.press('Enter');
  await expect(panel).toHaveCount(0);
  await expect(page).not.toHaveURL(/from=/);
  await expect(start).toHaveValue(dayOffset(-6));
  await expect(end).toHaveValue(dayOffset(0));

  // 366 days, the longest period, are taken.
  await start.click();
  await start.fill(from);
  await start.press('Enter');
  await expect(end).toBeFocused();
  await end.fill(dayOffset(-400 + 365));
  await end.press('Enter');
  await expect(page).toHaveURL(new RegExp(`from=${toDay(from)}&to=${toDay(dayOffset(-400 + 365))}`));
  await expect(page.locator('.ant-picker-dropdown:visible')).toHaveCount(0);
  // The longest allowed period loads (the seeded events are from today: outside it, so empty) and the
  // picker keeps its days — they come from the URL, not from an answer.
  await expect(page.getByTestId('chart-new')).toContainText('Нет событий за период');
  await expect(page.getByTestId('dashboard-error')).toHaveCount(0);
  await expect(start).toHaveValue(from);
  await expect(end).toHaveValue(dayOffset(-400 + 365));
  await expect(page.getByTestId('dashboard-subtitle')).toContainText(`${from} — ${dayOffset(-400 + 365)}`);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, 'dashboard-empty.png'), fullPage: true });

  // A longer period put in the URL by hand: one error with the API's message, no toasts, no retry
  // buttons (asking again cannot help), and the picker still shows the asked days.
  await page.goto(`/?companyId=${seeded.companyId}&from=${toDay(dayOffset(-400))}&to=${toDay(dayOffset(0))}`);
  await expect(page.getByTestId('dashboard-error')).toContainText('Период не может быть длиннее 366 дней');
  await expect(page.getByTestId('dashboard-error')).toContainText('Не удалось загрузить сводку');
  await expect(page.getByTestId('chart-new-error')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Повторить' })).toHaveCount(0);
  await expect(page.locator('.ant-message-notice')).toHaveCount(0);
  await expect(start).toHaveValue(from);
  await expect(end).toHaveValue(dayOffset(0));
  await page.screenshot({ path: path.join(SHOTS, 'dashboard-too-long.png'), fullPage: true });
});

test('a mailing is created with its match preview', async ({ page, baseURL }) => {
  // Two of the critical domains are the admin's: the assignee filter then splits the preview 2 / 3.
  const api = await adminApi(baseURL);
  const me = await ok<{ id: number; name: string }>(await api.get('/api/v1/me'), 'me');
  const priorities = await ok<{ items: { id: number; code: string }[] }>(
    await api.get('/api/v1/modules/domains/events/priorities'),
    'priorities',
  );
  const criticalId = priorities.items.find((p) => p.code === 'critical')?.id;
  const critical = await ok<{ items: { id: number }[] }>(
    await api.get(`/api/v1/modules/domains/events?company_id=${seeded.companyId}&priority=${criticalId}&page_size=2`),
    'critical domains',
  );
  expect(critical.items).toHaveLength(2);
  for (const e of critical.items)
    await ok(await api.patch(`/api/v1/modules/domains/events/${e.id}`, { data: { assignee_id: me.id } }), 'assign');
  await api.dispose();

  await login(page);
  await page.goto(`/notifications?companyId=${seeded.companyId}`);
  await expect(page.getByTestId('page-title')).toHaveText('Уведомления');
  await page.getByRole('button', { name: 'Создать рассылку' }).first().click();
  await expect(page).toHaveURL(/\/notifications\/new/);
  const form = page.getByTestId('mailing-form');
  await form.getByLabel('Название').fill(`Критичные домены ${stamp}`);
  const recipients = form.getByTestId('recipients').locator('input');
  await recipients.fill('soc@sberbank.ru');
  await recipients.press('Enter');
  await recipients.fill('lead@sberbank.ru');
  await recipients.press('Enter');
  // A bad address: the spec's exact message, and the address itself marked; removed, the form is valid again.
  await recipients.fill('не-адрес');
  await recipients.press('Enter');
  await expect(form.getByText('Неверный формат email', { exact: true })).toBeVisible();
  const bad = form.getByTestId('recipients').locator('[data-invalid]');
  await expect(bad).toHaveCount(1);
  await expect(bad).toContainText('не-адрес');
  await bad.locator('.ant-tag-close-icon').click();
  await expect(form.getByText('Неверный формат email', { exact: true })).toHaveCount(0);
  const modules = form.getByTestId('filter-modules');
  await pickOption(page, modules, 'Домены');
  await page.getByTestId('page-title').click(); // closes the dropdown
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await expect(modules).toContainText('Домены');
  // Default priorities: critical and high → 3 + 2 of the seeded domains over the last 7 days.
  const count = page.getByTestId('mailing-preview-count');
  await expect(count).toHaveText(String(seeded.critical + seeded.high), { timeout: 15_000 });
  // The assignee filter (the events' picker): «Не назначен» leaves the three nobody has, the admin their two.
  const assignee = form.getByTestId('filter-assignee');
  await expect(assignee).toContainText('Любой исполнитель');
  await pickOption(page, assignee, 'Не назначен');
  await expect(count).toHaveText(String(seeded.critical + seeded.high - 2), { timeout: 15_000 });
  await pickOption(page, assignee, me.name);
  await expect(count).toHaveText('2', { timeout: 15_000 });
  await page.screenshot({ path: path.join(SHOTS, 'notifications-new.png'), fullPage: true });

  await page.getByTestId('mailing-save').click();
  await expect(page).toHaveURL(/\/notifications\/\d+$/);
  await expect(page.getByText('Рассылка создана')).toBeVisible();
  await expect(page.getByTestId('deliveries')).toBeVisible();
  await expect(page.getByTestId('page-title')).toHaveText(`Критичные домены ${stamp}`);
  // Saved with its assignee: the stored mailing shows it and previews the same two.
  await expect(page.getByTestId('mailing-form').getByTestId('filter-assignee')).toContainText(me.name);
  await expect(count).toHaveText('2', { timeout: 15_000 });
  await page.screenshot({ path: path.join(SHOTS, 'notifications-detail.png'), fullPage: true });

  // A name with a line break is refused.
  await page.goto(`/notifications?companyId=${seeded.companyId}`);
  await expect(page.getByTestId('mailings-table')).toContainText(`Критичные домены ${stamp}`);
  await expect(page.getByTestId('mailings-table')).toContainText('soc@sberbank.ru');
  const mine = page
    .getByTestId('mailings-table')
    .locator('tbody tr')
    .filter({ hasText: `Критичные домены ${stamp}` });
  await expect(mine.getByTestId('mailing-last-sent')).toHaveText('Писем ещё не было');
  // At 1280 px with the side menu open every column is in view: the table does not scroll sideways.
  await page.setViewportSize({ width: 1280, height: 800 });
  const table = page.getByTestId('mailings-table').locator('.ant-table-content');
  await expect
    .poll(() => table.evaluate((el) => el.scrollWidth - el.clientWidth), { message: 'hidden columns at 1280 px' })
    .toBeLessThanOrEqual(0);
  await page.screenshot({ path: path.join(SHOTS, 'notifications.png'), fullPage: true });
});

test('a report is generated and downloaded', async ({ page }) => {
  await login(page);
  await page.goto(`/reports?companyId=${seeded.companyId}`);
  await expect(page.getByTestId('page-title')).toHaveText('Отчёты');
  await page.getByTestId('report-summary').fill('Главный риск — фишинговые домены.');
  await page.getByTestId('report-create').click();
  await expect(page.getByText('Отчёт формируется')).toBeVisible();
  const table = page.getByTestId('reports-table');
  const row = table
    .locator('tbody tr')
    .filter({ hasText: `Сбербанк E2E ${stamp}` })
    .first();
  await expect(row).toContainText('Готов', { timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'Скачать' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const file = await download.path();
  expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
  expect(readFileSync(file).length).toBeGreaterThan(10_000);
  // The analyst's summary is on page 1.
  expect(pdfPages(readFileSync(file))[0]?.replace(/\s+/g, ' ')).toContain('Главный риск — фишинговые домены.');

  // Sent by email: the request only queues it; the list then shows the send's state.
  await row.getByRole('button', { name: 'Отправить' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox').fill('ciso@sberbank.ru');
  await dialog.getByRole('combobox').press('Enter');
  await dialog.getByRole('button', { name: 'Отправить' }).click();
  await expect(page.getByText('Отчёт поставлен в очередь на отправку')).toBeVisible();
  await expect(row).toContainText('Отправлен', { timeout: 30_000 });
  await page.screenshot({ path: path.join(SHOTS, 'reports.png'), fullPage: true });
});

test('an event without a classification record (created with its ML state) can be sent to the classifier again', async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL);
  const event = await ok<{ id: number }>(
    await api.post('/api/v1/modules/domains/events', {
      data: { company_id: seeded.companyId, domain: `ml-done-${salt}.ru`, ml_state: 'Done' },
    }),
    'domain',
  );
  const before = await ok<{ classifier: string | null }>(await api.get(`/api/v1/modules/domains/events/${event.id}/ml`), 'ml');
  expect(before.classifier).toBeNull(); // no event_ml row: the case the button used to be hidden for
  await api.dispose();

  await login(page);
  await page.goto(`/domains/${event.id}`);
  await expect(page.getByTestId('ml-state')).toContainText('Обработано ML');
  await expect(page.getByTestId('ml-requeue')).toBeEnabled();
  await page.getByTestId('ml-requeue').click();
  await expect(page.locator('.ant-message')).toContainText('Событие поставлено в очередь на классификацию');
});
