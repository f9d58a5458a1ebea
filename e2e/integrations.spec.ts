/*
 * Integrations (#33) in the browser: «Настройки → Интеграции» empty, failing (the API refuses) and
 * filled; a webhook endpoint added in the form, its secret shown once and read from the page; an event
 * created through the API reaches a receiver started here (127.0.0.1; the e2e server allows private
 * addresses) through the server's own outbox worker, and the receiver verifies it with the
 * `standardwebhooks` package and the secret the page showed; the delivery log shows it delivered (204).
 * Screenshots at 1280 and 1920.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect as baseExpect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { adminApi, login, ok, pickOption } from './helpers';

const expect = baseExpect.configure({ timeout: 30_000 });
const token = `inte2e${Date.now().toString(36)}`;
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/integrations');
const SIZES = [
  [1280, 800],
  [1920, 1080],
] as const;

test('integrations: a webhook added in the console receives a verified event; the delivery log', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const received: { body: string; headers: Record<string, string> }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        headers: {
          'webhook-id': String(req.headers['webhook-id']),
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        },
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/forpost`;
  try {
    const api = await adminApi(baseURL);
    const company = await ok<{ id: number }>(
      await api.post('/api/v1/companies', { data: { name: `Интеграции ${token}` } }),
      'company',
    );

    await login(page, '/settings/integrations');
    await expect(page.getByRole('heading', { name: 'Интеграции' })).toBeVisible();

    // The error state: the API refuses the list.
    await page.route('**/api/v1/integrations?*', (r) =>
      r.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, message: 'Ошибка, попробуйте позже' }),
      }),
    );
    await page.route('**/api/v1/integrations', (r) =>
      r.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 500, message: 'Ошибка, попробуйте позже' }),
      }),
    );
    await page.reload();
    await expect(page.getByTestId('load-error')).toContainText('Ошибка, попробуйте позже');
    await page.unroute('**/api/v1/integrations?*');
    await page.unroute('**/api/v1/integrations');
    await page.reload();
    await expect(page.getByTestId('int-webhook-table')).toBeVisible();

    // Add a webhook in the form; the secret is shown once.
    await page.getByTestId('int-add-webhook').click();
    const dialog = page.getByRole('dialog', { name: 'Новый веб-хук' });
    // After the other specs there are many companies and the dropdown renders only those in view: type to filter.
    await dialog.getByTestId('int-company').click();
    await dialog.getByTestId('int-company').locator('input').fill(`Интеграции ${token}`);
    await pickOption(page, dialog.getByTestId('int-company'), `Интеграции ${token}`);
    await dialog.getByTestId('int-name').fill('SOAR');
    await dialog.getByTestId('int-url').fill(url);
    await dialog.getByRole('button', { name: /Добавить|Создать|Сохранить/ }).click();
    const secret = (await page.getByTestId('int-secret').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Сохранил' }).click();
    const row = page.getByTestId('int-webhook-table').getByRole('row', { name: /SOAR/ });
    await expect(row).toContainText(url);
    await expect(row).toContainText('работает');

    // An event of the company: the server's outbox worker delivers it, signed with that secret.
    const ev = await ok<{ id: number }>(
      await api.post('/api/v1/modules/domains/events', { data: { company_id: company.id, domain: `vhod-${token}.ru` } }),
      'event',
    );
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const got = received[0] as (typeof received)[number];
    const payload = new Webhook(secret).verify(got.body, got.headers) as { type: string; data: { event_id: number } };
    expect(payload.type).toBe('event.created');
    expect(payload.data.event_id).toBe(ev.id);

    // The syslog table with an output (made through the API), then the screenshots.
    await ok(
      await api.post('/api/v1/integrations/syslog', {
        data: { company_id: company.id, name: 'SIEM', host: 'siem.example.ru', port: 6514, tls: true },
      }),
      'syslog',
    );
    await page.reload();
    await expect(page.getByTestId('int-syslog-table')).toContainText('siem.example.ru:6514 TLS');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: path.join(SHOTS, `page-${width}.png`), fullPage: true });
    }

    // The delivery log: delivered, 204, the request with its webhook-id.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByTestId('int-webhook-table').getByRole('row', { name: /SOAR/ }).getByTestId('int-log').click();
    const log = page.getByTestId('deliveries-table');
    await expect(log).toContainText('Доставлено');
    await expect(log).toContainText('204');
    await expect(log).toContainText('Новое событие');
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: path.join(SHOTS, `log-${width}.png`), fullPage: true });
    }
    // «Отправить ещё раз»: the same webhook-id arrives again.
    const before = received.length;
    await log.getByRole('button', { name: 'Отправить ещё раз' }).first().click();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(before);
    expect(received.at(-1)?.headers['webhook-id']).toBe(got.headers['webhook-id']);
  } finally {
    server.close();
  }
});
