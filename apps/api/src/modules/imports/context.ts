/*
 * What every step of the imports area shares (upload, start, the job, undo, the error report,
 * maintenance): its dependencies, its repositories, the pg-boss slot and the write targets — one
 * per module plus the leaks catalogue, made on first use.
 */
import { IMPORT_MSG, LEAKS_CATALOGUE } from '@forpost/contract/imports';
import { getModule, type ModuleCode } from '@forpost/contract/modules';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { createBossSlot } from '../../db/jobs-kit';
import type { Audit } from '../../lib/audit';
import type { DocStore } from '../../lib/docstore';
import type { Logger } from '../../lib/logger';
import { createCompaniesRepo } from '../companies/index';
import type { ConfigsService } from '../configs/index';
import type { CardVault, CreateGuards, Refs, WhitelistKindFor } from '../events/index';
import { createEventsRepo } from '../events/index';
import { eventTarget } from './event-target';
import { createImportsRepo } from './imports.repo';
import { leaksCatalogueTarget } from './leaks-target';
import type { Target } from './targets';
import { createTargetsRepo } from './targets.repo';

/** What an import writes into: a module's events, or the leaks catalogue. */
export type TargetCode = ModuleCode | typeof LEAKS_CATALOGUE;

export const IMPORT_QUEUE = 'imports-run';
export const IMPORTS_MAINTENANCE = 'imports-maintenance';
export const JOB_OPTIONS = { retryLimit: 3, retryDelay: 10, expireInSeconds: 6 * 3600 };

export interface ImportsDeps {
  db: Db;
  pool: pg.Pool;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  store: DocStore;
  dataDir: string;
  /** Batches of one import written at once (IMPORT_WRITERS; 1 = one after another). */
  importWriters?: number;
  engine: { refs: Refs; vault: CardVault; guards: CreateGuards; whitelistKindFor: WhitelistKindFor };
  log: Pick<Logger, 'warn' | 'error'>;
}

export function createImportsContext(deps: ImportsDeps) {
  const repo = createImportsRepo(deps.db);
  const targetsRepo = createTargetsRepo(deps.db);
  const events = createEventsRepo(deps.db);
  const targets = new Map<TargetCode, Target>();
  return {
    deps,
    repo,
    targetsRepo,
    companies: createCompaniesRepo(deps.db),
    boss: createBossSlot(IMPORT_MSG.queueUnavailable),

    targetOf(code: TargetCode): Target {
      let t = targets.get(code);
      if (!t) {
        t = (
          code === LEAKS_CATALOGUE
            ? leaksCatalogueTarget(targetsRepo)
            : eventTarget(getModule(code), { ...deps.engine, events, repo: targetsRepo })
        ) as Target;
        targets.set(code, t);
      }
      return t;
    },
  };
}
export type ImportsContext = ReturnType<typeof createImportsContext>;
