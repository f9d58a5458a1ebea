import type { App } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;
export type MessageApi = AppApi['message'];
export type NotificationApi = AppApi['notification'];

/**
 * Bridge to the antd `App` context so non-React code (the HTTP client, the version check) can show
 * toasts that respect the theme and locale. `NotifyBridge` (features/shell) fills it on mount.
 */
let messageApi: MessageApi | null = null;
let notificationApi: NotificationApi | null = null;

export function bindNotify(message: MessageApi, notification: NotificationApi): void {
  messageApi = message;
  notificationApi = notification;
}

export const getMessage = (): MessageApi | null => messageApi;
export const getNotification = (): NotificationApi | null => notificationApi;
