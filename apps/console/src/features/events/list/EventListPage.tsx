/* `/{section}`: the event list of one module, entirely driven by its registry descriptor. */

import { DownOutlined, ExportOutlined, ImportOutlined, ReloadOutlined } from '@ant-design/icons';
import { getModule } from '@forpost/contract/modules';
import { Link } from '@tanstack/react-router';
import type { TablePaginationConfig } from 'antd';
import { Button, Card, Dropdown, Empty, Flex, Grid, Result, Skeleton, Space, Table, Typography } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useEffect, useMemo, useState } from 'react';
import { useScrollRegion } from '../../../components/list/useScrollRegion';
import { formatNumber } from '../../../lib/format';
import { errorMessage } from '../../../lib/http';
import { useCan, useMe } from '../../auth/useMe';
import { useCompanyFilter } from '../../company/useCompanyId';
import { ExportDialog } from '../../exports/ExportDialog';
import { HEADER_HEIGHT } from '../../shell/metrics';
import type { EventSection } from '../../shell/sections';
import { usePageTitle } from '../../shell/usePageTitle';
import { ColumnChooser } from '../../views/ColumnChooser';
import { ViewSelector } from '../../views/ViewSelector';
import { useEventList, useEventRefs } from '../api/queries';
import { EventsBreadcrumb } from '../components/EventsBreadcrumb';
import { useListKeys } from '../keyboard/useListKeys';
import {
  DEFAULT_SORT,
  type EventSearch,
  hasActiveFilters,
  joinList,
  PAGE_SIZES,
  rememberListSearch,
  resetFilters,
  splitList,
  toApiParams,
} from '../model/search';
import type { EventItem } from '../model/types';
import { BulkBar, type BulkRun } from './BulkBar';
import { BulkProgress } from './BulkProgress';
import { columnsWidth, eventColumns, pinnedWidth, SELECTION_WIDTH } from './columns';
import { FilterBar, type SearchPatch } from './FilterBar';
import { StatusStrip } from './StatusStrip';
import { useListLayout } from './useListLayout';

/** Room the scrolling columns keep at least, beside the pinned ones; less, and nothing is pinned. */
const PINNED_SLACK = 60;

export interface EventListPageProps {
  section: EventSection;
  search: EventSearch;
  /** Replaces the URL search (`replace` for typing, push otherwise). */
  onSearch: (next: EventSearch) => void;
}

export function EventListPage({ section, search, onSearch }: EventListPageProps) {
  const m = getModule(section.module);
  usePageTitle(section.label);
  const me = useMe();
  const companyId = useCompanyFilter();
  const refs = useEventRefs(m);
  const canWrite = useCan('events.write');
  const canDelete = useCan('events.delete');
  const canImport = useCan('events.import');
  const canExport = useCan('events.export');
  const [exporting, setExporting] = useState<false | 'xlsx' | 'stix'>(false);

  useEffect(() => {
    rememberListSearch(section.section, search);
  }, [section.section, search]);

  const params = useMemo(() => toApiParams(m, search, refs, companyId), [m, search, refs, companyId]);
  const list = useEventList(m.code, params, refs.ready);

  const [selected, setSelected] = useState<number[]>([]);
  /** «Выбрать все N по фильтру»: the next action goes to every event the filter selects. */
  const [allMatching, setAllMatching] = useState(false);
  const [bulkRun, setBulkRun] = useState<BulkRun | null>(null);
  const clearSelection = () => {
    setSelected([]);
    setAllMatching(false);
  };
  // A different page of results or another filter clears the selection.
  const queryHash = JSON.stringify(params);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the query changes
  useEffect(clearSelection, [queryHash]);
  // The list's filters as a bulk operation takes them: the query without paging, sort and counts.
  const { page: _p, page_size: _s, sort: _o, status_counts: _c, ...filters } = params;

  const patch = (p: SearchPatch, keepPage = false) => {
    const next: EventSearch = { ...search, ...p };
    if (!keepPage) delete next.page;
    for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === '') delete next[k];
    onSearch(next);
  };
  const filtered = hasActiveFilters(m, search);
  const reset = () => onSearch(resetFilters(m, search));

  const showCompany = companyId === undefined && (me.role !== 'COMPANY_USER' || me.companies.length > 1);
  // The user's columns; the title and the triage columns are pinned when the table is wide enough for them.
  const layout = useListLayout(m);
  const scrollRegion = useScrollRegion(`Таблица событий: ${m.name}`);
  // Phones: a thinner card edge leaves the table room for the title and the status.
  const narrow = Grid.useBreakpoint().sm === false;
  const columns = useMemo(() => {
    const pinned = eventColumns(m, refs, search, section.section, showCompany, {
      keys: layout.keys,
      width: layout.width,
      pinned: true,
    });
    const fits = layout.width === undefined || layout.width >= pinnedWidth(pinned) + SELECTION_WIDTH + PINNED_SLACK;
    return fits
      ? pinned
      : eventColumns(m, refs, search, section.section, showCompany, { keys: layout.keys, width: layout.width, pinned: false });
  }, [m, refs, search, section.section, showCompany, layout.keys, layout.width]);

  const onTableChange = (
    pagination: TablePaginationConfig,
    _f: unknown,
    sorter: SorterResult<EventItem> | SorterResult<EventItem>[],
  ) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const sort = s?.order && s.columnKey ? `${s.order === 'descend' ? '-' : ''}${String(s.columnKey)}` : undefined;
    const nextSort = sort && sort !== DEFAULT_SORT ? sort : undefined;
    const pageSize = pagination.pageSize && pagination.pageSize !== 20 ? pagination.pageSize : undefined;
    const sortChanged = nextSort !== search.sort;
    const sizeChanged = pageSize !== search.page_size;
    patch(
      {
        sort: nextSort,
        page_size: pageSize,
        page: sortChanged || sizeChanged || !pagination.current || pagination.current === 1 ? undefined : pagination.current,
      },
      true,
    );
  };

  const data = list.data;
  const error = refs.error ?? list.error;
  const keys = useListKeys({
    section: section.section,
    code: m.code,
    data,
    params,
    refs,
    canWrite,
    onToggle:
      canWrite || canDelete
        ? (id) => {
            setAllMatching(false);
            setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
          }
        : undefined,
  });
  const firstLoad = !data && !error;

  return (
    <Flex vertical gap={16}>
      <EventsBreadcrumb section={section} />
      <Flex justify="space-between" align="flex-start" gap={16} wrap>
        <div>
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="page-title">
            {section.label}
          </Typography.Title>
          <Typography.Text type="secondary">{m.description}</Typography.Text>
        </div>
        <Flex gap={8} wrap>
          <ViewSelector m={m} search={search} columns={layout.keys} onSearch={onSearch} />
          <ColumnChooser m={m} visible={layout.keys} />
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void list.refetch()}
            loading={list.isFetching && !firstLoad}
            aria-label="Обновить"
          >
            Обновить
          </Button>
          {canImport && (
            <Link to="/$section/import" params={{ section: section.section }}>
              <Button icon={<ImportOutlined />}>Импорт</Button>
            </Link>
          )}
          {canExport && (
            <Space.Compact>
              <Button icon={<ExportOutlined />} onClick={() => setExporting('xlsx')} data-testid="export-open">
                Экспорт
              </Button>
              <Dropdown
                menu={{
                  items: [{ key: 'stix', label: 'Выгрузить в STIX 2.1', icon: <ExportOutlined /> }],
                  onClick: () => setExporting('stix'),
                }}
              >
                <Button icon={<DownOutlined />} aria-label="Другие форматы экспорта" data-testid="export-more" />
              </Dropdown>
            </Space.Compact>
          )}
        </Flex>
      </Flex>

      <Card
        variant="borderless"
        styles={{ body: { display: 'flex', flexDirection: 'column', gap: 16, ...(narrow ? { padding: 12 } : {}) } }}
      >
        <FilterBar m={m} search={search} refs={refs} onChange={(p) => patch(p)} onReset={reset} canReset={filtered} />
        {data && (
          <StatusStrip
            statuses={refs.statuses}
            counts={data.status_counts}
            capped={data.status_counts_capped ?? false}
            selected={splitList(search.status)}
            onSelect={(code) => patch({ status: joinList(code ? [code] : []) })}
          />
        )}
        {selected.length > 0 && (canWrite || canDelete) && (
          <BulkBar
            m={m}
            ids={selected}
            refs={refs}
            canWrite={canWrite}
            canDelete={canDelete}
            everyRowOfPage={selected.length === (data?.items.length ?? 0)}
            total={data?.total ?? 0}
            totalCapped={data?.total_capped ?? false}
            filters={filters}
            allMatching={allMatching}
            onAllMatching={setAllMatching}
            onDone={clearSelection}
            onJob={setBulkRun}
            onClear={clearSelection}
          />
        )}
        {bulkRun?.code === m.code && <BulkProgress run={bulkRun} onEnd={() => setBulkRun(null)} />}

        {error && !data ? (
          <Result
            status="error"
            title="Не удалось загрузить события"
            subTitle={errorMessage(error)}
            extra={
              <Flex gap={8} justify="center" wrap>
                <Button
                  type="primary"
                  icon={<ReloadOutlined />}
                  onClick={() => (refs.error ? refs.refetch() : void list.refetch())}
                >
                  Повторить
                </Button>
                {/* A refused filter or sort (400) cannot succeed on retry: offer a clean list. */}
                {(filtered || search.sort !== undefined || search.page !== undefined) && (
                  <Button onClick={() => onSearch({})}>Сбросить фильтры и сортировку</Button>
                )}
              </Flex>
            }
            data-testid="list-error"
          />
        ) : firstLoad ? (
          <Skeleton active paragraph={{ rows: 8 }} data-testid="list-skeleton" />
        ) : (
          // `isolation`: the table's own layers (pinned cells, the sticky header) stay inside it, under the app bar.
          <div ref={layout.ref} style={{ minWidth: 0, isolation: 'isolate' }}>
            <div ref={scrollRegion}>
              <Table<EventItem>
                data-testid="events-table"
                rowKey="id"
                size="small"
                columns={columns}
                dataSource={data?.items ?? []}
                loading={list.isFetching && { delay: 200 }}
                onChange={onTableChange}
                onRow={keys.onRow}
                tableLayout="fixed"
                scroll={{ x: columnsWidth(columns) + SELECTION_WIDTH }}
                // The column heads stay on screen while the page scrolls, just under the app bar.
                sticky={{ offsetHeader: HEADER_HEIGHT }}
                rowSelection={
                  canWrite || canDelete
                    ? {
                        selectedRowKeys: selected,
                        onChange: (keys) => {
                          setSelected(keys.map(Number));
                          setAllMatching(false);
                        },
                        preserveSelectedRowKeys: false,
                        fixed: true,
                        // Russian names for screen readers (antd's own are «Select all», «Select row N»).
                        getTitleCheckboxProps: () => ({ 'aria-label': 'Выбрать все' }),
                        getCheckboxProps: (r) => ({ 'aria-label': `Выбрать строку ${r.id}` }),
                      }
                    : undefined
                }
                locale={{
                  emptyText: (
                    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Событий не найдено" data-testid="list-empty">
                      {filtered && <Button onClick={reset}>Сбросить фильтры</Button>}
                    </Empty>
                  ),
                }}
                pagination={{
                  current: search.page ?? 1,
                  pageSize: search.page_size ?? 20,
                  total: data?.total ?? 0,
                  showSizeChanger: true,
                  pageSizeOptions: PAGE_SIZES.map(String),
                  showTotal: (total) => `Всего: ${data?.total_capped ? 'более ' : ''}${formatNumber(total)}`,
                  hideOnSinglePage: false,
                }}
              />
            </div>
          </div>
        )}
      </Card>
      {keys.help}
      {canExport && (
        <ExportDialog
          open={exporting !== false}
          initialFormat={exporting || undefined}
          onClose={() => setExporting(false)}
          module={m}
          filters={params}
          total={data?.total}
          totalCapped={data?.total_capped}
        />
      )}
    </Flex>
  );
}
