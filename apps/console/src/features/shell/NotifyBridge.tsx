import { App } from 'antd';
import { useLayoutEffect } from 'react';
import { bindNotify } from '../../lib/notify';

/** Hands the antd App's message/notification instances to non-React code (lib/notify). */
export function NotifyBridge() {
  const { message, notification } = App.useApp();
  useLayoutEffect(() => bindNotify(message, notification), [message, notification]);
  return null;
}
