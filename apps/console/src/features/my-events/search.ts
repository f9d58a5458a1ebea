import { MY_EVENTS_SORTS } from '@forpost/contract/assignment';
import { MODULE_CODES } from '@forpost/contract/modules';
import { z } from 'zod';
import { pageFields } from '../../components/list/listSearch';

/** /my-events?sort=&state=open|all&module=&page=&page_size= (the default: open events, newest first). */
const schema = z.object({
  sort: z.enum(MY_EVENTS_SORTS).optional().catch(undefined),
  state: z.enum(['open', 'all']).optional().catch(undefined),
  module: z.enum(MODULE_CODES).optional().catch(undefined),
  ...pageFields,
});
export type MyEventsSearch = Partial<z.infer<typeof schema>>;
export const parseMyEventsSearch = (s: Record<string, unknown>): MyEventsSearch => schema.parse(s);
