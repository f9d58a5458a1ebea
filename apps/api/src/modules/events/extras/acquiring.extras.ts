/* POST /modules/acquiring/events/{id}/reveal — the clear card number, audited, for events.card_reveal. */
import { cardRevealResponse, idParams } from '@forpost/contract/events';
import { callerOf } from '../../../lib/caller';
import { eventsPath, pascal, tagsOf } from '../events.routes';
import type { ExtraRegistrar } from './extras';

export const cardRevealExtra: ExtraRegistrar = (app, m, ctx) => {
  app.post(
    `${eventsPath(m)}/:id/reveal`,
    {
      config: { permission: 'events.card_reveal' },
      schema: {
        operationId: `reveal${pascal(m.code)}Card`,
        tags: tagsOf(m),
        summary: `${m.name}: показать номер карты полностью (записывается в журнал аудита)`,
        params: idParams,
        response: { 200: cardRevealResponse },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return ctx.events.reveal(callerOf(req), m, req.params.id);
    },
  );
};
