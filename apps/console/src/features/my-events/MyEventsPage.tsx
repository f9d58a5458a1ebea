/*
 * «Мои события»: events assigned to me in every module I may read (GET /events/assigned), open ones
 * by default, the nearest deadline first (a personal queue); each row opens the event in its module.
 * The same grid as a module's list: the event's name pinned on the left, the SLA, status, priority
 * and assignee on the right, the header sticky under the app bar, and the bulk bar for the selected
 * rows of one module.
 */

import { MY_EVENTS_DEFAULT_SORT, type MyEventItem } from '@forpost/contract/assignment';
import { getModule, MODULE_LIST, MODULES, type ModuleCode } from '@forpost/contract/modules';
import { DEFAULT_PRIORITIES, DEFAULT_STATUSES } from '@forpost/contract/modules/common';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Flex, Segmented, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ColorTag } from '../../components/ColorTag';
import { ListTable } from '../../components/list/ListTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { useScrollRegion } from '../../components/list/useScrollRegion';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { EMPTY_VALUE, formatDateTime } from '../../lib/format';
import { useCan } from '../auth/useMe';
import { useEventRefs } from '../events/api/queries';
import { assignKeys, useMyEvents } from '../events/assign/api';
import { EventTitleLink } from '../events/components/EventTitleLink';
import { SlaValue } from '../events/components/SlaValue';
import { BulkBar } from '../events/list/BulkBar';
import { SELECTION_WIDTH, tagTextWidth } from '../events/list/columns';
import { HEADER_HEIGHT } from '../shell/metrics';
import type { MyEventsSearch } from './search';

const SORT_OF_COLUMN: Record<string, [string, string]> = {
  sla: ['sla_due_at', '-sla_due_at'],
  created_at: ['created_at', '-created_at'],
  priority: ['priority', '-priority'],
  status: ['status', '-status'],
};

/** A tag in a small table cell: its padding and border, the cell's padding, a little slack. */
const TAG_CHROME = 7 * 2 + 2 + 8 * 2 + 6;
const tagColumn = (names: string[], min: number, max: number) =>
  Math.min(max, Math.max(min, ...names.map((n) => tagTextWidth(n) + TAG_CHROME)));

/** The bulk bar of the selected rows, all of one module (its refs: statuses, priorities, tags). */
function ModuleBulkBar({ code, ids, onDone }: { code: ModuleCode; ids: number[]; onDone: () => void }) {
  const m = getModule(code);
  const refs = useEventRefs(m);
  const canWrite = useCan('events.write');
  const canDelete = useCan('events.delete');
  if (!refs.ready) return null;
  return (
    <BulkBar
      m={m}
      ids={ids}
      refs={refs}
      canWrite={canWrite}
      canDelete={canDelete}
      everyRowOfPage={false}
      total={ids.length}
      totalCapped={false}
      filters={{}}
      allMatching={false}
      onAllMatching={() => undefined}
      onDone={onDone}
      onJob={() => undefined}
      onClear={onDone}
    />
  );
}

export function MyEventsPage({
  search,
  onSearch,
}: {
  search: MyEventsSearch;
  onSearch: (p: SearchPatch<MyEventsSearch>) => void;
}) {
  const open = search.state !== 'all';
  const sort = search.sort ?? MY_EVENTS_DEFAULT_SORT;
  const params = {
    ...pageParams(search),
    sort,
    ...(open ? { open: true } : {}),
    ...(search.module ? { module: search.module } : {}),
  };
  const list = useMyEvents(params);
  const scrollRegion = useScrollRegion('Таблица: мои события');
  const qc = useQueryClient();
  const canWrite = useCan('events.write');
  const canDelete = useCan('events.delete');
  const [selected, setSelected] = useState<number[]>([]);
  const queryHash = JSON.stringify(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: another page or filter clears the selection
  useEffect(() => setSelected([]), [queryHash]);
  const items = list.data?.items ?? [];
  const modules = [...new Set(items.filter((e) => selected.includes(e.id)).map((e) => e.module))];
  const done = () => {
    setSelected([]);
    void qc.invalidateQueries({ queryKey: assignKeys.mine({}).slice(0, 2) });
  };
  const order = (key: string) => {
    const [asc, desc] = SORT_OF_COLUMN[key] ?? [];
    return sort === asc ? 'ascend' : sort === desc ? 'descend' : null;
  };
  const statusWidth = tagColumn([...DEFAULT_STATUSES.map((x) => x.name), ...items.map((e) => e.status_name)], 110, 220);
  const priorityWidth = tagColumn(
    [...DEFAULT_PRIORITIES.map((x) => x.name), ...items.map((e) => e.priority_name ?? '')],
    122,
    180,
  );
  const slaWidth = Math.max(80, ...['−10 д 23 ч', '−23 ч 59 мин'].map((t) => tagTextWidth(t) + TAG_CHROME));
  const widths = {
    title: 260,
    module: 150,
    created: 150,
    sla: slaWidth,
    status: statusWidth,
    priority: priorityWidth,
    assignee: 150,
  };

  return (
    <>
      <PageHeading title="Мои события" subtitle="События всех модулей, где вы — исполнитель" />
      <Card styles={{ body: { display: 'flex', flexDirection: 'column', gap: 16 } }}>
        <Flex gap={12} wrap align="center">
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
        {selected.length > 0 &&
          (modules.length === 1 && modules[0] ? (
            <ModuleBulkBar code={modules[0] as ModuleCode} ids={selected} onDone={done} />
          ) : (
            <Alert
              type="info"
              showIcon
              title="Выбраны события разных модулей: действия над ними выполняются по одному модулю — выберите модуль в фильтре"
              data-testid="my-events-mixed"
            />
          ))}
        {/* `isolation`: the table's own layers (pinned cells, the sticky header) stay under the app bar. */}
        <div ref={scrollRegion} style={{ minWidth: 0, isolation: 'isolate' }}>
          <ListTable<MyEventItem>
            query={list}
            paging={{ search, onSearch }}
            data-testid="my-events-table"
            size="small"
            tableLayout="fixed"
            scroll={{ x: Object.values(widths).reduce((a, b) => a + b, 0) + SELECTION_WIDTH }}
            sticky={{ offsetHeader: HEADER_HEIGHT }}
            rowSelection={
              canWrite || canDelete
                ? {
                    selectedRowKeys: selected,
                    onChange: (keys) => setSelected(keys.map(Number)),
                    preserveSelectedRowKeys: false,
                    fixed: true,
                    getTitleCheckboxProps: () => ({ 'aria-label': 'Выбрать все' }),
                    getCheckboxProps: (r) => ({ 'aria-label': `Выбрать строку ${r.id}` }),
                  }
                : undefined
            }
            onChange={(_p, _f, sorter) => {
              const s = Array.isArray(sorter) ? sorter[0] : sorter;
              const pair = s?.columnKey ? SORT_OF_COLUMN[String(s.columnKey)] : undefined;
              const next = pair && s?.order ? (s.order === 'ascend' ? pair[0] : pair[1]) : undefined;
              onSearch({
                sort: next === MY_EVENTS_DEFAULT_SORT ? undefined : (next as MyEventsSearch['sort']),
                page: undefined,
              });
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
                width: widths.title,
                fixed: 'left',
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
                width: widths.module,
                ellipsis: true,
                render: (_, e) => MODULES[e.module as keyof typeof MODULES]?.name ?? e.module,
              },
              {
                title: 'Создано',
                key: 'created_at',
                width: widths.created,
                sorter: true,
                sortOrder: order('created_at'),
                sortDirections: ['descend', 'ascend'],
                showSorterTooltip: false,
                render: (_, e) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.created_at)}</span>,
              },
              {
                title: 'SLA',
                key: 'sla',
                width: widths.sla,
                fixed: 'right',
                sorter: true,
                sortOrder: order('sla'),
                sortDirections: ['ascend', 'descend'],
                showSorterTooltip: false,
                render: (_, e) => <SlaValue sla={e.sla} compact />,
              },
              {
                title: 'Статус',
                key: 'status',
                width: widths.status,
                fixed: 'right',
                sorter: true,
                sortOrder: order('status'),
                showSorterTooltip: false,
                render: (_, e) => (
                  <ColorTag color={e.status_color} style={{ marginInlineEnd: 0 }}>
                    {e.status_name}
                  </ColorTag>
                ),
              },
              {
                title: 'Приоритет',
                key: 'priority',
                width: widths.priority,
                fixed: 'right',
                sorter: true,
                sortOrder: order('priority'),
                showSorterTooltip: false,
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
                title: 'Исполнитель',
                key: 'assignee',
                width: widths.assignee,
                fixed: 'right',
                ellipsis: true,
                render: (_, e) => <span title={e.assignee_name ?? undefined}>{e.assignee_name ?? EMPTY_VALUE}</span>,
              },
            ]}
          />
        </div>
      </Card>
    </>
  );
}
