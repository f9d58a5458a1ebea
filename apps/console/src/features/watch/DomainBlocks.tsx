/* The domains' `snapshots` extra on the event card: the watch's timeline (#31), then the snapshots. */
import { DomainSnapshots } from '../events/extras/DomainSnapshots';
import type { ExtrasProps } from '../events/extras/types';
import { DomainWatch } from './DomainWatch';

export function DomainWatchAndSnapshots(p: ExtrasProps) {
  return (
    <>
      <DomainWatch {...p} />
      <DomainSnapshots {...p} />
    </>
  );
}
