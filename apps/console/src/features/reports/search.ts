import { pageFields, type SearchOf, searchSchema } from '../../components/list/listSearch';

/** /reports?page=&page_size= (the company comes from the header selector). */
export type ReportsSearch = SearchOf<typeof pageFields>;
export const parseReportsSearch = searchSchema(pageFields);
