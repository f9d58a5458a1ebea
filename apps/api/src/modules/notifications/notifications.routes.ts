/* /notifications: the signed-in user's bell (personal; API keys have none — permission `session`). */
import {
  notificationsQuery,
  notificationsReadRequest,
  notificationsReadResponse,
  notificationsResponse,
  unreadCountResponse,
} from '@forpost/contract/notifications';
import type { z } from 'zod';
import { callerOf } from '../../lib/caller';
import type { App } from '../../lib/routes';
import type { NotificationsService } from './notifications.service';

const tags = ['notifications'];

export function notificationsRoutes(app: App, deps: { notifications: NotificationsService }) {
  const svc = deps.notifications;
  app.get(
    '/notifications',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'listNotifications',
        tags,
        summary: 'Мои уведомления',
        description:
          'Новые сверху; `unread=true` — только непрочитанные. `grouped=true` — однотипные непрочитанные ' +
          '(нарушения SLA, назначения) одной компании и модуля одним элементом с `count`. В ответе `unread` — число непрочитанных.',
        querystring: notificationsQuery,
        response: { 200: notificationsResponse },
      },
    },
    async (req) => svc.list(callerOf(req), req.query as z.infer<typeof notificationsQuery>),
  );
  app.get(
    '/notifications/unread-count',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'countUnreadNotifications',
        tags,
        summary: 'Число непрочитанных уведомлений',
        response: { 200: unreadCountResponse },
      },
    },
    async (req) => svc.unreadCount(callerOf(req)),
  );
  app.post(
    '/notifications/read',
    {
      config: { permission: 'session' },
      schema: {
        operationId: 'readNotifications',
        tags,
        summary: 'Отметить уведомления прочитанными',
        description:
          '`{ids: [...]}` — эти, `{all: true}` — все свои, `{group: {kind, company_id, module}}` — все непрочитанные группы.',
        body: notificationsReadRequest,
        response: { 200: notificationsReadResponse },
      },
    },
    async (req) => svc.markRead(callerOf(req), req.body as z.infer<typeof notificationsReadRequest>),
  );
}
