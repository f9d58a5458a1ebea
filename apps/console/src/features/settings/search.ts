import { pageFields, type SearchOf, searchInt, searchSchema, searchText } from '../../components/list/listSearch';

/* URL search params of the settings lists (TanStack Router `validateSearch`); bad values are dropped. */

const tagsSearch = { q: searchText(64) };
export type TagsSearch = SearchOf<typeof tagsSearch>;
export const parseTagsSearch = searchSchema(tagsSearch);
/** A short unpaged list with only `?q=` (leak types). */
export type QSearch = TagsSearch;
export const parseQSearch = parseTagsSearch;

const refListSearch = { q: searchText(), ...pageFields };
export type RefListSearch = SearchOf<typeof refListSearch>;
export const parseRefListSearch = searchSchema(refListSearch);

const leaksSearch = { ...refListSearch, type: searchInt() };
export type LeaksSearch = SearchOf<typeof leaksSearch>;
export const parseLeaksSearch = searchSchema(leaksSearch);
