import { ExclamationCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Skeleton, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { formatNumber } from '../../../lib/format';
import { getErrorStatus } from '../../../lib/http';

/** What a chart card needs of its TanStack query. */
export interface ChartQuery {
  isLoading: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * Whether asking again may help: no answer, a timeout or a server fault. A 4xx (an invalid period,
 * no access) fails the same way again, so it gets no «Повторить».
 */
export const isRetryable = (error: unknown): boolean => {
  const status = getErrorStatus(error);
  return status === undefined || status >= 500 || status === 408 || status === 429;
};

/**
 * A dashboard chart's frame: title with the period's total, loading skeleton, error state with
 * «Повторить» (the API's message is shown once for the whole page, above the charts), empty state.
 */
export function ChartCard({
  title,
  total,
  query,
  empty,
  hint,
  children,
  testId,
  height = 300,
}: {
  title: string;
  total?: number;
  query: ChartQuery;
  empty: boolean;
  hint?: string;
  children: ReactNode;
  testId: string;
  height?: number;
}) {
  const { token } = theme.useToken();
  // A retry of a failed chart keeps the query in the error status while it runs: show the skeleton.
  const loading = query.isLoading || (query.isError && query.isFetching);
  const failed = query.isError && !loading;
  return (
    <Card
      data-testid={testId}
      title={
        <Flex align="baseline" gap={8}>
          <span>{title}</span>
          {total !== undefined && !loading && !failed && (
            <Typography.Text type="secondary" style={{ fontWeight: 400 }} data-testid={`${testId}-total`}>
              {formatNumber(total)}
            </Typography.Text>
          )}
        </Flex>
      }
      extra={
        hint && !loading && !failed && !empty ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {hint}
          </Typography.Text>
        ) : null
      }
      styles={{ body: { paddingTop: 12, paddingBottom: 12 } }}
      style={{ height: '100%' }}
    >
      {loading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : failed ? (
        <Flex vertical align="center" justify="center" gap={8} style={{ height }} data-testid={`${testId}-error`}>
          <ExclamationCircleOutlined style={{ fontSize: 32, color: token.colorError }} />
          <Typography.Text>Не удалось загрузить график</Typography.Text>
          {isRetryable(query.error) && (
            <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} data-testid={`${testId}-retry`}>
              Повторить
            </Button>
          )}
        </Flex>
      ) : empty ? (
        <Flex align="center" justify="center" style={{ height }}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Нет событий за период" />
        </Flex>
      ) : (
        // A named figure for screen readers: the chart's title, its total and hint (the canvas itself says nothing).
        <div
          role="img"
          aria-label={[title, total !== undefined ? formatNumber(total) : '', hint ?? ''].filter(Boolean).join('. ')}
        >
          {children}
        </div>
      )}
    </Card>
  );
}
