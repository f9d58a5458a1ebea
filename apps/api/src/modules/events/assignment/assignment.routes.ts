/* Assignment endpoints: the assignee picker of each module and «Мои события» across modules. */
import {
  assigneesQuery,
  assigneesResponse,
  type MyEventsQuery,
  myEventsQuery,
  myEventsResponse,
} from '@forpost/contract/assignment';
import { MODULE_LIST } from '@forpost/contract/modules';
import { callerOf } from '../../../lib/caller';
import type { App } from '../../../lib/routes';
import { pascal, tagsOf } from '../events.routes';
import type { Assignment } from './assignment';

export function assignmentRoutes(app: App, deps: { assignment: Assignment }) {
  const { assignment } = deps;
  app.get(
    '/events/assigned',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'listMyEvents',
        tags: ['events'],
        summary: 'Мои события: назначенные мне во всех модулях',
        description:
          'События, где исполнитель — текущий пользователь, в компаниях и модулях, которые он может читать. ' +
          '`status` — коды статусов через запятую, `open=true` — только незавершённые.',
        querystring: myEventsQuery,
        response: { 200: myEventsResponse },
      },
    },
    async (req) => assignment.mine(callerOf(req), req.query as MyEventsQuery),
  );

  for (const m of MODULE_LIST) {
    app.get(
      `/modules/${m.code}/assignees`,
      {
        config: { permission: 'events.read' },
        schema: {
          operationId: `list${pascal(m.code)}Assignees`,
          tags: tagsOf(m),
          summary: `${m.name}: кого можно назначить исполнителем`,
          description:
            'Активные пользователи, которые видят события компании в этом модуле (не больше 50, `q` — по имени или e-mail).',
          querystring: assigneesQuery,
          response: { 200: assigneesResponse },
        },
      },
      async (req) => assignment.candidates(callerOf(req), m, req.query as { company_id?: number; q?: string }),
    );
  }
}
