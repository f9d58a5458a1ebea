/*
 * What an import writes into: the events of a module (event-target.ts) or the leaks catalogue
 * (leaks-target.ts). Each target turns a file row into a validated record (or Russian reasons per
 * column) and writes a batch of records inside the job's transaction: dedup by the module's
 * fingerprint (catalogue: the name), existing rows updated or skipped per the import's mode, never
 * duplicated.
 */
import type { ImportField, ImportMode } from '@forpost/contract/imports';
import type { FieldDescriptor } from '@forpost/contract/modules';
import type { Db } from '../../db/client';
import { type NameIndex, nameIndex } from './cells';
import type { SourceRow } from './rows';
import type { TargetsRepo } from './targets.repo';

export interface RowError {
  row: number;
  /** Column index in the file (null: the row as a whole). */
  col: number | null;
  column: string | null;
  value: string | null;
  message: string;
}

export interface ImportContext {
  importId: number;
  mode: ImportMode;
  /** The company chosen at start (rows may name another in a company column). */
  defaultCompanyId: number | null;
  authorId: number | null;
  authorKeyId: number | null;
  /** Companies the author may import into. */
  scope: 'all' | number[];
}

export interface WriteResult {
  created: number;
  updated: number;
  skipped: number;
  errors: RowError[];
}

export interface Target<P = unknown, L = unknown> {
  fields: ImportField[];
  /** The table written, and the statement refreshing its statistics during a big load. */
  table: string;
  analyze: string;
  /** What the rows' cells refer to by name, loaded once per job (or preview). */
  loadLookups(ctx: Pick<ImportContext, 'scope'>): Promise<L>;
  /** A file row → a record to write, or its errors. */
  prepare(
    r: SourceRow,
    mapping: readonly (string | null)[],
    headers: readonly string[],
    lookups: L,
    ctx: ImportContext,
  ): { record?: P; errors: RowError[] };
  /** Work on a batch that needs no transaction (lookups), done before the batch's transaction opens. */
  enrich?(records: P[]): Promise<void>;
  /**
   * The row errors `write` would report for a batch, with nothing written (the dry run): refusals of
   * the create rules, read on `db`. Absent: `write` reports none.
   */
  check?(db: Db, records: P[]): Promise<RowError[]>;
  /**
   * The unique key a record writes under (what `write` dedups by). Batches sharing no key are
   * written in parallel; a batch with a key of a batch still being written waits for it, so a later
   * row of the file still wins over an earlier one.
   */
  keyOf(record: P): string;
  /** Writes a batch in the transaction `tx`. */
  write(tx: Db, records: P[], ctx: ImportContext): Promise<WriteResult>;
  /** Removes what the import created; returns how many. */
  undo(tx: Db, importId: number): Promise<number>;
}

export const emptyResult = (): WriteResult => ({ created: 0, updated: 0, skipped: 0, errors: [] });

/**
 * Writes `records` in rounds that each touch a key once: rows with a key already in the round wait
 * for the next one, and so do the rows `round` returns (inserted meanwhile by someone else: the
 * next round finds them existing).
 */
export async function inRounds<P>(records: P[], keyOf: (r: P) => string, round: (rows: P[]) => Promise<P[]>): Promise<void> {
  let pending = records;
  for (let n = 0; pending.length && n < 1000; n++) {
    const keys = new Set<string>();
    const now: P[] = [];
    const later: P[] = [];
    for (const r of pending) {
      const k = keyOf(r);
      if (keys.has(k)) later.push(r);
      else {
        keys.add(k);
        now.push(r);
      }
    }
    pending = [...(await round(now)), ...later];
  }
}

/** A row error of a whole row, or of column `col` (its header and cell from the row). */
export function rowError(r: SourceRow, headers: readonly string[], col: number | null, message: string): RowError {
  return {
    row: r.row,
    col,
    column: col === null ? null : (headers[col] ?? null),
    value: col === null ? null : (r.cells[col] ?? ''),
    message,
  };
}

/** Name indexes of the reference lists `fields` point at (a cell holds a name or a code). */
export async function refIndexes(
  repo: TargetsRepo,
  fields: readonly FieldDescriptor[],
): Promise<Partial<Record<string, NameIndex>>> {
  const out: Partial<Record<string, NameIndex>> = {};
  for (const f of fields) {
    if (!f.ref || out[f.ref]) continue;
    out[f.ref] = nameIndex((await repo.refNames(f.ref)).map((r) => ({ id: r.id, names: [r.name, r.code] })));
  }
  return out;
}
