/* Classification pipeline endpoints: an event's ML state and re-queue, the queue summary. */
import {
  mlInfoResponse,
  mlRequeueFailedRequest,
  mlRequeueFailedResponse,
  mlSummaryQuery,
  mlSummaryResponse,
} from '@forpost/contract/classifier';
import { idParams } from '@forpost/contract/events';
import { MODULE_LIST } from '@forpost/contract/modules';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { ClassifierService } from './classifier.service';

const pascal = (code: string) => code.charAt(0).toUpperCase() + code.slice(1);

export async function classifierRoutes(app: App, deps: { classifier: ClassifierService }) {
  const svc = deps.classifier;
  const tags = ['classifier'];

  for (const m of MODULE_LIST) {
    const base = `/modules/${m.code}/events/:id/ml`;
    app.get(
      base,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `get${pascal(m.code)}EventMl`,
          tags,
          summary: `${m.name}: состояние классификации события`,
          params: idParams,
          response: { 200: mlInfoResponse },
        },
      },
      async (req) => svc.info(callerOf(req), m.code, req.params.id),
    );
    app.post(
      `${base}/requeue`,
      {
        config: { permission: 'events.write' },
        schema: {
          operationId: `requeue${pascal(m.code)}EventMl`,
          tags,
          summary: `${m.name}: отправить событие на классификацию заново`,
          params: idParams,
          response: { 200: mlInfoResponse },
        },
      },
      async (req) => svc.requeue(callerOf(req), m.code, req.params.id),
    );
  }

  app.get(
    '/classifier/summary',
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getClassifierSummary',
        tags,
        summary: 'Очередь классификации: в очереди, отправлено, ошибки',
        querystring: mlSummaryQuery,
        response: { 200: mlSummaryResponse },
      },
    },
    async (req) => svc.summary(callerOf(req), req.query.company_id),
  );
  app.post(
    '/classifier/requeue-failed',
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'requeueFailedClassification',
        tags,
        summary: 'Отправить на классификацию заново все события с ошибкой',
        body: mlRequeueFailedRequest,
        response: { 200: mlRequeueFailedResponse },
      },
    },
    async (req) => svc.requeueFailed(callerOf(req), req.body),
  );
}
