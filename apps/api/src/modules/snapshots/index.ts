export { isForbiddenAddress } from '../../lib/outbound';
export { PROBE_MSG, probe } from './probe';
export { createSnapshotsService, type SnapshotsService } from './snapshots.service';
