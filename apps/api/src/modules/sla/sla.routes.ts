/* SLA policies: the installation default (settings) and a company's override. */
import { slaCompanyParams, slaCompanyRequest, slaDefaultRequest, slaPoliciesResponse } from '@forpost/contract/sla';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { SlaService } from './sla.service';

export async function slaRoutes(app: App, deps: { sla: SlaService }) {
  const svc = deps.sla;
  const tags = ['sla'];
  app.get(
    '/settings/sla',
    {
      config: { permission: 'settings.read' },
      schema: {
        operationId: 'getSlaDefault',
        tags,
        summary: 'Сроки SLA по умолчанию: минуты до разбора и до решения по приоритетам',
        response: { 200: slaPoliciesResponse },
      },
    },
    async () => svc.getDefault(),
  );
  app.put(
    '/settings/sla',
    {
      config: { permission: 'settings.manage' },
      schema: {
        operationId: 'putSlaDefault',
        tags,
        summary: 'Изменить сроки SLA по умолчанию (пересчитывает сроки открытых событий компаний без своих сроков)',
        body: slaDefaultRequest,
        response: { 200: slaPoliciesResponse },
      },
    },
    async (req) => svc.putDefault(callerOf(req), req.body.items),
  );
  app.get(
    '/companies/:id/sla',
    {
      config: { permission: 'companies.read' },
      schema: {
        operationId: 'getCompanySla',
        tags,
        summary: 'Сроки SLA компании (свои или по умолчанию)',
        params: slaCompanyParams,
        response: { 200: slaPoliciesResponse },
      },
    },
    async (req) => svc.getCompany(callerOf(req), req.params.id),
  );
  app.put(
    '/companies/:id/sla',
    {
      config: { permission: 'companies.update' },
      schema: {
        operationId: 'putCompanySla',
        tags,
        summary: 'Задать сроки SLA компании; `items: []` — вернуть сроки по умолчанию',
        params: slaCompanyParams,
        body: slaCompanyRequest,
        response: { 200: slaPoliciesResponse },
      },
    },
    async (req) => svc.putCompany(callerOf(req), req.params.id, req.body.items),
  );
}
