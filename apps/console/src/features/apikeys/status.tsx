import { Tag } from 'antd';
import type { ApiKey } from './api/queries';

/** Активен / Отключён / Истёк. */
export function ApiKeyStatus({ apiKey }: { apiKey: ApiKey }) {
  if (!apiKey.is_active) return <Tag color="red">Отключён</Tag>;
  if (apiKey.expires_at && new Date(apiKey.expires_at).getTime() <= Date.now()) return <Tag color="orange">Истёк</Tag>;
  return <Tag color="green">Активен</Tag>;
}
