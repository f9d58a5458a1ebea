/*
 * Routes of the watch (#31): a company's schedule and rules (/companies/{id}/watch; discovery.read to
 * read, discovery.manage to change) and a domain event's watch (/modules/domains/events/{id}/watch:
 * the timeline with events.read, the flag and interval with events.write).
 */
import { idParam } from '@forpost/contract/common';
import { idParams } from '@forpost/contract/events';
import { eventWatch, eventWatchPut, watchSettings, watchSettingsPut } from '@forpost/contract/watch';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { WatchService } from './watch.service';

export function watchRoutes(app: App, deps: { watch: WatchService }) {
  const { watch } = deps;
  const tags = ['discovery'];
  const eventPath = '/modules/domains/events/:id/watch';

  app.get(
    '/companies/:id/watch',
    {
      config: { permission: 'discovery.read' },
      schema: {
        operationId: 'getWatchSettings',
        tags,
        summary: 'Наблюдение за доменами компании: интервал и правила приоритета',
        params: idParam,
        response: { 200: watchSettings },
      },
    },
    async (req) => watch.getSettings(callerOf(req), req.params.id),
  );
  app.put(
    '/companies/:id/watch',
    {
      config: { permission: 'discovery.manage' },
      schema: {
        operationId: 'putWatchSettings',
        tags,
        summary: 'Изменить наблюдение за доменами компании',
        params: idParam,
        body: watchSettingsPut,
        response: { 200: watchSettings },
      },
    },
    async (req) => watch.putSettings(callerOf(req), req.params.id, req.body),
  );
  app.get(
    eventPath,
    {
      config: { permission: 'events.read' },
      schema: {
        operationId: 'getDomainWatch',
        tags: ['events', 'events-domains'],
        summary: 'Домены: наблюдение за событием — состояния с интервалами времени и переходы',
        params: idParams,
        response: { 200: eventWatch },
      },
    },
    async (req) => watch.getEvent(callerOf(req), req.params.id),
  );
  app.put(
    eventPath,
    {
      config: { permission: 'events.write' },
      schema: {
        operationId: 'putDomainWatch',
        tags: ['events', 'events-domains'],
        summary: 'Домены: включить или выключить наблюдение за событием, интервал',
        params: idParams,
        body: eventWatchPut,
        response: { 200: eventWatch },
      },
    },
    async (req) => watch.putEvent(callerOf(req), req.params.id, req.body),
  );
}
