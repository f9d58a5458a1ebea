import { DELIVERY_STATUS_COLORS, DELIVERY_STATUS_LABELS, type Delivery } from '@forpost/contract/mailings';
import { Card, Flex, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { EmptyState } from '../../../components/page/QueryState';
import { formatDateTime } from '../../../lib/format';
import { useDeliveriesQuery } from '../api/queries';

/** The emails of a mailing: status, attempts, how many events, the last error and the next retry. */
export function DeliveriesCard({ mailingId }: { mailingId: number }) {
  const [page, setPage] = useState(1);
  const list = useDeliveriesQuery(mailingId, page);
  return (
    <Card title="Отправленные письма" data-testid="deliveries">
      <Table<Delivery>
        rowKey="id"
        size="small"
        loading={list.isFetching && !list.data}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: <EmptyState text="Писем ещё не было: они появятся, когда под фильтры попадут новые события" /> }}
        pagination={{
          current: page,
          pageSize: 10,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
          hideOnSinglePage: true,
        }}
        scroll={{ x: 900 }}
        columns={[
          { title: 'Создано', dataIndex: 'created_at', width: 150, render: (d: string) => formatDateTime(d) },
          {
            title: 'Статус',
            key: 'status',
            width: 200,
            render: (_, d) => (
              <Flex vertical gap={2}>
                <span>
                  <Tag color={DELIVERY_STATUS_COLORS[d.status]}>{DELIVERY_STATUS_LABELS[d.status]}</Tag>
                </span>
                {d.attempts > 1 && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    попыток: {d.attempts}
                  </Typography.Text>
                )}
              </Flex>
            ),
          },
          {
            title: 'Тема',
            dataIndex: 'subject',
            ellipsis: true,
            render: (s: string) => s || <Typography.Text type="secondary">—</Typography.Text>,
          },
          {
            title: 'События',
            key: 'events',
            width: 110,
            render: (_, d) =>
              d.listed_count && d.listed_count < d.event_count ? `${d.listed_count} из ${d.event_count}` : d.event_count,
          },
          {
            title: 'Отправлено / ошибка',
            key: 'result',
            width: 300,
            render: (_, d) =>
              d.sent_at ? (
                <Flex vertical>
                  <span>{formatDateTime(d.sent_at)}</span>
                  {/* Sent, but the server refused some recipients: «Не приняты адреса: …». */}
                  {d.last_error && (
                    <Tooltip title={d.last_error}>
                      <Typography.Text
                        type="warning"
                        ellipsis
                        style={{ maxWidth: 280, fontSize: 12 }}
                        data-testid="delivery-note"
                      >
                        {d.last_error}
                      </Typography.Text>
                    </Tooltip>
                  )}
                </Flex>
              ) : d.status === 'skipped' ? (
                <Typography.Text type="secondary">{d.last_error ?? 'Письмо не понадобилось'}</Typography.Text>
              ) : d.last_error ? (
                <Flex vertical>
                  <Tooltip title={d.last_error}>
                    <Typography.Text type="danger" ellipsis style={{ maxWidth: 280 }}>
                      {d.last_error}
                    </Typography.Text>
                  </Tooltip>
                  {d.next_attempt_at && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      Повтор: {formatDateTime(d.next_attempt_at)}
                    </Typography.Text>
                  )}
                </Flex>
              ) : (
                <Typography.Text type="secondary">—</Typography.Text>
              ),
          },
        ]}
      />
    </Card>
  );
}
