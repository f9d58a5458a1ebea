export { isForbiddenAddress } from '../../lib/outbound';
export { PROBE_MSG, type ProbeOptions, probe } from './probe';
export { createSnapshotsRepo, type SnapshotRow } from './snapshots.repo';
export { createSnapshotsService, type SnapshotsService } from './snapshots.service';
