import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { MODULE_LIST } from '@forpost/contract/modules';
import { TAG_COLORS } from '@forpost/contract/tags';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Accessibility (WCAG 2.1 AA, issue #16): axe-core (rules tagged wcag2a, wcag2aa, wcag21a, wcag21aa) on
 * every console route, in the light and the dark theme: the login page, the home page, every event
 * section of the module registry and one event card, the other sections of the menu, a company page,
 * the profile and the 404 page. The seeded events carry every tag colour of the palette, so the
 * coloured tags' text contrast is checked too. A failure lists each violation: page, rule, target, summary.
 */

const expect = baseExpect.configure({ timeout: 30_000 });
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

let companyId = 0;
let eventId = 0;

/** Every signed-in page to check: [name, path]. */
const routes = (): [string, string][] => [
  ['Главная', '/'],
  ['Мои события', '/my-events'],
  ...MODULE_LIST.map((m): [string, string] => [m.name, m.route]),
  ['Карточка события', `/domains/${eventId}`],
  ['Импорт событий', '/domains/import'],
  ['Поиск доменов', '/discovery'],
  ['Блокировки', '/takedown'],
  ['Поиск утечек', '/hunts'],
  ['Сообщения', '/messages'],
  ['Аккаунты Telegram', '/telegram/accounts'],
  ['Каналы', '/telegram/channels'],
  ['Отчёты', '/reports'],
  ['Мои экспорты', '/exports'],
  ['Уведомления', '/notifications'],
  ['Компании', '/companies'],
  ['Компания', `/companies/${companyId}/edit`],
  ['Пользователи', '/users'],
  ['API-ключи', '/api-keys'],
  ['Журнал аудита', '/audit'],
  ['Конфигурация', '/settings/configs'],
  ['Теги', '/settings/tags'],
  ['Белый список', '/settings/whitelist'],
  ['Типы СМИ', '/settings/media-types'],
  ['Утечки (справочник)', '/settings/leaks'],
  ['Сроки SLA', '/settings/sla'],
  ['Интеграции', '/settings/integrations'],
  ['Типы утечек', '/settings/leaks-types'],
  ['Профиль', '/profile'],
  ['404', '/no-such-page'],
];

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/a11y');
const SHOTS_OF: Record<string, string> = { Главная: 'home', Домены: 'domains', 'Карточка события': 'card', Теги: 'tags' };

interface Found {
  page: string;
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

/** Waits for the page's data (no spinner, no skeleton) and runs axe; the violations, one per element. */
async function audit(page: Page, name: string): Promise<Found[]> {
  await expect(page.locator('.ant-spin-spinning, .ant-skeleton-active')).toHaveCount(0);
  const result = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => ({
      page: name,
      rule: v.id,
      impact: v.impact ?? '',
      target: n.target.join(' '),
      summary: (n.failureSummary ?? v.help).replace(/\s+/g, ' ').slice(0, 240),
    })),
  );
}

const report = (found: Found[]) =>
  found.map((f) => `[${f.page}] ${f.rule} (${f.impact}) ${f.target}\n    ${f.summary}`).join('\n');

/** Per-page counts, printed for the record (the report of issue #16 quotes them). */
function counts(theme: string, names: string[], found: Found[]) {
  const lines = names.map((n) => `  ${n}: ${found.filter((f) => f.page === n).length}`);
  console.log(`axe violations (${theme}), total ${found.length}:\n${lines.join('\n')}`);
}

// Animations off: axe measures colours, and a fading element has a colour it does not keep.
const NO_MOTION = '*,*::before,*::after{transition:none!important;animation:none!important}';

async function checkAll(page: Page, theme: 'light' | 'dark') {
  const found: Found[] = [];
  const names: string[] = [];
  for (const [name, url] of routes()) {
    names.push(name);
    await page.goto(url);
    await page.addStyleTag({ content: NO_MOTION });
    if (name === '404') await expect(page.getByTestId('error-status')).toHaveText('404');
    else await expect(page.getByTestId('page-title')).toBeVisible();
    await expect(page.locator('html')).toHaveCSS('color-scheme', theme);
    const t0 = Date.now();
    const got = await audit(page, name);
    console.log(`${theme} ${name}: ${got.length} (${Date.now() - t0} ms)`);
    // The colours as a person sees them (tags, statuses, secondary text), at 1280.
    if (SHOTS_OF[name]) {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.screenshot({ path: path.join(SHOTS, `${theme}-${SHOTS_OF[name]}.png`) });
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    found.push(...got);
  }
  counts(theme, names, found);
  expect(found, `axe violations (${theme}):\n${report(found)}`).toEqual([]);
}

async function setTheme(baseURL: string | undefined, theme: 'light' | 'dark') {
  const api = await adminApi(baseURL);
  await ok(await api.put('/api/v1/me/preferences/theme', { data: { value: theme } }), `${theme} theme`);
  await api.dispose();
}

/** Signs in as the admin with `theme` (the user's preference; localStorage too for the first paint). */
async function signIn(page: Page, baseURL: string | undefined, theme: 'light' | 'dark') {
  await setTheme(baseURL, theme);
  await page.addInitScript(
    ([id, t]) => {
      window.localStorage.setItem('companyId', id);
      window.localStorage.setItem('forpost:theme', t);
    },
    [String(companyId), theme],
  );
  await login(page);
}

test.describe('accessibility: axe-core on every page', () => {
  test.beforeAll(async ({ baseURL }) => {
    mkdirSync(SHOTS, { recursive: true });
    // (run again in a fresh worker after a failed test: its own names)
    const stamp = Date.now().toString(36);
    const api = await adminApi(baseURL);
    companyId = (
      await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Доступность ${stamp}` } }), 'company')
    ).id;
    // A tag of every palette colour: each coloured tag's text must stay readable on its background.
    const tagIds: number[] = [];
    // (and colours a user may pick outside the palette: a pale yellow, black)
    for (const [i, color] of [...TAG_COLORS, '#fffb8f', '#000000'].entries())
      tagIds.push(
        (await ok<{ id: number }>(await api.post('/api/v1/tags', { data: { name: `Цвет ${i} ${stamp}`, color } }), 'tag')).id,
      );
    const statuses = await ok<{ items: { id: number }[] }>(await api.get('/api/v1/modules/domains/events/statuses'), 'statuses');
    for (const [n, status] of statuses.items.entries()) {
      const id = (
        await ok<{ id: number }>(
          await api.post('/api/v1/modules/domains/events', {
            data: {
              company_id: companyId,
              domain: `a11y-${n}-${stamp}.ru`,
              status_id: status.id,
              tags: tagIds.slice((n * 3) % tagIds.length, ((n * 3) % tagIds.length) + 3),
            },
          }),
          'event',
        )
      ).id;
      eventId ||= id;
    }
    await api.dispose();
  });

  test('the login page, in both themes and with its field messages', async ({ page }) => {
    // A user who chose the dark theme meets /login in it after signing out (localStorage keeps it).
    for (const theme of ['light', 'dark'] as const) {
      await page.goto('/login');
      await page.evaluate((t) => window.localStorage.setItem('forpost:theme', t), theme);
      await page.reload();
      await page.addStyleTag({ content: NO_MOTION });
      await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
      await expect(page.locator('html')).toHaveCSS('color-scheme', theme);
      const found = await audit(page, 'Вход');
      // Submitted empty: the messages under the fields.
      await page.getByRole('button', { name: 'Войти' }).click();
      await expect(page.locator('#login-password-error')).toBeVisible();
      found.push(...(await audit(page, 'Вход: ошибки полей')));
      counts(theme, ['Вход', 'Вход: ошибки полей'], found);
      expect(found, `axe violations (${theme}):\n${report(found)}`).toEqual([]);
    }
  });

  test('every page, light theme', async ({ page, baseURL }) => {
    test.setTimeout(590_000);
    await signIn(page, baseURL, 'light');
    await checkAll(page, 'light');
  });

  test('every page, dark theme', async ({ page, baseURL }) => {
    test.setTimeout(590_000);
    await signIn(page, baseURL, 'dark');
    await checkAll(page, 'dark');
  });

  // The admin's theme is kept on the server: the other spec files get the light one back.
  test.afterAll(async ({ baseURL }) => setTheme(baseURL, 'light'));
});
