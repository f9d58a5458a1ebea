import { PlusOutlined } from '@ant-design/icons';
import { formatNumber } from '@forpost/contract/format';
import { Link } from '@tanstack/react-router';
import { Button, Card, Flex, Switch, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { AdminTable } from '../../components/list/AdminTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { rowActionsColumn } from '../../components/list/rowActionsColumn';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { ALL_COMPANIES_LABEL, useCompanyFilter } from '../company/useCompanyId';
import { useDeleteChannelMutation, useSaveChannelMutation } from './api/mutations';
import { type TelegramChannel, useChannelsQuery } from './api/queries';
import { ChannelModal } from './components/ChannelModal';
import { CollectorStateTag } from './labels';
import type { ChannelsSearch } from './search';

const KEYWORDS_SHOWN = 6;

/** /telegram/channels: monitored channels, their company and keyword rules. */
export function ChannelsPage({
  search,
  onSearch,
}: {
  search: ChannelsSearch;
  onSearch: (p: SearchPatch<ChannelsSearch>) => void;
}) {
  const canManage = useCan('telegram.manage');
  const companyId = useCompanyFilter();
  const companies = useCompanyOptions();
  const list = useChannelsQuery({
    q: search.q,
    company_id: companyId,
    is_active: search.active,
    sort: search.sort,
    ...pageParams(search),
  });
  const save = useSaveChannelMutation();
  const remove = useDeleteChannelMutation();
  const [editing, setEditing] = useState<TelegramChannel | 'new' | null>(null);

  return (
    <>
      <PageHeading
        title="Каналы"
        subtitle={`Каналы Telegram, сообщения которых проверяются по ключевым словам · ${
          companyId === undefined ? ALL_COMPANIES_LABEL : (companies.nameOf(companyId) ?? '…')
        }`}
        extra={
          canManage && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="channel-add">
              Добавить канал
            </Button>
          )
        }
      />
      <Card>
        <AdminTable<TelegramChannel, ChannelsSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          paged
          defaultSort="username"
          data-testid="channels-table"
          scroll={{ x: 1100 }}
          empty={(filtered) => (
            <EmptyState
              text={filtered ? 'Ничего не нашлось' : 'Каналов пока нет'}
              action={
                !filtered && canManage ? (
                  <Button type="primary" onClick={() => setEditing('new')}>
                    Добавить канал
                  </Button>
                ) : undefined
              }
            />
          )}
          columns={[
            {
              title: 'Канал',
              filter: { kind: 'text', key: 'q', placeholder: 'Имя или название канала' },
              key: 'username',
              sortKey: 'username',
              render: (_, c) => (
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Link href={c.link} target="_blank" rel="noopener noreferrer">
                    {c.username}
                  </Typography.Link>
                  {c.title && (
                    <Typography.Text type="secondary" ellipsis={{ tooltip: c.title }} style={{ fontSize: 12, maxWidth: 260 }}>
                      {c.title}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            ...(companyId === undefined
              ? [{ title: 'Компания', key: 'company', width: 180, render: (_: unknown, c: TelegramChannel) => c.company.name }]
              : []),
            {
              title: 'Ключевые слова',
              key: 'keywords',
              render: (_, c) =>
                c.keywords.length === 0 ? (
                  <Typography.Text type="secondary">не заданы</Typography.Text>
                ) : (
                  <Flex gap={4} wrap>
                    {c.keywords.slice(0, KEYWORDS_SHOWN).map((k) => (
                      <Tag key={k} style={{ marginInlineEnd: 0 }}>
                        {k}
                      </Tag>
                    ))}
                    {c.keywords.length > KEYWORDS_SHOWN && (
                      <Tooltip title={c.keywords.slice(KEYWORDS_SHOWN).join(', ')}>
                        <Tag style={{ marginInlineEnd: 0 }}>ещё {c.keywords.length - KEYWORDS_SHOWN}</Tag>
                      </Tooltip>
                    )}
                  </Flex>
                ),
            },
            {
              title: 'Совпадений',
              key: 'messages_count',
              width: 130,
              align: 'right',
              render: (_, c) => (
                <Flex vertical align="end">
                  {c.messages_count > 0 ? (
                    <Link to="/messages" search={{ channel: String(c.id) }}>
                      {formatNumber(c.messages_count)}
                    </Link>
                  ) : (
                    <Typography.Text type="secondary">0</Typography.Text>
                  )}
                  {c.messages_today > 0 && (
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      сегодня {formatNumber(c.messages_today)}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            {
              title: 'Сборщик',
              key: 'collector',
              width: 200,
              render: (_, c) =>
                c.collector ? (
                  <Tooltip title={c.collector.error ?? undefined}>
                    <Flex vertical gap={2} align="start" data-testid={`collector-${c.id}`}>
                      <CollectorStateTag state={c.collector.state} />
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {c.collect_mode === 'account' ? `Аккаунт: ${c.collector.account?.name ?? 'не назначен'}` : 'Веб-просмотр'}
                      </Typography.Text>
                      {c.collector.collected_at && (
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          прочитан {formatDateTime(c.collector.collected_at)}
                        </Typography.Text>
                      )}
                    </Flex>
                  </Tooltip>
                ) : (
                  <Typography.Text type="secondary">Ещё не читался</Typography.Text>
                ),
            },
            {
              title: 'Последнее сообщение',
              key: 'last_message_at',
              dataIndex: 'last_message_at',
              width: 190,
              sortKey: 'last_message_at',
              render: (d: string | null) => (d ? formatDateTime(d) : <Typography.Text type="secondary">Не было</Typography.Text>),
            },
            {
              title: 'Сбор',
              filter: {
                kind: 'select',
                key: 'active',
                placeholder: 'Сбор сообщений',
                options: [
                  { value: 'true', label: 'Включён' },
                  { value: 'false', label: 'Выключен' },
                ],
                width: 200,
              },
              key: 'is_active',
              width: 90,
              render: (_, c) =>
                canManage ? (
                  <Switch
                    size="small"
                    checked={c.is_active}
                    loading={save.isPending && save.variables?.id === c.id}
                    onChange={(v) =>
                      void save.mutateAsync({ id: c.id, body: { is_active: v }, toast: true }).catch(() => undefined)
                    }
                    aria-label={`Сбор сообщений канала ${c.username}`}
                  />
                ) : c.is_active ? (
                  <Tag color="green">Включён</Tag>
                ) : (
                  <Tag>Выключен</Tag>
                ),
            },
            ...(canManage
              ? [
                  rowActionsColumn<TelegramChannel>((c) => ({
                    name: c.username,
                    onEdit: () => setEditing(c),
                    onDelete: () => remove.mutateAsync(c.id),
                    deleteText: 'Собранные сообщения канала тоже будут удалены.',
                  })),
                ]
              : []),
          ]}
        />
      </Card>
      <ChannelModal
        channel={editing === 'new' ? null : editing}
        open={editing !== null}
        defaultCompanyId={companyId}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
