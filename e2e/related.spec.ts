import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MODULES } from '@forpost/contract/modules';
import { expect, test } from '@playwright/test';
import { adminApi, login, ok } from './helpers';

/*
 * Related events on the event card: a domain's IP shared with a service and an attack (other
 * modules) is listed with counts per module; a module chip opens that module's list filtered by the
 * indicator (a removable chip shows it), and an event link opens the related event's card.
 */

const SHOTS = path.resolve(import.meta.dirname, '../.tmp/shots/related');
const stamp = Date.now().toString(36);
const IP = `198.51.100.${(Date.now() % 200) + 20}`;
let companyId = 0;
let domainId = 0;
let serviceId = 0;

test.describe
  .serial('related events', () => {
    test.beforeAll(async ({ baseURL }) => {
      mkdirSync(SHOTS, { recursive: true });
      const api = await adminApi(baseURL);
      companyId = (
        await ok<{ id: number }>(await api.post('/api/v1/companies', { data: { name: `E2E Связи ${stamp}` } }), 'company')
      ).id;
      const create = async (code: keyof typeof MODULES, data: Record<string, unknown>) =>
        (
          await ok<{ id: number }>(
            await api.post(`/api/v1/modules/${code}/events`, { data: { company_id: companyId, ...data } }),
            code,
          )
        ).id;
      domainId = await create('domains', { domain: `related-${stamp}.ru`, ip: IP, registrar: `Регистратор ${stamp}` });
      serviceId = await create('services', { ...MODULES.services.sample(7), host: IP });
      await create('networkattacks', { ...MODULES.networkattacks.sample(7), source_ip: IP });
    });

    test('the card lists events sharing the IP; a chip filters the module list, a link opens the event', async ({ page }) => {
      await page.addInitScript((id) => window.localStorage.setItem('companyId', String(id)), companyId);
      await login(page);
      for (const width of [1280, 1920]) {
        await page.setViewportSize({ width, height: width === 1280 ? 800 : 1080 });
        await page.goto(`/domains/${domainId}`);
        const block = page.getByTestId('related-events');
        await expect(block.getByTestId('related-indicator').filter({ hasText: IP })).toContainText('2 события');
        await block.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.join(SHOTS, `domain-card-${width}.png`), fullPage: true });
      }
      const block = page.getByTestId('related-events');
      await block.getByTestId('related-filter').filter({ hasText: MODULES.services.name }).click();
      await expect(page).toHaveURL(new RegExp(`/services\\?.*indicator=ip(%3A|:)${IP.replaceAll('.', '\\.')}`));
      await expect(page.getByText(`IP-адрес: ${IP}`)).toBeVisible();
      await expect(page.locator('tbody tr.ant-table-row')).toHaveCount(1);
      await page.goBack();
      await page.locator(`[data-testid="related-event"][href="/services/${serviceId}"]`).first().click();
      await expect(page).toHaveURL(new RegExp(`/services/${serviceId}$`));
      // And back: the service's card lists the domain and the attack.
      await expect(page.getByTestId('related-events').getByTestId('related-event')).toHaveCount(2);
    });
  });
