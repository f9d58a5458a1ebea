/* GET /modules/{code}/events/{id}/related — events sharing an indicator, for every module. */
import { idParams } from '@forpost/contract/events';
import { MODULE_LIST } from '@forpost/contract/modules';
import { relatedEventsResponse } from '@forpost/contract/related';
import { callerOf } from '../../../lib/caller';
import type { App } from '../../../lib/routes';
import { eventsPath, pascal, tagsOf } from '../events.routes';
import type { RelatedService } from './related.service';

export function relatedRoutes(app: App, deps: { related: RelatedService }) {
  for (const m of MODULE_LIST) {
    app.get(
      `${eventsPath(m)}/:id/related`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `related${pascal(m.code)}Events`,
          tags: tagsOf(m),
          summary: `${m.name}: связанные события`,
          description:
            'События всех модулей и всех доступных компаний с общими индикаторами (IP, домен, регистратор, ИНН/ОГРН, ' +
            'BIN карты, email, телефон, аккаунт): по каждому — число по модулям (до 1000) и 10 последних. ' +
            'Список модуля с фильтром `indicator=<вид>:<значение>` показывает их все.',
          params: idParams,
          response: { 200: relatedEventsResponse },
        },
      },
      async (req) => deps.related.related(callerOf(req), m, (req.params as { id: number }).id),
    );
  }
}
