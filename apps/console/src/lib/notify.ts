import type { App } from 'antd';

type AppApi = ReturnType<typeof App.useApp>;
export type MessageApi = AppApi['message'];

/**
 * Bridge to the antd `App` context so non-React code (the HTTP client, the version check) can show
 * toasts that respect the theme and locale. `NotifyBridge` (features/shell) fills it on mount.
 */
let messageApi: MessageApi | null = null;

export function bindNotify(message: MessageApi): void {
  messageApi = message;
}

export const getMessage = (): MessageApi | null => messageApi;
