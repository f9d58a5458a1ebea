import { expect, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

// The audit page names every action in Russian from the contract (AUDIT_ACTIONS), with the code below.
test('the audit log names an action in Russian (a comment, unnamed before), with its code and object', async ({
  page,
  baseURL,
}) => {
  const api = await adminApi(baseURL);
  const tag = `${Date.now().toString(36)}`;
  const company = await ok<{ id: number }>(
    await api.post('/api/v1/companies', { data: { name: `Журнал ${tag}`, modules: ['domains'] } }),
    'company',
  );
  const ev = await ok<{ id: number }>(
    await api.post('/api/v1/modules/domains/events', { data: { company_id: company.id, domain: `audit-${tag}.ru` } }),
    'event',
  );
  const comment = await ok<{ id: number }>(
    await api.post('/api/v1/comments', { data: { event_id: ev.id, text: 'Проверено аналитиком' } }),
    'comment',
  );

  await login(page, '/audit?action=comment.');
  await expect(page.getByTestId('page-title')).toHaveText('Журнал аудита');
  const row = page.getByRole('row').filter({ hasText: `Комментарий #${comment.id}` });
  await expect(row).toContainText('Добавление комментария');
  await expect(row).toContainText('comment.create');

  // The filter bar (from the table's columns): a plain input applied on Enter, the number, the range.
  await page.getByLabel('ID объекта').fill(String(comment.id));
  await page.getByLabel('ID объекта').press('Enter');
  // (The router writes a numeric-looking string JSON-quoted: entity_id="7".)
  await expect(page).toHaveURL((url) => url.searchParams.get('entity_id')?.replaceAll('"', '') === String(comment.id));
  await expect(row).toBeVisible();
  await expect(page.getByLabel('Действие')).toHaveValue('comment.');
  await expect(page.getByLabel('ID автора')).toBeVisible();
  await expect(page.getByLabel('Период').first()).toBeVisible();
  await page.getByRole('button', { name: 'Сбросить фильтры' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/audit' && url.search === '');
  await expect(page.getByLabel('ID объекта')).toHaveValue('');
  await expect(page.getByRole('button', { name: 'Сбросить фильтры' })).toBeHidden();
});
