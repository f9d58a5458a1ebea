import { App } from 'antd';
import { useLayoutEffect } from 'react';
import { bindNotify } from '../../lib/notify';

/** Hands the antd App's message instance to non-React code (lib/notify). */
export function NotifyBridge() {
  const { message } = App.useApp();
  useLayoutEffect(() => bindNotify(message), [message]);
  return null;
}
