import { expect as baseExpect, type Page, test } from '@playwright/test';
import { adminApi, e2eSql, login, ok, pickOption } from './helpers';

const SHOTS = process.env.SLA_SHOTS ?? '';
// Several pages in one test on a shared, busy machine: each step may wait longer than the default.
const expect = baseExpect.configure({ timeout: 30_000 });
const token = `slae2e${Date.now().toString(36)}`;

async function backdate(id: number, hours: number): Promise<void> {
  await e2eSql(`UPDATE events SET created_at = now() - $2 * interval '1 hour' WHERE id = $1`, [id, hours]);
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [w, h] of [
    [1280, 800],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.screenshot({ path: `${SHOTS}/${name}-${w}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('SLA: overdue in the list and the card, the filter, the home page card, the policy editors', async ({ page, baseURL }) => {
  test.setTimeout(180_000); // five pages, each screenshotted at two sizes
  const api = await adminApi(baseURL);
  const company = await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `SLA ${token}` } }), 'company');
  const prios = await ok<{ items: { id: number; code: string }[] }>(
    await api.get('/api/v1/modules/domains/events/priorities'),
    'priorities',
  );
  const prio = (code: string) => prios.items.find((p) => p.code === code)?.id;
  const create = async (name: string, priority: string) =>
    (
      await ok<{ id: number }>(
        await api.post('/api/v1/modules/domains/events', {
          data: { company_id: company.id, domain: `${name}-${token}.ru`, priority_id: prio(priority) },
        }),
        'event',
      )
    ).id;
  const late = await create('late', 'critical');
  await create('soon', 'critical');
  await create('calm', 'low');
  await backdate(late, 3); // critical: triage within 1 h → overdue by 2 h

  await login(page);
  await page.goto(`/domains?q=${token}`);
  const rowOf = (name: string) => page.getByRole('row', { name: new RegExp(`${name}-${token}\\.ru`) });
  const lateRow = rowOf('late');
  await expect(lateRow).toBeVisible();
  await expect(lateRow.getByTestId('sla-value')).toHaveText('−2 ч');
  await expect(lateRow.getByTestId('sla-value')).toHaveAttribute('aria-label', 'Просрочено на 2 ч');
  await expect(lateRow.getByTestId('sla-value')).toHaveAttribute('data-state', 'overdue');
  await expect(rowOf('soon').getByTestId('sla-value')).toHaveAttribute('data-state', 'due_soon');
  await expect(rowOf('calm').getByTestId('sla-value')).toHaveAttribute('data-state', 'on_track');
  await shoot(page, 'sla-list');

  // The filter: «Просрочено» leaves only the late one.
  await page.getByTestId('filters-toggle').click();
  await pickOption(page, page.getByTestId('filter-sla'), 'Просрочено');
  await expect(page).toHaveURL(/sla=overdue/);
  await expect(rowOf('late')).toBeVisible();
  await expect(rowOf('soon')).toHaveCount(0);
  await expect(rowOf('calm')).toHaveCount(0);

  // The card.
  await page.goto(`/domains/${late}`);
  await expect(page.getByTestId('sla-detail')).toContainText('Просрочено на 2 ч');
  await expect(page.getByTestId('sla-detail')).toContainText('Разбор до');
  await shoot(page, 'sla-card');

  // The home page: the domains row counts the overdue event and links to the filtered list.
  await page.goto('/');
  const card = page.getByTestId('chart-sla');
  await expect(card).toBeVisible();
  const overdueLink = card.getByTestId('sla-overdue-domains');
  await expect(overdueLink).toBeVisible();
  expect(Number(((await overdueLink.textContent()) ?? '').replace(/\s/g, ''))).toBeGreaterThanOrEqual(1);
  await expect(card.getByTestId('sla-by')).toBeVisible(); // staff: per company too
  await card.getByText('По компаниям').click();
  await expect(card.getByRole('row', { name: new RegExp(`SLA ${token}`) })).toContainText('1');
  await shoot(page, 'sla-home');
  await card.getByText('По модулям').click();
  await overdueLink.click();
  await expect(page).toHaveURL(/\/domains\?.*sla=overdue/);

  // Default policies: a validation message in Russian, then a save.
  await page.goto('/settings/sla');
  await expect(page.getByTestId('sla-editor')).toBeVisible();
  await page.getByTestId('sla-low-triage_minutes').fill('2'); // 2 days (the unit shown: дн)
  await page.getByTestId('sla-save').click();
  await expect(page.getByText('Срок решения не может быть короче срока разбора')).toHaveCount(0);
  await expect(page.getByText(/Сроки SLA сохранены/)).toBeVisible();
  await shoot(page, 'sla-settings');
  await page.getByTestId('sla-low-resolve_minutes').fill('1'); // 1 day < 2 days
  await page.getByTestId('sla-save').click();
  await expect(page.getByText('Срок решения не может быть короче срока разбора')).toBeVisible();

  // The company's own deadlines.
  await page.goto(`/companies/${company.id}/edit?tab=sla`);
  await expect(page.getByTestId('sla-editor')).toContainText('нет своих сроков');
  await page.getByTestId('sla-critical-triage_minutes').fill('5');
  await page.getByTestId('sla-save').click();
  await expect(page.getByTestId('sla-editor')).toContainText('Свои сроки');
  await shoot(page, 'sla-company');
  // Restore the default for the other specs.
  await ok(
    await api.put('/api/v1/settings/sla', {
      data: {
        items: [
          { priority: 'critical', triage_minutes: 60, resolve_minutes: 1440 },
          { priority: 'high', triage_minutes: 240, resolve_minutes: 4320 },
          { priority: 'medium', triage_minutes: 1440, resolve_minutes: 10080 },
          { priority: 'low', triage_minutes: 4320, resolve_minutes: 43200 },
        ],
      },
    }),
    'restore',
  );
});
