/* Credential-leak hunting (#34): the matcher, the dump reader (containers, bad input, byte ranges), the verdict, hunts. */
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { DocStore } from '../../lib/docstore';
import type { Logger } from '../../lib/logger';
import type { App } from '../../lib/routes';
import type { CreateGuards, Refs, WhitelistKindFor } from '../events/index';
import { createCardVault, createEventsRepo } from '../events/index';
import { createHuntJobs } from './hunts.jobs';
import { huntsRoutes } from './hunts.routes';
import { createHuntsService, type HuntEngine, type HuntsService } from './hunts.service';

export { HUNT_MSG, type HuntsService, LOCK_HUNT } from './hunts.service';
export { type CompanyIdentities, foldHost, foldLogin, type HuntMatch, HuntMatcher, type ScanStats } from './matcher';
export { HUNT_INPUT_MSG, HuntInputError, type RangeOpen, scanFile, scanRange, scanStream, splitRanges } from './reader';
export { type AccountFinding, accountFinding } from './results';
export { huntKey, type PasswordVerdict } from './verdict';

export function createHunts(deps: {
  db: Db;
  pool: pg.Pool;
  store: DocStore;
  secret: string;
  dataDir: string;
  log: Pick<Logger, 'warn' | 'info'>;
  audit: Audit;
  uploadLimit: () => Promise<number>;
}) {
  let engine: HuntEngine | null = null;
  let service: HuntsService | null = null;
  const jobs = createHuntJobs({ pool: deps.pool, svc: () => svc(), log: deps.log });
  const svc = () => {
    if (!service) throw new Error('hunts are not mounted (call mount after the event engine)');
    return service;
  };
  return {
    get service(): HuntsService {
      return svc();
    },
    async mount(app: App, e: { refs: Refs; guards: CreateGuards; whitelistKindFor: WhitelistKindFor }) {
      engine = {
        events: createEventsRepo(deps.db),
        refs: e.refs,
        vault: createCardVault(deps.secret),
        guards: e.guards,
        whitelistKindFor: e.whitelistKindFor,
      };
      const ready = engine;
      service = createHuntsService({ ...deps, engine: () => ready, enqueue: (ids) => jobs.enqueue(ids) });
      await huntsRoutes(app, { hunts: svc, store: deps.store, uploadLimit: deps.uploadLimit });
    },
    attach: (b: PgBoss, opts: { work: boolean }) => jobs.attach(b, opts),
    sweep: jobs.sweep,
  };
}
export type Hunts = ReturnType<typeof createHunts>;
