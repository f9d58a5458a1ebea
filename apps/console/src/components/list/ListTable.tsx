import { Table, type TableProps } from 'antd';
import { Loaded } from '../page/QueryState';
import { type ListPaginationOptions, listPagination, type PageSearch } from './pagination';

/** The query behind a list page's table (TanStack Query result of a `{ items, total }` page). */
interface ListQuery<T> {
  isError: boolean;
  isFetching: boolean;
  data?: { items: T[]; total?: number };
  error: unknown;
  refetch: () => unknown;
}

/**
 * The table of a list page: the query's rows by id (spinner while it fetches, unless `loading`
 * says otherwise), pages bound to the URL's page / page_size when `paging` is given, and the load
 * error in its place when the first load failed.
 */
export function ListTable<T extends { id: number | string }>({
  query,
  paging,
  loading,
  ...table
}: {
  query: ListQuery<T>;
  paging?: { search: PageSearch; onSearch: (patch: PageSearch) => void; options?: ListPaginationOptions };
} & Omit<TableProps<T>, 'rowKey' | 'dataSource' | 'pagination'>) {
  return (
    <Loaded query={query}>
      <Table<T>
        rowKey="id"
        loading={loading ?? query.isFetching}
        dataSource={query.data?.items ?? []}
        pagination={paging ? listPagination(paging.search, query.data?.total, paging.onSearch, paging.options) : false}
        {...table}
      />
    </Loaded>
  );
}
