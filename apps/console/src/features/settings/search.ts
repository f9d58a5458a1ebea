import { z } from 'zod';
import { pageFields, searchInt, searchText } from '../../components/list/listSearch';

/* URL search params of the settings lists (TanStack Router `validateSearch`); bad values are dropped. */

const tagsSearchSchema = z.object({ q: searchText(64) });
export type TagsSearch = Partial<z.infer<typeof tagsSearchSchema>>;
export const parseTagsSearch = (s: Record<string, unknown>): TagsSearch => tagsSearchSchema.parse(s);
/** A short unpaged list with only `?q=` (leak types). */
export type QSearch = TagsSearch;
export const parseQSearch = parseTagsSearch;

const refListSearchSchema = z.object({ q: searchText(), ...pageFields });
export type RefListSearch = Partial<z.infer<typeof refListSearchSchema>>;
export const parseRefListSearch = (s: Record<string, unknown>): RefListSearch => refListSearchSchema.parse(s);

const leaksSearchSchema = refListSearchSchema.extend({ type: searchInt() });
export type LeaksSearch = Partial<z.infer<typeof leaksSearchSchema>>;
export const parseLeaksSearch = (s: Record<string, unknown>): LeaksSearch => leaksSearchSchema.parse(s);
