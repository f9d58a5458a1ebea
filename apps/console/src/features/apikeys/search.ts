import { pageFields, type SearchOf, searchSchema, searchText } from '../../components/list/listSearch';

/** /api-keys?q=&page=&page_size= (the company comes from the header selector). */
const apiKeysSearch = { q: searchText(), ...pageFields };
export type ApiKeysSearch = SearchOf<typeof apiKeysSearch>;
export const parseApiKeysSearch = searchSchema(apiKeysSearch);
