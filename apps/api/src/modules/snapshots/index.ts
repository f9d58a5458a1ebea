export { isForbiddenAddress } from './guard';
export { charsetOf, PROBE_MSG, parseHostMap, probe, titleOf } from './probe';
export { findChromium } from './screenshot';
export { createSnapshotsService, SNAPSHOT_MSG, SNAPSHOT_QUEUE, type SnapshotsService } from './snapshots.service';
