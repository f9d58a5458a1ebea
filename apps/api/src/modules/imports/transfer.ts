/*
 * Wiring of «data in and out» (imports and exports) for buildApp: `mount` after the event engine
 * (it needs its reference lists, guards and document store); `attach` from main.ts once pg-boss is
 * up (every role sends jobs; ROLE=all|worker also runs the workers and schedules).
 */
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { DocStore } from '../../lib/docstore';
import type { Logger } from '../../lib/logger';
import type { App } from '../../lib/routes';
import type { ConfigsService } from '../configs/index';
import type { CreateGuards, Refs, WhitelistKindFor } from '../events/index';
import { type CardVault, createCardVault } from '../events/index';
import { createExportsService, type ExportsService, exportsRoutes } from '../exports/index';
import { importsRoutes } from './imports.routes';
import { createImportsService, type ImportsService } from './imports.service';

export interface TransferDeps {
  db: Db;
  pool: pg.Pool;
  audit: Audit;
  configs: Pick<ConfigsService, 'get'>;
  dataDir: string;
  importWriters: number;
  secret: string;
  /** The console's address (links back to events in STIX exports). */
  publicUrl?: string;
  log: Pick<Logger, 'warn' | 'error'>;
}

export interface EngineParts {
  refs: Refs;
  store: DocStore;
  guards: CreateGuards;
  whitelistKindFor: WhitelistKindFor;
}

export function createTransfer(deps: TransferDeps) {
  const vault: CardVault = createCardVault(deps.secret);
  let imports: ImportsService | undefined;
  let exports: ExportsService | undefined;
  const mounted = () => {
    if (!imports || !exports) throw new Error('transfer is not mounted (call mount after the event engine)');
    return { imports, exports };
  };
  return {
    get imports(): ImportsService {
      return mounted().imports;
    },
    get exports(): ExportsService {
      return mounted().exports;
    },

    async mount(app: App, engine: EngineParts) {
      imports = createImportsService({
        ...deps,
        store: engine.store,
        engine: { refs: engine.refs, vault, guards: engine.guards, whitelistKindFor: engine.whitelistKindFor },
      });
      exports = createExportsService({ ...deps, store: engine.store, refs: engine.refs, vault });
      await importsRoutes(app, { imports });
      await exportsRoutes(app, { exports });
    },

    async attach(boss: PgBoss, opts: { work: boolean }) {
      const m = mounted();
      await m.imports.attach(boss, opts);
      await m.exports.attach(boss, opts);
    },
  };
}
export type Transfer = ReturnType<typeof createTransfer>;
