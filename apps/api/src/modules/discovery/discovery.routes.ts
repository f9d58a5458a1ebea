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
import { z } from 'zod';
import { actorOf } from '../../lib/actor';
import type { App } from '../../lib/routes';
import { requireAuth } from '../../plugins/access';
import type { AssetsService } from './assets.service';
import { previewCandidates } from './discovery.service';
import type { RunsService } from './runs.service';
import type { SourcesService } from './sources.service';

const noContent = z.null().describe('Нет содержимого');

/**
 * Discovery (#17): the protected assets of a company (/companies/{id}/assets), the candidate preview
 * and the runs (/discovery/…). Reading needs discovery.read in the company, changing discovery.manage.
 */
export async function discoveryRoutes(app: App, deps: { assets: AssetsService; runs: RunsService; sources: SourcesService }) {
  const { assets, runs, sources } = deps;
  const tags = ['discovery'];
  const p = (req: Parameters<typeof requireAuth>[0]) => requireAuth(req).principal;

  app.get(
    '/companies/:id/assets',
    {
      config: { permission: 'discovery.read' },
      schema: {
        operationId: 'listCompanyAssets',
        tags,
        summary: 'Защищаемые активы компании: домены и ключевые слова',
        params: assetParams,
        querystring: assetListQuery,
        response: { 200: assetListResponse },
      },
    },
    async (req) => assets.list(p(req), req.params.id, req.query),
  );
  app.post(
    '/companies/:id/assets',
    {
      config: { permission: 'discovery.manage' },
      schema: {
        operationId: 'createCompanyAsset',
        tags,
        summary: 'Добавить защищаемый актив (домен — в Unicode или punycode; 409 — такой уже есть)',
        params: assetParams,
        body: createAssetRequest,
        response: { 201: assetResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await assets.create(p(req), actorOf(req), req.params.id, req.body)),
  );
  app.get(
    '/companies/:id/assets/:assetId',
    {
      config: { permission: 'discovery.read' },
      schema: {
        operationId: 'getCompanyAsset',
        tags,
        summary: 'Защищаемый актив компании',
        params: assetItemParams,
        response: { 200: assetResponse },
      },
    },
    async (req) => assets.get(p(req), req.params.id, req.params.assetId),
  );
  app.patch(
    '/companies/:id/assets/:assetId',
    {
      config: { permission: 'discovery.manage' },
      schema: {
        operationId: 'updateCompanyAsset',
        tags,
        summary: 'Включить или выключить защищаемый актив',
        params: assetItemParams,
        body: updateAssetRequest,
        response: { 200: assetResponse },
      },
    },
    async (req) => assets.update(p(req), actorOf(req), req.params.id, req.params.assetId, req.body),
  );
  app.delete(
    '/companies/:id/assets/:assetId',
    {
      config: { permission: 'discovery.manage' },
      schema: {
        operationId: 'deleteCompanyAsset',
        tags,
        summary: 'Удалить защищаемый актив',
        params: assetItemParams,
        response: { 204: noContent },
      },
    },
    async (req, reply) => {
      await assets.remove(p(req), actorOf(req), req.params.id, req.params.assetId);
      return reply.code(204).send(null);
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
    async (req) => sources.check(p(req), req.query),
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
    async (req, reply) => reply.code(202).send(await runs.start(p(req), actorOf(req), req.body.company_id)),
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
    async (req) => runs.list(p(req), req.query),
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
    async (req) => runs.cancel(p(req), actorOf(req), req.params.id),
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
    async (req) => runs.get(p(req), req.params.id),
  );
}
