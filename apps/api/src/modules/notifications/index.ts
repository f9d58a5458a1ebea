/* In-app notifications: `notify` for the producers (assignment, mentions, SLA), routes for the bell. */
export { notificationsRoutes } from './notifications.routes';
export { createNotificationsService, type NewNotification, notify } from './notifications.service';
