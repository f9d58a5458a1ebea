/*
 * The watch (#31) in the browser: the timeline on a domain event's card (states with their time
 * ranges and the transitions between them, in Russian; the states are written into the e2e server's
 * database as the watch's worker writes them), the «Наблюдать» switch, the empty and error states, and
 * the company's schedule and rules edited on its page. Then a real observation: the e2e server's own
 * watch poller observes a domain served by the DNS server peer (started here on 127.0.0.1; the server
 * allows private addresses), the domain gains MX, the company rule raises the event's priority, and a
 * mailing subscribed to that transition (made in the console's form) sends a letter naming it.
 */
import path from 'node:path';
import { BLANK_WATCH_STATE } from '@forpost/contract/watch';
import { expect as baseExpect, test } from '@playwright/test';
import { startDnsServer } from '../apps/api/test/peers/dns-server';
import { adminApi, e2eSql, login, ok, pickOption } from './helpers';

const expect = baseExpect.configure({ timeout: 30_000 });
const token = `watche2e${Date.now().toString(36)}`;
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/watch');
const SIZES = [
  [1280, 800],
  [1920, 1080],
] as const;

const state = (over: Record<string, unknown>) => JSON.stringify({ ...BLANK_WATCH_STATE, ns: ['ns1.hoster.ru'], ...over });

test('watch: timeline on the card, the switch, the company schedule and rules', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const api = await adminApi(baseURL);
  const company = await ok<{ id: number }>(
    await api.post('/api/v1/companies', { data: { name: `Наблюдение ${token}` } }),
    'company',
  );
  const create = async (name: string) =>
    (
      await ok<{ id: number }>(
        await api.post('/api/v1/modules/domains/events', { data: { company_id: company.id, domain: `${name}-${token}.ru` } }),
        'event',
      )
    ).id;
  const watched = await create('login');
  const fresh = await create('fresh');
  // Last observed an hour ago (the server's poller runs every 5 s: a target without an observation would
  // be observed at once and add a fourth state); the switch keeps that time.
  await e2eSql(
    `INSERT INTO watch_targets (event_id, company_id, watched, observed_at, domain)
     VALUES ($1, $2, false, now() - interval '1 hour', $3)`,
    [watched, company.id, `login-${token}.ru`],
  );
  await ok(await api.put(`/api/v1/modules/domains/events/${watched}/watch`, { data: { watched: true } }), 'watch on');
  // What the worker writes after three observations: parked → MX → a login page.
  await e2eSql(
    `INSERT INTO watch_states (event_id, state, state_hash, first_seen, last_seen, observations) VALUES
       ($1, $2::jsonb, 'h1', now() - interval '18 hours', now() - interval '12 hours', 2),
       ($1, $3::jsonb, 'h2', now() - interval '6 hours', now() - interval '6 hours', 1),
       ($1, $4::jsonb, 'h3', now() - interval '1 hour', now() - interval '1 hour', 1)`,
    [
      watched,
      state({}),
      state({ mx: ['mx.evil.ru'] }),
      state({
        mx: ['mx.evil.ru'],
        a: ['203.0.113.7'],
        http_status: 200,
        title: 'Сбербанк Онлайн — вход',
        login_form: true,
        tls_issuer: "Let's Encrypt",
        tls_sans: [`login-${token}.ru`],
        tls_fingerprint: 'AA:BB',
      }),
    ],
  );
  await e2eSql(
    `INSERT INTO watch_transitions (event_id, company_id, kind, at) VALUES
       ($1, $2, 'mx_appeared', now() - interval '6 hours'),
       ($1, $2, 'web_live', now() - interval '1 hour'),
       ($1, $2, 'login_form', now() - interval '1 hour'),
       ($1, $2, 'cert_issued', now() - interval '1 hour')`,
    [watched, company.id],
  );

  await login(page);
  await page.goto(`/domains/${watched}`);
  const block = page.getByTestId('watch');
  await expect(block).toContainText('Проверка каждые 6 ч');
  await expect(block.getByTestId('watch-transition')).toHaveText([
    'Сайт заработал',
    'Появилась форма входа',
    'Выпущен сертификат',
    'Появилась почта (MX)',
  ]);
  await expect(block.getByTestId('watch-state')).toHaveCount(3);
  await expect(block.getByTestId('watch-state').first()).toContainText('Форма входа');
  await expect(block.getByTestId('watch-state').first()).toContainText('«Сбербанк Онлайн — вход»');
  await expect(block.getByTestId('watch-state').last()).toContainText('наблюдений: 2');
  await expect(block.getByTestId('watch-toggle')).toBeChecked();
  // What the analyst sees: the timeline at both widths (looked at; nothing clipped).
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, `card-timeline-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The switch off: «Не наблюдается», kept after a reload.
  await block.getByTestId('watch-toggle').click();
  await expect(block).toContainText('Не наблюдается');
  await page.reload();
  await expect(page.getByTestId('watch').getByTestId('watch-toggle')).not.toBeChecked();

  // An event the watch has not seen yet: the empty state.
  await page.goto(`/domains/${fresh}`);
  await expect(page.getByTestId('watch')).toContainText('Наблюдений пока нет');
  await expect(page.getByTestId('watch')).toContainText('Не наблюдается');

  // The error state: the API refuses.
  await page.route(`**/api/v1/modules/domains/events/${fresh}/watch`, (r) =>
    r.fulfill({
      status: 500,
      contentType: 'application/json',
      body: JSON.stringify({ statusCode: 500, message: 'Ошибка, попробуйте позже' }),
    }),
  );
  await page.reload();
  await expect(page.getByTestId('watch-error')).toContainText('Наблюдение недоступно');
  await page.unroute(`**/api/v1/modules/domains/events/${fresh}/watch`);

  // The company's schedule and rules on its page.
  await page.goto(`/companies/${company.id}/edit?tab=watch`);
  const card = page.getByTestId('watch-settings');
  await expect(card).toContainText('Сейчас наблюдается доменов: 0');
  await expect(card.getByTestId('watch-interval')).toHaveValue('6');
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SHOTS, `company-tab-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await card.getByTestId('watch-interval').fill('2');
  await pickOption(page, card.getByTestId('watch-rule-cert_issued'), 'Критический');
  await card.getByTestId('watch-save').click();
  await expect(page.getByText('Наблюдение сохранено')).toBeVisible();
  const saved = await ok<{ interval_minutes: number; rules: Record<string, string> }>(
    await api.get(`/api/v1/companies/${company.id}/watch`),
    'settings',
  );
  expect(saved.interval_minutes).toBe(120);
  expect(saved.rules).toEqual({ mx_appeared: 'high', login_form: 'high', cert_issued: 'critical' });
  // Too short an interval: the contract's message, no save.
  await card.getByTestId('watch-interval').fill('0.1');
  await expect(card).toContainText('Интервал — от 15 минут до 30 дней');
  await expect(card.getByTestId('watch-save')).toBeDisabled();
  await api.dispose();
});

test('watch: a real observation raises the priority by the company rule and reaches a subscribed mailing', async ({
  page,
  baseURL,
}) => {
  // The server's watch poller looks for due domains every 5 s (WATCH_TICK_SECONDS in scripts/e2e-server.mjs): a
  // baseline round, then the MX one.
  test.setTimeout(180_000);
  const domain = `mx-${token}.ru`;
  const HOSTER = ['ns1.hoster.ru', 'ns2.hoster.ru'];
  const dns = await startDnsServer({ [domain]: { NS: HOSTER } });
  const api = await adminApi(baseURL);
  try {
    for (const [key, value] of Object.entries({
      discovery_dns_servers: dns.server,
      discovery_dns_timeout_ms: 500,
      discovery_dns_retries: 1,
      discovery_dns_rate: 20000,
      // No RDAP: the default bootstrap is IANA's, unreachable here.
      discovery_rdap_servers: '',
      discovery_rdap_bootstrap: '',
    })) {
      const r = await api.post('/api/v1/configs', { data: { key, value } });
      if (r.status() === 409) await ok(await api.patch(`/api/v1/configs/${key}`, { data: { value } }), key);
      else await ok(r, key);
    }
    const company = await ok<{ id: number }>(
      await api.post('/api/v1/companies', { data: { name: `Наблюдение и рассылка ${token}` } }),
      'company',
    );
    const id = (
      await ok<{ id: number }>(
        await api.post('/api/v1/modules/domains/events', { data: { company_id: company.id, domain } }),
        'event',
      )
    ).id;
    await ok(await api.put(`/api/v1/modules/domains/events/${id}/watch`, { data: { watched: true } }), 'watch on');

    // The mailing, in the console's form: «Переходы наблюдения» = «Появилась почта (MX)». The form's
    // default priorities (critical, high) leave the event out until the rule raises it.
    await login(page);
    await page.goto(`/notifications?companyId=${company.id}`);
    await page.getByRole('button', { name: 'Создать рассылку' }).first().click();
    await expect(page).toHaveURL(/\/notifications\/new/);
    const form = page.getByTestId('mailing-form');
    await form.getByLabel('Название').fill(`Почта на двойниках ${token}`);
    const recipients = form.getByTestId('recipients').locator('input');
    await recipients.fill('soc@sberbank.ru');
    await recipients.press('Enter');
    await pickOption(page, form.getByTestId('filter-modules'), 'Домены');
    await page.getByTestId('page-title').click(); // closes the dropdown
    await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
    await pickOption(page, form.getByTestId('filter-transitions'), 'Появилась почта (MX)');
    await page.getByTestId('page-title').click();
    await expect(form.getByTestId('filter-transitions')).toContainText('Появилась почта (MX)');
    await page.getByTestId('mailing-save').click();
    await expect(page).toHaveURL(/\/notifications\/\d+$/);
    const mailingUrl = new URL(page.url()).pathname;
    const mailingId = Number(mailingUrl.split('/').pop());
    const saved = await ok<{ filters: { transitions: string[] } }>(
      await api.get(`/api/v1/notifications/mailings/${mailingId}`),
      'mailing',
    );
    expect(saved.filters.transitions).toEqual(['mx_appeared']);

    // The baseline observation (NS only: nothing to report yet) by the server's own poller.
    await expect
      .poll(
        async () =>
          (await ok<{ last_observed_at: string | null }>(await api.get(`/api/v1/modules/domains/events/${id}/watch`), 'watch'))
            .last_observed_at,
        { timeout: 150_000, intervals: [2_000] },
      )
      .not.toBeNull();
    await page.goto(`/domains/${id}`);
    // Created with the module's default priority («Средний»): the mailing's priorities leave it out.
    await expect(page.getByTestId('triage-priority_id')).toContainText('Средний');

    // The domain gains MX; the next round (made due now) reports it.
    dns.setRecord(domain, { NS: HOSTER, MX: ['mx.evil.ru'] });
    await e2eSql(`UPDATE watch_targets SET observed_at = now() - interval '100 days' WHERE event_id = $1`, [id]);
    await expect
      .poll(
        async () =>
          (
            await ok<{ transitions: { kind: string }[] }>(await api.get(`/api/v1/modules/domains/events/${id}/watch`), 'watch')
          ).transitions.map((t) => t.kind),
        { timeout: 150_000, intervals: [2_000] },
      )
      .toContain('mx_appeared');

    // The card: the transition on the timeline, the priority raised by the default rule (MX → high).
    await page.reload();
    await expect(page.getByTestId('watch').getByTestId('watch-transition')).toHaveText(['Появилась почта (MX)']);
    await expect(page.getByTestId('triage-priority_id')).toContainText('Высокий');

    // The mailing's card lists the delivery naming the transition (the mailing worker passes every 15 s).
    await page.goto(mailingUrl);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('deliveries')).toContainText('Наблюдение: появилась почта (MX)', { timeout: 2_000 });
    }).toPass({ timeout: 60_000, intervals: [3_000] });
    await expect(page.getByTestId('deliveries')).toContainText('Отправлено');
  } finally {
    await api.dispose();
    await dns.close();
  }
});
