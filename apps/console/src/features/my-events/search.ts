import { MY_EVENTS_SORTS } from '@forpost/contract/enums';
import { MODULE_SECTIONS } from '@forpost/contract/modules/sections';
import { pageFields, type SearchOf, searchEnum, searchSchema } from '../../components/list/listSearch';

/** /my-events?sort=&state=open|all&module=&page=&page_size= (the default: open events, the nearest deadline first). */
const myEventsSearch = {
  sort: searchEnum(MY_EVENTS_SORTS),
  state: searchEnum(['open', 'all']),
  module: searchEnum(MODULE_SECTIONS.map((m) => m.code)),
  ...pageFields,
};
export type MyEventsSearch = SearchOf<typeof myEventsSearch>;
export const parseMyEventsSearch = searchSchema(myEventsSearch);
