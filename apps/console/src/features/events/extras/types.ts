import type { ModuleDescriptor } from '@forpost/contract/modules';
import type { EventDetail } from '../model/types';

/** What every extras block of the detail page gets. */
export interface ExtrasProps {
  m: ModuleDescriptor;
  event: EventDetail;
  /** events.write in the event's company. */
  canWrite: boolean;
}
