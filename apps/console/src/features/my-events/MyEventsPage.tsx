/*
 * «Мои события»: events assigned to me in every module I may read (GET /events/assigned), open ones
 * first by default; each row opens the event in its module.
 */
import type { MyEventItem } from '@forpost/contract/assignment';
import { MODULE_LIST, MODULES } from '@forpost/contract/modules';
import { Card, Flex, Segmented, Select, Typography } from 'antd';
import { ColorTag } from '../../components/ColorTag';
import { ListTable } from '../../components/list/ListTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { EMPTY_VALUE, formatDateTime } from '../../lib/format';
import { useMyEvents } from '../events/assign/api';
import { EventTitleLink } from '../events/components/EventTitleLink';
import type { MyEventsSearch } from './search';

const SORT_OF_COLUMN: Record<string, [string, string]> = {
  created_at: ['created_at', '-created_at'],
  priority: ['priority', '-priority'],
  status: ['status', '-status'],
};

export function MyEventsPage({
  search,
  onSearch,
}: {
  search: MyEventsSearch;
  onSearch: (p: SearchPatch<MyEventsSearch>) => void;
}) {
  const open = search.state !== 'all';
  const sort = search.sort ?? '-created_at';
  const list = useMyEvents({
    ...pageParams(search),
    sort,
    ...(open ? { open: true } : {}),
    ...(search.module ? { module: search.module } : {}),
  });
  const order = (key: string) => {
    const [asc, desc] = SORT_OF_COLUMN[key] ?? [];
    return sort === asc ? 'ascend' : sort === desc ? 'descend' : null;
  };

  return (
    <>
      <PageHeading title="Мои события" subtitle="События всех модулей, где вы — исполнитель" />
      <Card>
        <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
          <Segmented
            value={open ? 'open' : 'all'}
            options={[
              { value: 'open', label: 'В работе' },
              { value: 'all', label: 'Все' },
            ]}
            onChange={(v) => onSearch({ state: v === 'all' ? 'all' : undefined, page: undefined })}
            data-testid="my-events-state"
          />
          <Select
            allowClear
            placeholder="Все модули"
            value={search.module}
            options={MODULE_LIST.map((m) => ({ value: m.code, label: m.name }))}
            onChange={(v) => onSearch({ module: v ?? undefined, page: undefined })}
            style={{ width: 240 }}
            aria-label="Модуль"
            data-testid="my-events-module"
          />
        </Flex>
        <ListTable<MyEventItem>
          query={list}
          paging={{ search, onSearch }}
          data-testid="my-events-table"
          scroll={{ x: 900 }}
          onChange={(_p, _f, sorter) => {
            const s = Array.isArray(sorter) ? sorter[0] : sorter;
            const pair = s?.columnKey ? SORT_OF_COLUMN[String(s.columnKey)] : undefined;
            const next = pair && s?.order ? (s.order === 'ascend' ? pair[0] : pair[1]) : undefined;
            onSearch({ sort: next === '-created_at' ? undefined : (next as MyEventsSearch['sort']), page: undefined });
          }}
          locale={{
            emptyText: (
              <EmptyState
                text={
                  <Flex vertical gap={4}>
                    <span>{open ? 'Событий в работе нет' : 'Вам пока ничего не назначено'}</span>
                    <Typography.Text type="secondary">
                      Исполнителя назначают в карточке события или из списка («Назначить»)
                    </Typography.Text>
                  </Flex>
                }
              />
            ),
          }}
          columns={[
            {
              title: 'Событие',
              key: 'title',
              render: (_, e) => (
                <EventTitleLink
                  module={e.module}
                  id={e.id}
                  title={e.title}
                  testId="my-event-link"
                  meta={`№${e.id} · ${e.company_name}`}
                />
              ),
            },
            {
              title: 'Модуль',
              key: 'module',
              width: 180,
              render: (_, e) => MODULES[e.module as keyof typeof MODULES]?.name ?? e.module,
            },
            {
              title: 'Статус',
              key: 'status',
              width: 160,
              sorter: true,
              sortOrder: order('status'),
              render: (_, e) => (
                <ColorTag color={e.status_color} style={{ marginInlineEnd: 0 }}>
                  {e.status_name}
                </ColorTag>
              ),
            },
            {
              title: 'Приоритет',
              key: 'priority',
              width: 130,
              sorter: true,
              sortOrder: order('priority'),
              render: (_, e) =>
                e.priority_name ? (
                  <ColorTag color={e.priority_color ?? undefined} style={{ marginInlineEnd: 0 }}>
                    {e.priority_name}
                  </ColorTag>
                ) : (
                  EMPTY_VALUE
                ),
            },
            {
              title: 'Создано',
              key: 'created_at',
              width: 150,
              sorter: true,
              sortOrder: order('created_at'),
              render: (_, e) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.created_at)}</span>,
            },
          ]}
        />
      </Card>
    </>
  );
}
