import { GlobalOutlined, PlusOutlined, ShopOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { can } from '@forpost/contract/permissions';
import { WHITELIST_TYPE_LABELS, WHITELIST_TYPES, type WhitelistType } from '@forpost/contract/whitelist';
import { Button, Card, Empty, Flex, Select, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { AdminTable } from '../../components/list/AdminTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { rowActionsColumn } from '../../components/list/rowActionsColumn';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { formatDate } from '../../lib/format';
import { useCan, usePrincipal } from '../auth/useMe';
import { useCompanyOptions } from '../companies/api/queries';
import { setCompanyId, useCompanyFilter } from '../company/useCompanyId';
import { useDeleteWhitelistItemMutation } from './api/mutations';
import { useWhitelistQuery, type WhitelistItem, type WhitelistScope } from './api/queries';
import { BulkAddModal } from './components/BulkAddModal';
import { WhitelistItemModal } from './components/WhitelistItemModal';
import { KindTag, kindOptions } from './labels';
import type { WhitelistSearch } from './search';

type Patch = SearchPatch<WhitelistSearch>;

/**
 * /settings/whitelist: «Глобальный» (staff; applies to every company) and «Компания» (the one chosen
 * in the header). Events matching an entry are marked with its kind.
 */
export function WhitelistPage({ search, onSearch }: { search: WhitelistSearch; onSearch: (p: Patch) => void }) {
  const principal = usePrincipal();
  const canGlobal = useCan('global_whitelist.read');
  const companyId = useCompanyFilter();
  const companies = useCompanyOptions();
  const tab = search.tab ?? (canGlobal ? 'global' : 'company');
  const scope: WhitelistScope | null =
    tab === 'global' ? (canGlobal ? { kind: 'global' } : null) : companyId !== undefined ? { kind: 'company', companyId } : null;
  const canManage =
    scope === null
      ? false
      : scope.kind === 'global'
        ? can(principal, 'global_whitelist.manage')
        : can(principal, 'whitelist.manage', scope.companyId);
  const companyName = companyId === undefined ? undefined : (companies.nameOf(companyId) ?? `Компания №${companyId}`);
  const scopeLabel = scope?.kind === 'global' ? 'глобальный список' : (companyName ?? '');

  const [editing, setEditing] = useState<WhitelistItem | 'new' | null>(null);
  const [bulkOpen, setBulkOpen] = useState(false);

  const items = [
    ...(canGlobal
      ? [
          {
            key: 'global',
            label: (
              <span data-testid="tab-global">
                <GlobalOutlined /> Глобальный
              </span>
            ),
          },
        ]
      : []),
    {
      key: 'company',
      label: (
        <span data-testid="tab-company">
          <ShopOutlined /> Компания{companyName ? `: ${companyName}` : ''}
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeading
        title="Белый список"
        subtitle="События, совпавшие с записью, помечаются её видом: клиент, партнёр или не определено"
        extra={
          canManage && (
            <>
              <Button icon={<UnorderedListOutlined />} onClick={() => setBulkOpen(true)} data-testid="wl-bulk">
                Массовое добавление
              </Button>
              <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="wl-add">
                Добавить запись
              </Button>
            </>
          )
        }
      />
      <Card styles={{ body: { paddingTop: 4 } }}>
        <Tabs
          activeKey={tab}
          items={items}
          onChange={(k) => onSearch({ tab: k as 'global' | 'company', page: undefined })}
          style={{ marginBottom: 8 }}
        />
        {tab === 'global' && (
          <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
            Глобальные записи действуют для всех компаний: например, домены и адреса самой службы мониторинга и общих партнёров.
          </Typography.Paragraph>
        )}
        {scope === null ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description="Выберите компанию в шапке страницы — у каждой компании свой белый список"
            style={{ paddingBlock: 32 }}
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder="Компания"
              style={{ width: 320 }}
              options={companies.options}
              loading={companies.isPending}
              onChange={(id: number) => setCompanyId(id)}
              aria-label="Компания"
            />
          </Empty>
        ) : (
          <WhitelistTable
            scope={scope}
            search={search}
            onSearch={onSearch}
            canManage={canManage}
            onEdit={(it) => setEditing(it)}
            onAdd={() => setEditing('new')}
          />
        )}
      </Card>
      {scope && (
        <>
          <WhitelistItemModal
            scope={scope}
            scopeLabel={scopeLabel}
            item={editing === 'new' ? null : editing}
            open={editing !== null}
            onClose={() => setEditing(null)}
          />
          <BulkAddModal scope={scope} scopeLabel={scopeLabel} open={bulkOpen} onClose={() => setBulkOpen(false)} />
        </>
      )}
    </>
  );
}

function WhitelistTable({
  scope,
  search,
  onSearch,
  canManage,
  onEdit,
  onAdd,
}: {
  scope: WhitelistScope;
  search: WhitelistSearch;
  onSearch: (p: Patch) => void;
  canManage: boolean;
  onEdit: (it: WhitelistItem) => void;
  onAdd: () => void;
}) {
  const list = useWhitelistQuery(scope, {
    q: search.q,
    type: search.type,
    kind: search.kind,
    expired: search.expired,
    sort: search.sort,
    ...pageParams(search),
  });
  const remove = useDeleteWhitelistItemMutation(scope);

  return (
    <AdminTable<WhitelistItem, WhitelistSearch>
      query={list}
      search={search}
      onSearch={onSearch}
      paged
      defaultSort="-created_at"
      data-testid="whitelist-table"
      scroll={{ x: 1000 }}
      empty={(filtered) => (
        <EmptyState
          text={filtered ? 'Ничего не нашлось' : 'Записей пока нет'}
          action={
            !filtered && canManage ? (
              <Button type="primary" onClick={onAdd}>
                Добавить запись
              </Button>
            ) : undefined
          }
        />
      )}
      columns={[
        {
          title: 'Тип',
          filter: {
            kind: 'select',
            key: 'type',
            placeholder: 'Тип',
            options: WHITELIST_TYPES.map((t) => ({ value: t, label: WHITELIST_TYPE_LABELS[t] })),
            testId: 'filter-type',
          },
          key: 'type',
          dataIndex: 'type',
          width: 130,
          sortKey: 'type',
          render: (t: WhitelistType) => WHITELIST_TYPE_LABELS[t],
        },
        {
          title: 'Значение',
          filter: { kind: 'text', key: 'q', placeholder: 'Значение или комментарий', width: 300, order: -1 },
          key: 'value',
          dataIndex: 'value',
          minWidth: 260,
          sortKey: 'value',
          render: (v: string, it) => (
            <Typography.Text
              copyable={{ text: v, tooltips: ['Скопировать', 'Скопировано'] }}
              style={{
                fontFamily: it.type === 'name' ? undefined : 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
              }}
            >
              {v}
            </Typography.Text>
          ),
        },
        {
          title: 'Вид',
          filter: { kind: 'select', key: 'kind', placeholder: 'Вид', options: kindOptions, testId: 'filter-kind' },
          key: 'kind',
          dataIndex: 'kind',
          width: 110,
          render: (k: WhitelistItem['kind']) => <KindTag kind={k} />,
        },
        {
          title: 'Комментарий',
          key: 'comment',
          dataIndex: 'comment',
          width: 180,
          render: (c: string | null) =>
            c ? (
              <Typography.Text ellipsis={{ tooltip: c }} style={{ maxWidth: 160 }}>
                {c}
              </Typography.Text>
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            ),
        },
        {
          title: 'Действует до',
          filter: {
            kind: 'select',
            key: 'expired',
            placeholder: 'Срок действия',
            options: [
              { value: 'false', label: 'Действующие' },
              { value: 'true', label: 'Истёкшие' },
            ],
          },
          key: 'expires_at',
          dataIndex: 'expires_at',
          width: 160,
          sortKey: 'expires_at',
          render: (d: string | null, it) =>
            d ? (
              <Flex gap={6} align="center">
                <span>{formatDate(d)}</span>
                {it.is_expired && <Tag color="red">истёк</Tag>}
              </Flex>
            ) : (
              <Typography.Text type="secondary">Бессрочно</Typography.Text>
            ),
        },
        {
          title: 'Добавлена',
          key: 'created_at',
          dataIndex: 'created_at',
          width: 140,
          sortKey: 'created_at',
          render: (d: string, it) => (
            <Flex vertical>
              <span>{formatDate(d)}</span>
              {it.created_by && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {it.created_by.name}
                </Typography.Text>
              )}
            </Flex>
          ),
        },
        ...(canManage
          ? [
              rowActionsColumn<WhitelistItem>(
                (it) => ({
                  name: it.value,
                  onEdit: () => onEdit(it),
                  onDelete: () => remove.mutateAsync(it.id),
                  deleteText: 'Отметки совпавших событий будут пересчитаны.',
                }),
                90,
              ),
            ]
          : []),
      ]}
    />
  );
}
