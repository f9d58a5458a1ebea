import type { TablePaginationConfig } from 'antd';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './listSearch';

/** Table pagination of a list page whose page and page size live in the URL (defaults are left out of it). */
export function listPagination(
  page: number,
  pageSize: number,
  total: number,
  onSearch: (patch: { page?: number; page_size?: number }) => void,
): TablePaginationConfig {
  return {
    current: page,
    pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showTotal: (t) => `Всего: ${t}`,
    onChange: (p, ps) => onSearch({ page: p === 1 ? undefined : p, page_size: ps === DEFAULT_PAGE_SIZE ? undefined : ps }),
  };
}
