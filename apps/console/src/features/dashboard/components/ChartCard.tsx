import { Card, Empty, Flex, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { formatNumber } from '../../../lib/format';

/** A dashboard chart's frame: title with the period's total, loading skeleton, empty state. */
export function ChartCard({
  title,
  total,
  loading,
  empty,
  hint,
  children,
  testId,
  height = 300,
}: {
  title: string;
  total?: number;
  loading: boolean;
  empty: boolean;
  hint?: string;
  children: ReactNode;
  testId: string;
  height?: number;
}) {
  return (
    <Card
      data-testid={testId}
      title={
        <Flex align="baseline" gap={8}>
          <span>{title}</span>
          {total !== undefined && !loading && (
            <Typography.Text type="secondary" style={{ fontWeight: 400 }} data-testid={`${testId}-total`}>
              {formatNumber(total)}
            </Typography.Text>
          )}
        </Flex>
      }
      extra={
        hint && !empty && !loading ? (
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
      ) : empty ? (
        <Flex align="center" justify="center" style={{ height }}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Нет событий за период" />
        </Flex>
      ) : (
        children
      )}
    </Card>
  );
}
