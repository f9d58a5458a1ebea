import { idParam } from '@forpost/contract/common';
import {
  assetItemParams,
  assetListQuery,
  assetListResponse,
  assetParams,
  assetResponse,
  createAssetRequest,
  previewRequest,
  previewResponse,
  runListQuery,
  runListResponse,
  runResponse,
  sourcesQuery,
  sourcesResponse,
  startRunRequest,
  updateAssetRequest,
} from '@forpost/contract/discovery';
import { callerOf } from '../../lib/caller';
import { crudRoutes } from '../../lib/crud-routes';
import type { App } from '../../lib/routes';
import type { AssetsService } from './assets.service';
import { previewCandidates } from './discovery.service';
import type { RunsService } from './runs.service';
import type { SourcesService } from './sources.service';

/**
 * Discovery (#17): the protected assets of a company (/companies/{id}/assets), the candidate preview
 * and the runs (/discovery/…). Reading needs discovery.read in the company, changing discovery.manage.
 */
export async function discoveryRoutes(app: App, deps: { assets: AssetsService; runs: RunsService; sources: SourcesService }) {
  const { assets, runs, sources } = deps;
  const tags = ['discovery'];

  crudRoutes(
    app,
    {
      tags,
      path: '/companies/:id/assets',
      pathParams: assetParams,
      query: assetListQuery,
      page: assetListResponse,
      create: createAssetRequest,
      item: '/companies/:id/assets/:assetId',
      params: assetItemParams,
      response: assetResponse,
      body: updateAssetRequest,
    },
    {
      list: [
        'discovery.read',
        'listCompanyAssets',
        'Защищаемые активы компании: домены и ключевые слова',
        (c, q, { id }) => assets.list(c, id, q),
      ],
      create: [
        'discovery.manage',
        'createCompanyAsset',
        'Добавить защищаемый актив (домен — в Unicode или punycode; 409 — такой уже есть)',
        (c, body, { id }) => assets.create(c, id, body),
      ],
      get: ['discovery.read', 'getCompanyAsset', 'Защищаемый актив компании', (c, { id, assetId }) => assets.get(c, id, assetId)],
      update: [
        'discovery.manage',
        'updateCompanyAsset',
        'Включить или выключить защищаемый актив',
        (c, { id, assetId }, body) => assets.update(c, id, assetId, body),
      ],
      remove: [
        'discovery.manage',
        'deleteCompanyAsset',
        'Удалить защищаемый актив',
        (c, { id, assetId }) => assets.remove(c, id, assetId),
      ],
    },
  );

  app.post(
    '/discovery/preview',
    {
      config: { permission: 'discovery.read' },
      schema: {
        operationId: 'previewDiscovery',
        tags,
        summary: 'Все кандидаты-двойники домена с методом подбора (без проверки DNS)',
        body: previewRequest,
        response: { 200: previewResponse },
      },
    },
    async (req) => previewCandidates(req.body.domain),
  );
  app.get(
    '/discovery/sources',
    {
      config: { permission: 'discovery.read' },
      schema: {
        operationId: 'getDiscoverySources',
        tags,
        summary:
          'Источники поиска перед запуском: заданы ли DNS, RDAP и журналы CT и (probe=1) отвечают ли они; с company_id — сколько у компании доменов и слов',
        querystring: sourcesQuery,
        response: { 200: sourcesResponse },
      },
    },
    async (req) => sources.check(callerOf(req), req.query),
  );
  app.post(
    '/discovery/runs',
    {
      config: { permission: 'discovery.manage' },
      schema: {
        operationId: 'startDiscoveryRun',
        tags,
        summary: 'Запустить поиск доменов по компании (409 — поиск уже выполняется)',
        body: startRunRequest,
        response: { 202: runResponse },
      },
    },
    async (req, reply) => reply.code(202).send(await runs.start(callerOf(req), req.body.company_id)),
  );
  app.get(
    '/discovery/runs',
    {
      config: { permission: 'discovery.read' },
      schema: {
        operationId: 'listDiscoveryRuns',
        tags,
        summary: 'Запуски поиска доменов (новые сверху)',
        querystring: runListQuery,
        response: { 200: runListResponse },
      },
    },
    async (req) => runs.list(callerOf(req), req.query),
  );
  app.post(
    '/discovery/runs/:id/cancel',
    {
      config: { permission: 'discovery.manage' },
      schema: {
        operationId: 'cancelDiscoveryRun',
        tags,
        summary:
          'Остановить поиск: запуск в очереди отменяется сразу, выполняющийся — за несколько секунд, найденное сохраняется (409 — запуск уже завершён)',
        params: idParam,
        response: { 200: runResponse },
      },
    },
    async (req) => runs.cancel(callerOf(req), req.params.id),
  );
  app.get(
    '/discovery/runs/:id',
    {
      config: { permission: 'discovery.read' },
      schema: {
        operationId: 'getDiscoveryRun',
        tags,
        summary: 'Запуск поиска доменов: ход и итоги',
        params: idParam,
        response: { 200: runResponse },
      },
    },
    async (req) => runs.get(callerOf(req), req.params.id),
  );
}
