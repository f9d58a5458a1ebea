/*
 * «Поиск доменов» in the browser: a protected domain is added on the page, its candidates previewed,
 * a run started against a DNS server this spec starts on 127.0.0.1 (the e2e server's settings point at
 * it), the run's new event opened from the runs table, and its snapshot block filled by the snapshot
 * producer, which discovery queues for every new event (the e2e server maps snapshot-target.ru to a page
 * on loopback). A second, slow run is stopped from the runs table and shown as «Отменён» with its progress.
 * A company without domains is told why its page is empty; the page warns that RDAP is not configured; a
 * run whose .ru names are refused by the DNS server is an orange «Завершён с ошибками» with its errors by
 * reason and example names.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { type DnsServer, startDnsServer } from '../apps/api/test/peers/dns-server';
import { adminApi, login, ok } from './helpers';

const SHOTS = path.join(process.env.E2E_DATA_DIR ?? '.tmp', 'shots', 'discovery');
mkdirSync(SHOTS, { recursive: true });
/** snapshot-target.ru (the e2e server's mapped site) is an omission candidate of this domain. */
const PROTECTED = 'snapshot-targett.ru';
const FOUND = 'snapshot-target.ru';

let dns: DnsServer;
let companyId: number;

/** Sets discovery settings as the administrator (one sign-in for all of them). */
async function setConfigs(baseURL: string | undefined, values: Record<string, string | number>) {
  const api = await adminApi(baseURL);
  for (const [key, value] of Object.entries(values)) {
    const r = await api.post('/api/v1/configs', { data: { key, value } });
    if (r.status() === 409) await ok(await api.patch(`/api/v1/configs/${key}`, { data: { value } }), key);
    else await ok(r, key);
  }
  await api.dispose();
}

async function shot(page: Page, name: string) {
  for (const [w, h] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${w}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test.describe
  .serial('discovery', () => {
    test.beforeAll(async ({ baseURL }) => {
      dns = await startDnsServer({ [FOUND]: { A: ['127.0.0.1'], MX: ['10 mx.snapshot-target.ru'], NS: ['ns1.evil.test'] } });
      await setConfigs(baseURL, {
        discovery_dns_servers: dns.server,
        discovery_dns_timeout_ms: 300,
        discovery_dns_retries: 0,
        discovery_dns_rate: 20000,
        discovery_dns_concurrency: 100,
        // No RDAP: no servers and no bootstrap file (the default is IANA's, unreachable here).
        discovery_rdap_servers: '',
        discovery_rdap_bootstrap: '',
        // Discovered events get their snapshot without the «snapshot on create» sweep.
        snapshot_on_create: 0,
      });
      const api = await adminApi(baseURL);
      companyId = (await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: 'Дисковери Банк' } }), 'company'))
        .id;
      await api.dispose();
    });
    test.afterAll(async () => {
      await dns?.close();
    });

    test('add a protected domain, preview its candidates, run discovery, open the new event', async ({ page }) => {
      test.setTimeout(240_000);
      await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
      await login(page, '/discovery');
      await expect(page.getByTestId('page-title')).toHaveText('Поиск доменов');
      await expect(page.getByText('Запусков пока не было')).toBeVisible();

      // Assets of the company chosen in the header.
      await page.getByRole('tab', { name: 'Активы' }).click();
      const card = page.getByTestId('assets-card');
      await card.getByTestId('asset-value').fill('not a domain');
      await card.getByTestId('asset-add').click();
      await expect(card).toContainText('Укажите домен, например example.ru или пример.рф');
      await card.getByTestId('asset-value').fill(PROTECTED);
      await card.getByTestId('asset-add').click();
      await expect(card.getByTestId('asset-row')).toHaveText(PROTECTED);
      await shot(page, 'assets');

      // Its candidates: the total, a filter by fuzzer with counts, the looked-for name among omissions.
      await card.getByTestId('asset-preview').click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByTestId('preview-total')).toContainText('Кандидатов:');
      await dialog.getByTestId('preview-fuzzer').click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'Пропущен символ' }).click();
      await expect(dialog.getByRole('cell', { name: FOUND, exact: true })).toBeVisible();
      await shot(page, 'preview');
      await page.keyboard.press('Escape');

      // A run: started from the page, followed until done, its new event one click away.
      await page.getByRole('tab', { name: 'Запуски' }).click();
      await page.getByTestId('run-start').click();
      await page.locator('#run-confirm').click();
      await expect(page.locator('.ant-message')).toContainText('Поиск запущен');
      await expect(page.getByTestId('run-status').first()).toHaveText('Завершён', { timeout: 120_000 });
      const link = page.getByTestId('run-events');
      await expect(link).toHaveText('1');
      await shot(page, 'runs');
      // Issue #30: the company's name was cut («Дисков…») at 1280; it fits its cell at both widths.
      for (const size of [
        { width: 1280, height: 800 },
        { width: 1920, height: 1080 },
      ]) {
        await page.setViewportSize(size);
        const company = page.locator('.ant-table-tbody tr.ant-table-row').first().locator('td').nth(2);
        await expect(company).toHaveText('Дисковери Банк');
        const box = await company.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
        expect(box.scroll, `«Компания» is cut at ${size.width}`).toBeLessThanOrEqual(box.client);
      }
      await page.setViewportSize({ width: 1440, height: 900 });
      await link.click();
      await expect(page).toHaveURL(/\/domains\?.*discovery_run=/);
      // The run's one new event.
      await page.getByText(FOUND, { exact: true }).first().click();
      await expect(page).toHaveURL(/\/domains\/\d+/);
      await expect(page.getByTestId('event-fields')).toContainText('Пропущен символ');

      // The snapshot producer checks the new event: discovery queues it (snapshot_on_create is 0).
      const eventId = Number(/\/domains\/(\d+)/.exec(page.url())?.[1]);
      await expect
        .poll(
          async () => {
            const r = await page.request.get(`/api/v1/modules/domains/events/snapshots/${eventId}`);
            const items = ((await r.json()) as { items?: { page_title: string | null; error: string | null }[] }).items ?? [];
            return items.map((x) => x.page_title ?? x.error ?? '').join(' | ');
          },
          { timeout: 120_000, intervals: [2000] },
        )
        .toContain('Сбербанк Онлайн — бонусы (фишинг)');
      await page.reload();
      await expect(page.getByTestId('domain-snapshots').getByTestId('snapshot-title').first()).toHaveText(
        'Сбербанк Онлайн — бонусы (фишинг)',
        { timeout: 30_000 },
      );
      await shot(page, 'event');
    });

    test('sources warning, a company without domains, a run with errors by reason', async ({ page, baseURL }) => {
      test.setTimeout(120_000);
      const api = await adminApi(baseURL);
      const other = (await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: 'Ошибки Банк' } }), 'company'))
        .id;
      await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), other);
      await login(page, '/discovery');
      // RDAP is off in this server's settings: said before any run.
      await expect(page.getByTestId('sources-alert')).toContainText('RDAP не настроен');
      await expect(page.getByTestId('no-domains-alert')).toContainText('Для компании не заданы защищаемые домены');
      await ok(
        await api.post(`/api/v1/companies/${other}/assets`, { data: { kind: 'domain', value: 'oshibki-bank.ru' } }),
        'asset',
      );
      await api.dispose();
      // Every .ru name is refused: most candidates of oshibki-bank.ru go unchecked.
      dns.setRecord('*.ru', { rcode: 'REFUSED' });
      try {
        await page.reload();
        await expect(page.getByTestId('no-domains-alert')).toHaveCount(0);
        await page.getByTestId('run-start').click();
        await expect(page.getByRole('dialog').getByTestId('sources-alert')).toContainText('RDAP не настроен');
        await page.locator('#run-confirm').click();
        await expect(page.locator('.ant-message')).toContainText('Поиск запущен');
        const row = page.locator('.ant-table-row').first();
        await expect(row.getByTestId('run-status')).toHaveText('Завершён с ошибками', { timeout: 60_000 });
        await expect(row.getByTestId('run-registered-incomplete')).toHaveText('0проверка неполная');
        await row.locator('.ant-table-row-expand-icon').click();
        const issues = page.getByTestId('run-issues');
        await expect(issues.getByTestId('run-issues-dns')).toContainText('DNS: сервер отказал в ответе (REFUSED)');
        await expect(issues.getByTestId('run-issues-dns')).toContainText(/например: [^,]+\.ru, /);
        await expect(issues).toContainText('Проверка неполная');
        await expect(issues).toContainText('RDAP (регистрационные данные)');
        await shot(page, 'runs-errors');
      } finally {
        dns.setRecord('*.ru', null);
      }
    });

    test('a running run is stopped from the page: «Отменён» with how far it got', async ({ page, baseURL }) => {
      test.setTimeout(120_000);
      // Slow enough that the run is still going when the button is pressed (~27 000 names at 300/s).
      await setConfigs(baseURL, { discovery_dns_rate: 300, discovery_dns_concurrency: 10 });
      try {
        await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
        await login(page, '/discovery');
        await page.getByTestId('run-start').click();
        await page.locator('#run-confirm').click();
        await expect(page.locator('.ant-message')).toContainText('Поиск запущен');
        const row = page.locator('.ant-table-row').first();
        await expect(row.getByTestId('run-status')).toHaveText('Выполняется', { timeout: 60_000 });
        // Stopped once it has checked some names (the page refreshes a running run every 3 s).
        await expect(row.getByTestId('run-resolved')).not.toHaveText('0', { timeout: 60_000 });
        await row.getByTestId('run-stop').click();
        const confirm = page.locator('.ant-popconfirm');
        await expect(confirm).toContainText('Остановить поиск?');
        await confirm.getByRole('button', { name: 'Остановить' }).click();
        await expect(page.locator('.ant-message')).toContainText(/Поиск (останавливается|отменён)/);
        await expect(row.getByTestId('run-status')).toHaveText('Отменён', { timeout: 30_000 });
        await expect(row.getByTestId('run-partial')).toHaveText(/^проверено [1-9][\d\s\u00a0]* из [\d\s\u00a0]+$/);
        await expect(row.getByTestId('run-stop')).toHaveCount(0);
        // The first run, finished, has no stop button.
        await expect(page.locator('.ant-table-row').nth(1).getByTestId('run-stop')).toHaveCount(0);
        await shot(page, 'runs-cancelled');
      } finally {
        await setConfigs(baseURL, { discovery_dns_rate: 20000, discovery_dns_concurrency: 100 });
      }
    });
  });
