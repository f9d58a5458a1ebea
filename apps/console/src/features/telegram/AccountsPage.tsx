import { PlusOutlined } from '@ant-design/icons';
import { TELEGRAM_ACCOUNT_STATE_LABELS, type TelegramAccountStatus } from '@forpost/contract/telegram';
import { Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { AdminTable } from '../../components/list/AdminTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { rowActionsColumn } from '../../components/list/rowActionsColumn';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../auth/useMe';
import { useDeleteAccountMutation } from './api/mutations';
import { type TelegramAccount, useAccountsQuery } from './api/queries';
import { AccountModal } from './components/AccountModal';
import { LoginModal } from './components/LoginModal';
import { AccountStatusTag, SecretState, statusOptions } from './labels';
import type { AccountsSearch } from './search';

/** /telegram/accounts: the Telegram accounts the collector reads channels with. */
export function AccountsPage({
  search,
  onSearch,
}: {
  search: AccountsSearch;
  onSearch: (p: SearchPatch<AccountsSearch>) => void;
}) {
  const canManage = useCan('telegram.manage');
  const list = useAccountsQuery({ q: search.q, status: search.status, ...pageParams(search) });
  const remove = useDeleteAccountMutation();
  const [editing, setEditing] = useState<TelegramAccount | 'new' | null>(null);
  const [signingIn, setSigningIn] = useState<TelegramAccount | null>(null);

  return (
    <>
      <PageHeading
        title="Аккаунты Telegram"
        subtitle="Учётные записи, через которые сборщик читает каналы. Ключи доступа только задаются и никогда не показываются"
        extra={
          canManage && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              Добавить аккаунт
            </Button>
          )
        }
      />
      <Card>
        <AdminTable<TelegramAccount, AccountsSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          paged
          data-testid="accounts-table"
          scroll={{ x: 1300 }}
          empty={(filtered) => (
            <EmptyState
              text={filtered ? 'Ничего не нашлось' : 'Аккаунтов пока нет'}
              action={
                !filtered && canManage ? (
                  <Button type="primary" onClick={() => setEditing('new')}>
                    Добавить аккаунт
                  </Button>
                ) : undefined
              }
            />
          )}
          columns={[
            {
              title: 'Название',
              filter: { kind: 'text', key: 'q', placeholder: 'Название или телефон' },
              dataIndex: 'name',
              minWidth: 220,
              render: (n: string, a) => (
                <Flex vertical>
                  <Typography.Text strong>{n}</Typography.Text>
                  {a.comment && (
                    <Typography.Text type="secondary" ellipsis={{ tooltip: a.comment }} style={{ fontSize: 12, maxWidth: 320 }}>
                      {a.comment}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            {
              title: 'Телефон',
              dataIndex: 'phone',
              width: 170,
              render: (p: string) => <span style={{ whiteSpace: 'nowrap' }}>{p}</span>,
            },
            {
              title: 'Статус',
              filter: { kind: 'select', key: 'status', placeholder: 'Статус', options: statusOptions, width: 200 },
              dataIndex: 'status',
              width: 150,
              render: (s: TelegramAccountStatus) => <AccountStatusTag status={s} />,
            },
            {
              title: 'Состояние',
              key: 'state',
              width: 230,
              render: (_, a) => (
                <Flex gap={8} align="center" wrap>
                  <Typography.Text
                    type={a.state === 'active' ? 'success' : a.state === 'banned' ? 'danger' : 'warning'}
                    data-testid={`account-state-${a.id}`}
                  >
                    {TELEGRAM_ACCOUNT_STATE_LABELS[a.state]}
                    {a.state === 'flood_wait' && a.flood_wait_until ? ` до ${formatDateTime(a.flood_wait_until)}` : ''}
                  </Typography.Text>
                  {canManage && a.state !== 'banned' && a.has_api_id && a.has_api_hash && (
                    <Button size="small" onClick={() => setSigningIn(a)}>
                      Войти
                    </Button>
                  )}
                </Flex>
              ),
            },
            {
              title: 'Ключи доступа',
              key: 'secrets',
              width: 300,
              render: (_, a) => (
                <Flex gap={4} wrap>
                  <SecretState label="api_id" set={a.has_api_id} />
                  <SecretState label="api_hash" set={a.has_api_hash} />
                  <SecretState label="сессия" set={a.has_session} />
                </Flex>
              ),
            },
            {
              title: 'Последняя активность',
              dataIndex: 'last_activity_at',
              width: 190,
              render: (d: string | null) => (d ? formatDateTime(d) : <Typography.Text type="secondary">Не было</Typography.Text>),
            },
            ...(canManage
              ? [
                  rowActionsColumn<TelegramAccount>((a) => ({
                    name: a.name,
                    onEdit: () => setEditing(a),
                    onDelete: () => remove.mutateAsync(a.id),
                    deleteText: 'Ключи доступа аккаунта будут удалены.',
                  })),
                ]
              : []),
          ]}
        />
      </Card>
      <LoginModal account={signingIn} onClose={() => setSigningIn(null)} />
      <AccountModal account={editing === 'new' ? null : editing} open={editing !== null} onClose={() => setEditing(null)} />
    </>
  );
}
