import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { formatNumber } from '@forpost/contract/format';
import { Link } from '@tanstack/react-router';
import { Button, Card, Flex, Typography } from 'antd';
import { useState } from 'react';
import { AdminTable } from '../../../components/list/AdminTable';
import type { SearchPatch } from '../../../components/list/listSearch';
import { pageParams } from '../../../components/list/pagination';
import { rowActionsColumn } from '../../../components/list/rowActionsColumn';
import { PageHeading } from '../../../components/page/PageHeading';
import { EmptyState } from '../../../components/page/QueryState';
import { formatDate } from '../../../lib/format';
import { useCan } from '../../auth/useMe';
import { useDeleteLeakMutation } from '../api/mutations';
import { type Leak, useLeaksQuery, useLeakTypesQuery } from '../api/queries';
import type { LeaksSearch } from '../search';
import { LeakModal } from './LeakModal';

/** /settings/leaks: the catalogue of known leaks that «Утечки» and «Аккаунты» events point to. */
export function LeaksPage({ search, onSearch }: { search: LeaksSearch; onSearch: (p: SearchPatch<LeaksSearch>) => void }) {
  const canManage = useCan('settings.manage');
  const list = useLeaksQuery({ q: search.q, leak_type_id: search.type, ...pageParams(search) });
  const types = useLeakTypesQuery();
  const remove = useDeleteLeakMutation();
  const [editing, setEditing] = useState<Leak | 'new' | null>(null);
  const typeName = (id: number | null) => (id === null ? null : (types.data?.items.find((t) => t.id === id)?.name ?? `#${id}`));

  return (
    <>
      <PageHeading
        title="Утечки (справочник)"
        subtitle="Известные утечки баз данных: на них ссылаются события модулей «Утечки» и «Аккаунты»"
        extra={
          canManage && (
            <>
              <Link to="/settings/leaks/import">
                <Button icon={<ImportOutlined />}>Импорт</Button>
              </Link>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
                Добавить утечку
              </Button>
            </>
          )
        }
      />
      <Card>
        <AdminTable<Leak, LeaksSearch>
          query={list}
          search={search}
          onSearch={onSearch}
          paged
          data-testid="leaks-table"
          scroll={{ x: 1000 }}
          empty={(filtered) => <EmptyState text={filtered ? 'Ничего не нашлось' : 'Утечек в справочнике пока нет'} />}
          columns={[
            {
              title: 'Название',
              filter: { kind: 'text', key: 'q', placeholder: 'Название утечки' },
              dataIndex: 'name',
              render: (name: string, l) => (
                <Flex vertical style={{ minWidth: 0 }}>
                  <Typography.Text strong>{name}</Typography.Text>
                  {l.description && (
                    <Typography.Text
                      type="secondary"
                      ellipsis={{ tooltip: l.description }}
                      style={{ fontSize: 12, maxWidth: 460 }}
                    >
                      {l.description}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            {
              title: 'Тип',
              filter: {
                kind: 'select',
                key: 'type',
                placeholder: 'Тип утечки',
                options: (types.data?.items ?? []).map((t) => ({ value: t.id, label: t.name })),
                width: 240,
                loading: types.isPending,
                testId: 'filter-leak-type',
              },
              dataIndex: 'leak_type_id',
              width: 200,
              render: (id: number | null) => typeName(id) ?? <Typography.Text type="secondary">—</Typography.Text>,
            },
            {
              title: 'Дата утечки',
              dataIndex: 'leaked_at',
              width: 130,
              render: (d: string | null) => (d ? formatDate(d) : <Typography.Text type="secondary">—</Typography.Text>),
            },
            {
              title: 'Записей',
              dataIndex: 'records_count',
              width: 130,
              align: 'right',
              render: (n: number | null) =>
                n === null ? <Typography.Text type="secondary">—</Typography.Text> : formatNumber(n),
            },
            {
              title: 'Источник',
              dataIndex: 'source_url',
              width: 220,
              render: (u: string | null) =>
                u ? (
                  <Typography.Link href={u} target="_blank" rel="noopener noreferrer" ellipsis style={{ maxWidth: 200 }}>
                    {u.replace(/^https?:\/\//, '')}
                  </Typography.Link>
                ) : (
                  <Typography.Text type="secondary">—</Typography.Text>
                ),
            },
            ...(canManage
              ? [
                  rowActionsColumn<Leak>((l) => ({
                    name: l.name,
                    onEdit: () => setEditing(l),
                    onDelete: () => remove.mutateAsync(l.id),
                    deleteText: 'Утечку, на которую ссылаются события, удалить нельзя.',
                  })),
                ]
              : []),
          ]}
        />
      </Card>
      <LeakModal
        leak={editing === 'new' ? null : editing}
        open={editing !== null}
        types={types.data?.items ?? []}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
