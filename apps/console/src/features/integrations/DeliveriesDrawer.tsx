/* The delivery log of one integration: request, response code, timing, attempts; «Отправить ещё раз». */
import { Button, Drawer, Table, Tag, Typography } from 'antd';
import { LoadError } from '../../components/page/QueryState';
import { formatDateTime } from '../../lib/format';
import { type IntegrationDelivery, type IntegrationTarget, useDeliveriesQuery, useResendMutation } from './api';

const STATE: Record<IntegrationDelivery['state'], { label: string; color: string }> = {
  pending: { label: 'В очереди', color: 'blue' },
  delivered: { label: 'Доставлено', color: 'green' },
  failed: { label: 'Не доставлено', color: 'red' },
};

export function DeliveriesDrawer({ target, onClose }: { target: IntegrationTarget | null; onClose: () => void }) {
  const q = useDeliveriesQuery(target?.id ?? null);
  const resend = useResendMutation();
  return (
    <Drawer
      open={target !== null}
      onClose={onClose}
      width={960}
      title={target ? `Журнал доставок: ${target.name}` : ''}
      destroyOnHidden
    >
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Table<IntegrationDelivery>
          rowKey="id"
          size="small"
          loading={q.isLoading}
          dataSource={q.data?.items ?? []}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          locale={{ emptyText: 'Доставок пока нет' }}
          data-testid="deliveries-table"
          expandable={{
            expandedRowRender: (d) => (
              <>
                <Typography.Paragraph>
                  <Typography.Text strong>Запрос</Typography.Text>
                </Typography.Paragraph>
                <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 300, overflow: 'auto' }}>
                  {d.request}
                </pre>
                {(d.last_response || d.last_error) && (
                  <>
                    <Typography.Text strong>Ответ</Typography.Text>
                    <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{d.last_error ?? d.last_response}</pre>
                  </>
                )}
              </>
            ),
          }}
          columns={[
            { title: 'Создано', dataIndex: 'created_at', width: 160, render: (v: string) => formatDateTime(v) },
            { title: 'Сообщение', dataIndex: 'type_label', render: (v: string, d) => <span title={d.message_id}>{v}</span> },
            {
              title: 'Состояние',
              dataIndex: 'state',
              width: 130,
              render: (s: IntegrationDelivery['state']) => <Tag color={STATE[s].color}>{STATE[s].label}</Tag>,
            },
            {
              title: 'Код',
              dataIndex: 'last_status',
              width: 70,
              render: (v: number | null, d) => v ?? (d.last_error ? 'ошибка' : '—'),
            },
            { title: 'Время, мс', dataIndex: 'last_ms', width: 90, render: (v: number | null) => v ?? '—' },
            { title: 'Попыток', dataIndex: 'attempts', width: 80 },
            {
              title: 'Следующая',
              dataIndex: 'next_at',
              width: 160,
              render: (v: string | null) => (v ? formatDateTime(v) : '—'),
            },
            {
              title: '',
              key: 'resend',
              width: 150,
              render: (_: unknown, d) =>
                target && (
                  <Button
                    size="small"
                    onClick={() => resend.mutate({ id: target.id, delivery: d.id })}
                    loading={resend.isPending && resend.variables?.delivery === d.id}
                  >
                    Отправить ещё раз
                  </Button>
                ),
            },
          ]}
        />
      )}
    </Drawer>
  );
}
