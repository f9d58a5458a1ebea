import type { SourcesResponse } from '@forpost/contract/discovery';
import { Alert } from 'antd';

/**
 * What a run would miss: sources not configured or not answering. Null when all are fine (or unknown).
 * «0 зарегистрировано» of a run made this way is not «nothing to fear».
 */
export function SourcesAlert({ data, style }: { data: SourcesResponse | undefined; style?: React.CSSProperties }) {
  const bad = data?.sources.filter((s) => s.state !== 'ok') ?? [];
  if (!bad.length) return null;
  const blocking = bad.some((s) => s.source === 'dns');
  // CT is not part of a run: alone it only means certificates are not watched.
  const ctOnly = bad.every((s) => s.source === 'ct');
  return (
    <Alert
      type={blocking ? 'error' : ctOnly ? 'info' : 'warning'}
      showIcon
      style={style}
      title={
        blocking
          ? 'Поиск не сможет проверить кандидатов'
          : ctOnly
            ? 'Журналы сертификатов не наблюдаются'
            : 'Проверка будет неполной: часть источников не настроена или не отвечает'
      }
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {bad.map((s) => (
            <li key={s.source}>{s.message}</li>
          ))}
        </ul>
      }
      data-testid="sources-alert"
    />
  );
}
