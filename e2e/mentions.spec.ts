import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MODULES } from '@forpost/contract/modules';
import { type APIRequestContext, expect, type Page, request, test } from '@playwright/test';
import { adminApi, e2eSql, login, ok } from './helpers';

/*
 * @mentions and the bell (issue #30, items 7–8): «@Оль» offers only Ольга (the event's assignee, a
 * staff analyst), «@Ир» only Ирина (a company user), Enter inserts the highlighted one and exactly she
 * is notified — with the event's title and the comment's first line. The bell folds 23 unread SLA
 * breaches into «Нарушение SLA: 23 события» (opening the module's list filtered to overdue SLA of my
 * events), and leads to «Все уведомления». The breaches are written straight into the e2e server's
 * database (the SLA job would take a minute per pass); the API's folding of them is what is shown.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/mentions');
const stamp = Date.now().toString(36);
const OLGA = { email: `olga-${stamp}@forpost.test`, name: `Ольга Иванова ${stamp}`, password: '', id: 0 };
const IRINA = { email: `irina-${stamp}@forpost.test`, name: `Ирина Соколова ${stamp}`, password: '', id: 0 };
let companyId = 0;
let eventId = 0;
let title = '';
const sizes = [
  [1280, 800],
  [1920, 1080],
] as const;

const sql = e2eSql;

async function signedIn(baseURL: string | undefined, who: { email: string; password: string }): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL as string).origin } });
  await ok(await api.post('/api/v1/auth/login', { data: { email: who.email, password: who.password } }), 'login');
  return api;
}

interface Notice {
  kind: string;
  text: string;
  event_id: number | null;
  count: number;
}
const unreadOf = async (api: APIRequestContext) =>
  (await ok<{ items: Notice[] }>(await api.get('/api/v1/notifications?unread=true'), 'notifications')).items;

/** The open «@» dropdown's options (their names). */
const offered = (page: Page) => page.locator('.ant-mentions-dropdown:visible [data-testid="mention-option"]');

test.describe
  .serial('mentions and the bell', () => {
    test.describe.configure({ timeout: 120_000 });
    test.beforeAll(async ({ baseURL }) => {
      mkdirSync(SHOTS, { recursive: true });
      const api = await adminApi(baseURL);
      companyId = (
        await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Упоминания ${stamp}` } }), 'company')
      ).id;
      const ev = await ok<{ id: number; title: string }>(
        await api.post('/api/v1/modules/domains/events', {
          data: { company_id: companyId, ...MODULES.domains.sample(1), domain: `mention-${stamp}.ru` },
        }),
        'event',
      );
      eventId = ev.id;
      title = ev.title;
      for (const [u, data] of [
        [OLGA, { role: 'ANALYST' }],
        [IRINA, { role: 'COMPANY_USER', companies: [{ company_id: companyId, role: 'COMPANY_ADMIN' }] }],
      ] as const) {
        const r = await ok<{ id: number; generated_password: string }>(
          await api.post('/api/v1/users', { data: { email: u.email, name: u.name, ...data } }),
          u.email,
        );
        u.id = r.id;
        u.password = r.generated_password;
      }
      // Ольга is the event's assignee.
      await ok(await api.patch(`/api/v1/modules/domains/events/${eventId}`, { data: { assignee_id: OLGA.id } }), 'assign');
      await api.dispose();
    });

    test('«@Оль» offers only Ольга, «@Ир» only Ирина; Enter mentions Ольга and exactly she is notified', async ({
      page,
      baseURL,
    }) => {
      await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
      await login(page);
      await page.goto(`/domains/${eventId}`);
      const input = page.getByTestId('comment-input');
      await input.click();
      await page.keyboard.type('Проверьте, пожалуйста, @Оль');
      await expect(offered(page)).toHaveCount(1);
      await expect(offered(page).first()).toContainText(OLGA.name);
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Backspace');
      await page.keyboard.type('Ир');
      await expect(offered(page)).toHaveCount(1);
      await expect(offered(page).first()).toContainText(IRINA.name);
      // By e-mail, any case.
      await page.keyboard.press('Backspace');
      await page.keyboard.press('Backspace');
      await page.keyboard.type(`OLGA-${stamp.toUpperCase()}`);
      await expect(offered(page)).toHaveCount(1);
      await expect(offered(page).first()).toContainText(OLGA.name);
      for (let i = 0; i < `OLGA-${stamp}`.length; i++) await page.keyboard.press('Backspace');
      await page.keyboard.type('Оль');
      await expect(offered(page)).toHaveCount(1);
      await page.keyboard.press('Enter');
      await expect(input).toHaveValue(`Проверьте, пожалуйста, @[${OLGA.name}](user:${OLGA.id}) `);
      await page.keyboard.type('это по вашему событию');
      await page.getByTestId('comment-submit').click();
      const comment = page.getByTestId('comment-text').last();
      await expect(comment.getByTestId('mention')).toHaveText(`@${OLGA.name}`);

      const olga = await signedIn(baseURL, OLGA);
      const irina = await signedIn(baseURL, IRINA);
      const mentions = (await unreadOf(olga)).filter((n) => n.kind === 'mention');
      expect(mentions).toHaveLength(1);
      expect(mentions[0]).toMatchObject({ event_id: eventId, count: 1 });
      expect(mentions[0]?.text).toContain(`«${title}»`);
      expect(mentions[0]?.text).toContain(`Проверьте, пожалуйста, @${OLGA.name} это по вашему событию`);
      expect((await unreadOf(irina)).filter((n) => n.kind === 'mention')).toHaveLength(0);
      await olga.dispose();
      await irina.dispose();
    });

    test('the bell folds 23 SLA breaches into one item, opens their list; «Все уведомления»', async ({ page }) => {
      await sql(
        `INSERT INTO notifications (user_id, kind, event_id, company_id, module, text, created_at)
         SELECT $1, 'sla_breach', $2, $3, 'domains', $4,
                now() - (g || ' minutes')::interval
         FROM generate_series(1, 23) g`,
        [OLGA.id, eventId, companyId, `Просрочен срок SLA (реакция): событие №${eventId} «${title}»`],
      );
      await login(page, undefined, { email: OLGA.email, password: OLGA.password });
      // 23 breaches, the mention and the assignment.
      await expect(page.getByTestId('bell-badge').locator('.ant-badge-count')).toHaveText('25');
      await page.getByTestId('bell').click();
      const panel = page.getByTestId('bell-panel');
      const group = panel.locator('[data-testid="bell-item"][data-group="23"]');
      await expect(group).toContainText('Нарушение SLA: 23 события');
      await expect(panel.getByTestId('bell-item')).toHaveCount(3);
      await expect(panel.getByTestId('bell-item').filter({ hasText: 'Упоминание' })).toContainText(
        `«${title}»: Проверьте, пожалуйста, @${OLGA.name}`,
      );
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: path.join(SHOTS, `bell-${width}.png`) });
      }
      await panel.getByTestId('bell-all').click();
      await expect(page).toHaveURL(/\/my-notifications$/);
      await expect(page.getByTestId('inbox-item')).toHaveCount(3);
      await expect(page.getByTestId('inbox-item').first()).toBeVisible();
      for (const [width, height] of sizes) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: path.join(SHOTS, `notifications-${width}.png`) });
      }
      // The group opens the list filtered to overdue SLA of my events, and is read at once.
      await page.getByTestId('bell').click();
      await page.locator('[data-testid="bell-item"][data-group="23"]').click();
      await expect(page).toHaveURL(/\/domains\?/);
      const url = new URL(page.url());
      expect(url.searchParams.get('sla')).toBe('overdue');
      expect(url.searchParams.get('assignee')).toBe('me');
      // (the badge's digits scroll while it changes: its title holds the number)
      await expect(page.getByTestId('bell-badge').locator('.ant-badge-count')).toHaveAttribute('title', '2');
      // The page: only unread, then «Отметить все прочитанными».
      await page.goto('/my-notifications?state=unread');
      await expect(page.getByTestId('inbox-item')).toHaveCount(2);
      await page.getByTestId('inbox-read-all').click();
      await expect(page.getByText('Непрочитанных уведомлений нет')).toBeVisible();
      await expect(page.getByTestId('bell-badge').locator('.ant-badge-count')).toHaveCount(0);
    });
  });
