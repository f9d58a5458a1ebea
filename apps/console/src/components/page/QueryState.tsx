import { Button, Card, Empty, Result, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { ERROR_PAGE_MESSAGES } from '../../features/errors/errors';
import { errorMessage, getErrorStatus } from '../../lib/http';

/** Loading skeleton in a card: the first load of a page. */
export function LoadingCard({ rows = 6 }: { rows?: number }) {
  return (
    <Card>
      <Skeleton active paragraph={{ rows }} />
    </Card>
  );
}

/** A failed load: the status's text or the API message, and «Повторить». */
export function LoadError({ error, onRetry, title }: { error: unknown; onRetry?: () => void; title?: string }) {
  const status = getErrorStatus(error);
  const text = status === 404 ? (errorMessage(error) ?? ERROR_PAGE_MESSAGES[404]) : errorMessage(error);
  return (
    <Result
      status={status === 404 ? '404' : status === 403 ? '403' : 'error'}
      title={title ?? (status === 404 ? 'Не найдено' : status === 403 ? ERROR_PAGE_MESSAGES[403] : 'Не удалось загрузить данные')}
      subTitle={text}
      extra={
        onRetry && status !== 404 && status !== 403 ? (
          <Button type="primary" onClick={onRetry}>
            Повторить
          </Button>
        ) : null
      }
      data-testid="load-error"
    />
  );
}

/** What a page shows of a query: its content, or the load error (with «Повторить») when the first load failed. */
export function Loaded({
  query,
  children,
}: {
  query: { isError: boolean; data?: unknown; error: unknown; refetch: () => unknown };
  children: ReactNode;
}) {
  return query.isError && !query.data ? <LoadError error={query.error} onRetry={() => void query.refetch()} /> : children;
}

/** Empty state with an optional action. */
export function EmptyState({ text, action }: { text: ReactNode; action?: ReactNode }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text}>
      {action}
    </Empty>
  );
}
