import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './listSearch';

/** antd Table pagination bound to `page` / `page_size` URL params (defaults are left out of the URL). */
export function urlPagination(
  search: { page?: number; page_size?: number },
  total: number | undefined,
  onSearch: (p: { page?: number; page_size?: number }) => void,
) {
  const page = search.page ?? 1;
  const pageSize = search.page_size ?? DEFAULT_PAGE_SIZE;
  return {
    current: page,
    pageSize,
    total: total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showTotal: (t: number) => `Всего: ${t}`,
    hideOnSinglePage: false,
    onChange: (p: number, ps: number) =>
      onSearch({ page: p === 1 || ps !== pageSize ? undefined : p, page_size: ps === DEFAULT_PAGE_SIZE ? undefined : ps }),
  };
}

export const pageParams = (search: { page?: number; page_size?: number }) => ({
  page: search.page ?? 1,
  page_size: search.page_size ?? DEFAULT_PAGE_SIZE,
});
