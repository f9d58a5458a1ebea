import { DesktopOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Card, Popconfirm, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { EmptyState, LoadError } from '../../../components/page/QueryState';
import { feedback } from '../../../lib/feedback';
import { formatDateTime } from '../../../lib/format';
import { useEndOtherSessionsMutation, useEndSessionMutation } from '../api/mutations';
import { type Session, useSessionsQuery } from '../api/queries';

/** «Сеансы»: where the user is signed in; end one or all the others. */
export function SessionsCard() {
  const { message } = feedback;
  const sessions = useSessionsQuery();
  const endOne = useEndSessionMutation();
  const endOthers = useEndOtherSessionsMutation();
  const items = sessions.data?.items ?? [];
  const others = items.filter((s) => !s.current).length;

  return (
    <Card
      title={
        <Space>
          <DesktopOutlined />
          Сеансы
        </Space>
      }
      extra={
        <Space>
          <Tooltip title="Обновить">
            <Button
              icon={<ReloadOutlined />}
              onClick={() => void sessions.refetch()}
              loading={sessions.isFetching}
              aria-label="Обновить"
            />
          </Tooltip>
          <Popconfirm
            title="Завершить все остальные сеансы?"
            description="На других устройствах потребуется войти заново."
            okText="Завершить"
            cancelText="Отмена"
            onConfirm={() =>
              endOthers.mutateAsync().then((r) => {
                message.success(r.ended ? `Завершено сеансов: ${r.ended}` : 'Других сеансов нет');
              })
            }
            disabled={others === 0}
          >
            <Button danger disabled={others === 0} loading={endOthers.isPending}>
              Завершить все остальные
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      {sessions.isError ? (
        <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} title="Не удалось загрузить сеансы" />
      ) : (
        <Table<Session>
          rowKey="id"
          size="middle"
          loading={sessions.isLoading}
          dataSource={items}
          pagination={false}
          locale={{ emptyText: <EmptyState text={'Активных сеансов нет'} /> }}
          data-testid="sessions-table"
          columns={[
            {
              title: 'Устройство',
              dataIndex: 'device',
              render: (_, s) => (
                <Space>
                  <Tooltip title={s.user_agent ?? undefined}>
                    <span>{s.device}</span>
                  </Tooltip>
                  {s.current && <Tag color="blue">Текущий</Tag>}
                </Space>
              ),
            },
            {
              title: 'IP-адрес',
              dataIndex: 'ip',
              render: (ip: string | null) => <Typography.Text code>{ip ?? '—'}</Typography.Text>,
            },
            { title: 'Вход', dataIndex: 'created_at', render: (d: string) => formatDateTime(d), width: 160 },
            { title: 'Последняя активность', dataIndex: 'last_seen_at', render: (d: string) => formatDateTime(d), width: 200 },
            {
              title: '',
              key: 'actions',
              width: 130,
              align: 'right',
              render: (_, s) =>
                s.current ? null : (
                  <Popconfirm
                    title="Завершить этот сеанс?"
                    okText="Завершить"
                    cancelText="Отмена"
                    onConfirm={() => endOne.mutateAsync(s.id).then(() => void message.success('Сеанс завершён'))}
                  >
                    <Button size="small" danger>
                      Завершить
                    </Button>
                  </Popconfirm>
                ),
            },
          ]}
        />
      )}
    </Card>
  );
}
