/* GET /modules/analytics/dashboard/…: the home page's charts. */
import { analyticsQuery, type DashboardChart, matrixResponse, timeSeriesResponse } from '@forpost/contract/analytics';
import { slaSummaryResponse } from '@forpost/contract/sla';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { AnalyticsService } from './analytics.service';

const BASE = '/modules/analytics/dashboard';
const JSON_TYPE = 'application/json; charset=utf-8';
const DESCRIPTION =
  'Период: `period=7d|30d|90d` (по умолчанию 30d, заканчивается сегодня) или `from`/`to` (ГГГГ-ММ-ДД, включительно, дни по Москве). ' +
  '`company_id` (-1 или нет — все доступные компании), `modules` — коды модулей через запятую. ' +
  'Каждая серия содержит `link` — куда ведёт клик по графику (путь и фильтры списка событий).';

export async function analyticsRoutes(app: App, deps: { analytics: AnalyticsService }) {
  const svc = deps.analytics;
  const tags = ['analytics'];
  const series = (path: string, operationId: string, summary: string, chart: Exclude<DashboardChart, 'priorityevents'>) =>
    app.get(
      `${BASE}/${path}`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId,
          tags,
          summary,
          description: DESCRIPTION,
          querystring: analyticsQuery,
          response: { 200: timeSeriesResponse },
        },
      },
      // The answer is JSON already checked against the schema (and maybe cached): sent as it is.
      async (req, reply) => reply.type(JSON_TYPE).send((await svc.json(chart, callerOf(req), req.query)) as never),
    );

  series('common/newevents', 'getDashboardNewEvents', 'Новые события по дням и модулям', 'newevents');
  series('common/criticalevents', 'getDashboardCriticalEvents', 'Критические события по дням и модулям', 'criticalevents');
  series('media/connotationevents', 'getDashboardConnotationEvents', 'Публикации СМИ по тональности', 'connotationevents');
  series('domains/events', 'getDashboardDomainEvents', 'Домены по дням и статусам', 'domainevents');
  series('account/events', 'getDashboardAccountEvents', 'Аккаунты по дням и статусам', 'accountevents');
  app.get(
    `${BASE}/common/priorityevents`,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getDashboardPriorityEvents',
        tags,
        summary: 'События по модулям и приоритетам',
        description: DESCRIPTION,
        querystring: analyticsQuery,
        response: { 200: matrixResponse },
      },
    },
    async (req, reply) => reply.type(JSON_TYPE).send((await svc.json('priorityevents', callerOf(req), req.query)) as never),
  );
  app.get(
    `${BASE}/common/sla`,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getDashboardSla',
        tags,
        summary: 'SLA: просроченные события сейчас и медианы времени до разбора и до решения по модулям и компаниям',
        description: `${DESCRIPTION} Медианы — по событиям, созданным в периоде; просроченные — открытые события сейчас.`,
        querystring: analyticsQuery,
        response: { 200: slaSummaryResponse },
      },
    },
    async (req) => svc.slaSummary(callerOf(req), req.query),
  );
}
