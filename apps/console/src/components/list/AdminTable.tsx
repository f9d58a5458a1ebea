import { AutoComplete, DatePicker, Input, InputNumber, Table, type TableColumnType, type TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { Loaded } from '../page/QueryState';
import { ActiveFilter } from './ActiveFilter';
import { FilterBar } from './FilterBar';
import { FilterSelect } from './FilterSelect';
import { type SearchPatch, withPageReset } from './listSearch';
import { type ListPaginationOptions, listPagination, type PageSearch } from './pagination';
import { SearchInput } from './SearchInput';

/** A URL key of the list's search (the filter's value lives there). */
type Key<S> = keyof S & string;

/**
 * The filter a column brings to the filter bar above the table (as ant-design-pro's ProColumns
 * `valueType` + search form): its value is the URL key `key` of the page's search; a change goes back to
 * page 1. `label` is the accessible name (the placeholder by default).
 */
export type AdminFilter<S> = AdminFilterKind<S> & {
  /** Place in the filter bar, when it is not the column's (lower first; default 0, then column order). */
  order?: number;
};
type AdminFilterKind<S> =
  /**
   * The search box (SearchInput): Enter or the button applies the trimmed text. `plain`: a bare input
   * with no button, which also applies when the field is left.
   */
  | { kind: 'text'; key: Key<S>; placeholder: string; label?: string; width?: number; testId?: string; plain?: boolean }
  /** A whole number (InputNumber, at least `min`), applied as it changes. */
  | { kind: 'number'; key: Key<S>; placeholder: string; label?: string; width?: number; min?: number; testId?: string }
  /**
   * Free text with suggestions (AutoComplete): picking one, Enter or leaving the field applies the
   * trimmed text, erasing it drops the filter. `filterOptions`: typing narrows the suggestions.
   */
  | {
      kind: 'autocomplete';
      key: Key<S>;
      placeholder: string;
      label?: string;
      options: { value: string; label?: ReactNode }[];
      filterOptions?: boolean;
      width?: number;
      testId?: string;
    }
  /** A clearable select (FilterSelect). */
  | {
      kind: 'select';
      key: Key<S>;
      placeholder: string;
      options: { value: string | number; label: ReactNode }[];
      width?: number;
      searchable?: boolean;
      loading?: boolean;
      testId?: string;
    }
  /** «Статус»: active only, disabled only, or all (a boolean key). */
  | { kind: 'active'; key: Key<S>; width: number }
  /** A day range (YYYY-MM-DD in `from` and `to`); either end may stay open. */
  | { kind: 'date'; from: Key<S>; to: Key<S>; placeholder?: [string, string]; label?: string; width?: number }
  /** A widget of the page's own (`render`), over the URL keys `keys`. */
  | { kind: 'custom'; keys: readonly Key<S>[]; render: (set: (patch: SearchPatch<S>) => void) => ReactNode };

/**
 * One column of an admin list: antd's column (title, dataIndex, render, width …) plus the API sort key
 * it sorts by (the URL's `sort`: `key` or `-key`) and the filter it brings. `hideInTable`: a filter with
 * no column of its own (ProColumns' same flag).
 */
export interface AdminColumn<T, S> extends Omit<TableColumnType<T>, 'sorter' | 'sortOrder' | 'filters'> {
  sortKey?: string;
  /** A sort done in the browser on the loaded rows (lists that are not paged by the API). */
  localSort?: (a: T, b: T) => number;
  filter?: AdminFilter<S>;
  hideInTable?: boolean;
}

/** The query behind the table (TanStack Query result of a `{ items, total }` page). */
interface ListQuery<T> {
  isError: boolean;
  isFetching: boolean;
  data?: { items: T[]; total?: number };
  error: unknown;
  refetch: () => unknown;
}

/** The columns of the array (a page leaves out a column with `cond && {…}`). */
type Columns<T, S> = readonly (AdminColumn<T, S> | false | null | undefined)[];
const present = <T, S>(columns: Columns<T, S>) => columns.filter((c): c is AdminColumn<T, S> => !!c);

const keysOf = <S,>(f: AdminFilter<S>): readonly Key<S>[] =>
  f.kind === 'date' ? [f.from, f.to] : f.kind === 'custom' ? f.keys : [f.key];

/** The URL keys of the columns' filters: whether any is set, and `set` that goes back to page 1. */
export function adminFilters<T, S extends object>(
  columns: readonly (AdminColumn<T, S> | false | null | undefined)[],
  search: S,
  onSearch: (patch: SearchPatch<S>) => void,
) {
  const filters = present(columns)
    .flatMap((c) => (c.filter ? [c.filter] : []))
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  const keys = filters.flatMap(keysOf);
  const filtered = keys.some((k) => search[k] !== undefined);
  return {
    filters,
    filtered,
    set: (patch: SearchPatch<S>) => onSearch(withPageReset(patch)),
    reset: () => onSearch(Object.fromEntries([...keys, 'page'].map((k) => [k, undefined])) as SearchPatch<S>),
  };
}

/** The text being typed, kept apart from the URL's value until it is applied (and refilled from it). */
function useDraft(value: string | undefined, apply: (v: string | undefined) => void) {
  const [text, setText] = useState(value ?? '');
  useEffect(() => setText(value ?? ''), [value]);
  return {
    text,
    /** Typing stays local; erasing the text (by hand or the clear icon) drops the filter at once. */
    change: (v: string) => {
      setText(v);
      if (!v && value) apply(undefined);
    },
    commit: () => {
      const next = text.trim() || undefined;
      if (next !== value) apply(next);
    },
  };
}

function PlainTextFilter({
  value,
  apply,
  placeholder,
  label = placeholder,
  width,
  testId,
}: {
  value: string | undefined;
  apply: (v: string | undefined) => void;
  placeholder: string;
  label?: string;
  width?: number;
  testId?: string;
}) {
  const { text, change, commit } = useDraft(value, apply);
  return (
    <Input
      placeholder={placeholder}
      aria-label={label}
      allowClear
      value={text}
      onChange={(e) => change(e.target.value)}
      onPressEnter={commit}
      onBlur={commit}
      style={{ width }}
      data-testid={testId}
    />
  );
}

function AutoCompleteFilter({
  value,
  apply,
  f,
}: {
  value: string | undefined;
  apply: (v: string | undefined) => void;
  f: {
    placeholder: string;
    label?: string;
    options: { value: string; label?: ReactNode }[];
    filterOptions?: boolean;
    width?: number;
    testId?: string;
  };
}) {
  const { text, change, commit } = useDraft(value, apply);
  const needle = text.toLowerCase();
  return (
    <AutoComplete
      value={text}
      options={f.filterOptions ? f.options.filter((o) => o.value.toLowerCase().includes(needle)) : f.options}
      onChange={(v: string) => change(v ?? '')}
      onSelect={(v: string) => apply(v || undefined)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
      placeholder={f.placeholder}
      aria-label={f.label ?? f.placeholder}
      allowClear
      style={{ width: f.width }}
      data-testid={f.testId}
    />
  );
}

function FilterWidget<S>({ f, search, set }: { f: AdminFilter<S>; search: S; set: (patch: SearchPatch<S>) => void }) {
  const patch = (key: Key<S>, v: unknown) => set({ [key]: v } as SearchPatch<S>);
  switch (f.kind) {
    case 'text':
      return f.plain ? (
        <PlainTextFilter
          value={search[f.key] as string | undefined}
          apply={(v) => patch(f.key, v)}
          placeholder={f.placeholder}
          label={f.label}
          width={f.width}
          testId={f.testId}
        />
      ) : (
        <SearchInput
          value={search[f.key] as string | undefined}
          onSearch={(q) => patch(f.key, q)}
          placeholder={f.placeholder}
          label={f.label}
          width={f.width}
          testId={f.testId}
        />
      );
    case 'select':
      return (
        <FilterSelect
          label={f.placeholder}
          value={search[f.key] as string | number | undefined}
          onChange={(v) => patch(f.key, v)}
          options={f.options}
          width={f.width}
          searchable={f.searchable}
          loading={f.loading}
          testId={f.testId}
        />
      );
    case 'number':
      return (
        <InputNumber<number>
          placeholder={f.placeholder}
          aria-label={f.label ?? f.placeholder}
          min={f.min}
          precision={0}
          value={(search[f.key] as number | undefined) ?? null}
          onChange={(v) => patch(f.key, v ?? undefined)}
          style={{ width: f.width }}
          data-testid={f.testId}
        />
      );
    case 'autocomplete':
      return <AutoCompleteFilter value={search[f.key] as string | undefined} apply={(v) => patch(f.key, v)} f={f} />;
    case 'active':
      return <ActiveFilter value={search[f.key] as boolean | undefined} onChange={(v) => patch(f.key, v)} width={f.width} />;
    case 'date': {
      const from = search[f.from] as string | undefined;
      const to = search[f.to] as string | undefined;
      return (
        <DatePicker.RangePicker
          aria-label={f.label}
          placeholder={f.placeholder}
          format="DD.MM.YYYY"
          allowEmpty={[true, true]}
          style={{ width: f.width }}
          value={from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null}
          onChange={(v) =>
            set({ [f.from]: v?.[0]?.format('YYYY-MM-DD'), [f.to]: v?.[1]?.format('YYYY-MM-DD') } as SearchPatch<S>)
          }
        />
      );
    }
    case 'custom':
      return <>{f.render(set)}</>;
  }
}

/**
 * An admin list page's filter bar and table, both from one column array: each column declares its
 * title, cell, API sort key and filter (issue #29: the pages wrote their columns and filters apart).
 * The rows come from `query` (spinner while it fetches, the load error in place of the table); pages
 * and sort live in the URL's search (`paged`; `sort` with `defaultSort` left out of the URL).
 */
export function AdminTable<T extends { id: number | string }, S extends object>({
  query,
  columns,
  search,
  onSearch,
  paged,
  defaultSort,
  resettable,
  empty,
  filtersTestId,
  filterPrefix,
  filterExtra,
  filterFooter,
  loading,
  pagination,
  ...table
}: {
  query: ListQuery<T>;
  columns: Columns<T, S>;
  search: S;
  onSearch: (patch: SearchPatch<S>) => void;
  /** Pages bound to the URL's page / page_size (with the list's own options). */
  paged?: boolean | ListPaginationOptions;
  defaultSort?: string;
  /** «Сбросить фильтры» at the end of the filter bar while a filter is set. */
  resettable?: boolean;
  /** What the empty table says, depending on whether a filter is set. */
  empty: (filtered: boolean) => ReactNode;
  filtersTestId?: string;
  /** Shown at the start of the filter bar (an icon). */
  filterPrefix?: ReactNode;
  /** Shown at the end of the filter bar (a hint, a widget that is not a URL filter). */
  filterExtra?: ReactNode;
  /** A line between the filter bar and the table (a count of what was found, a reset link). */
  filterFooter?: (state: { filtered: boolean; reset: () => void }) => ReactNode;
  /** For a list the API does not page: the table's own pagination. */
  pagination?: TableProps<T>['pagination'];
} & Omit<TableProps<T>, 'rowKey' | 'dataSource' | 'pagination' | 'columns' | 'onChange' | 'locale'>) {
  const { filters, filtered, set, reset } = adminFilters(columns, search, onSearch);
  const urlSort = (search as { sort?: string }).sort;
  const sort = urlSort ?? defaultSort;
  const footer = filterFooter?.({ filtered, reset });
  const sortKeys = new Set(present(columns).flatMap((c) => (c.sortKey ? [c.sortKey] : [])));
  const shown = present(columns).filter((c) => !c.hideInTable);
  const tableColumns: TableColumnType<T>[] = shown.map(({ sortKey, localSort, filter: _f, hideInTable: _h, ...c }) =>
    sortKey
      ? {
          ...c,
          key: sortKey,
          sorter: true,
          sortOrder: sort === sortKey ? 'ascend' : sort === `-${sortKey}` ? 'descend' : null,
        }
      : localSort
        ? { ...c, sorter: localSort }
        : c,
  );
  const onChange: TableProps<T>['onChange'] = sortKeys.size
    ? (_p, _f, sorter, extra) => {
        // antd calls this on a page change too (with the sorter as it stands): only a sort click counts.
        if (extra.action !== 'sort') return;
        const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
        const key = String(s?.columnKey ?? '');
        const next = s?.order && sortKeys.has(key) ? (s.order === 'ascend' ? key : `-${key}`) : undefined;
        if (next !== urlSort)
          onSearch({ sort: next === defaultSort ? undefined : next, page: undefined } as unknown as SearchPatch<S>);
      }
    : undefined;

  return (
    <>
      {filters.length > 0 && (
        <FilterBar onReset={resettable && filtered ? reset : undefined} testId={filtersTestId} marginBottom={footer ? 8 : 16}>
          {filterPrefix}
          {filters.map((f) => (
            <FilterWidget key={keysOf(f).join()} f={f} search={search} set={set} />
          ))}
          {filterExtra}
        </FilterBar>
      )}
      {footer}
      <Loaded query={query}>
        <Table<T>
          rowKey="id"
          loading={loading ?? query.isFetching}
          dataSource={query.data?.items ?? []}
          pagination={
            paged
              ? listPagination(
                  search as PageSearch,
                  query.data?.total,
                  onSearch as (p: PageSearch) => void,
                  paged === true ? undefined : paged,
                )
              : (pagination ?? false)
          }
          columns={tableColumns}
          onChange={onChange}
          locale={{ emptyText: empty(filtered) }}
          {...table}
        />
      </Loaded>
    </>
  );
}
