import type { TablePaginationConfig } from 'antd';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './listSearch';

/** A page of a list as the API answers it. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

/** The `page` / `page_size` URL params of a list page. */
export interface PageSearch {
  page?: number;
  page_size?: number;
}

/** The page and page size to ask the API for (the defaults when the URL has none). */
export const pageParams = (search: PageSearch, defaultPageSize = DEFAULT_PAGE_SIZE) => ({
  page: search.page ?? 1,
  page_size: search.page_size ?? defaultPageSize,
});

/** A list's own default page size and «Всего» text. */
export interface ListPaginationOptions {
  defaultPageSize?: number;
  showTotal?: (total: number) => string;
}

/**
 * antd Table pagination bound to the `page` / `page_size` URL params. The defaults (page 1, the
 * default size) are left out of the URL, and a new page size goes back to page 1.
 */
export function listPagination(
  search: PageSearch,
  total: number | undefined,
  onSearch: (patch: PageSearch) => void,
  { defaultPageSize = DEFAULT_PAGE_SIZE, showTotal = (t: number) => `Всего: ${t}` }: ListPaginationOptions = {},
): TablePaginationConfig {
  const { page, page_size: pageSize } = pageParams(search, defaultPageSize);
  return {
    current: page,
    pageSize,
    total: total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: [...new Set([...PAGE_SIZE_OPTIONS, defaultPageSize])].sort((a, b) => a - b),
    showTotal,
    onChange: (p, ps) =>
      onSearch({ page: p === 1 || ps !== pageSize ? undefined : p, page_size: ps === defaultPageSize ? undefined : ps }),
  };
}
