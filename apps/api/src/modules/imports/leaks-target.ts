/*
 * Import into the leaks catalogue (settings → leaks): an entry is identified by its name
 * (case-insensitive); a known one is updated (the columns the file has) or skipped per the mode.
 */
import { IMPORT_MSG, LEAK_CATALOGUE_FIELDS, leakCatalogueImportFields } from '@forpost/contract/imports';
import type { Db } from '../../db/client';
import { sameValue } from '../events/index';
import { type NameIndex, parseField } from './cells';
import {
  emptyResult,
  type ImportContext,
  inRounds,
  type RowError,
  refIndexes,
  rowError,
  type Target,
  type WriteResult,
} from './targets';
import { LEAK_COLUMNS, LEAKS_ANALYZE, type LeakRow, type LeakValues, type TargetsRepo } from './targets.repo';

interface LeakRecord {
  row: number;
  name: string;
  /** The columns the file gave a value. */
  values: LeakValues;
}

/** A catalogue entry is unique by its name, case aside. */
const leakKey = (r: LeakRecord) => r.name.toLowerCase();

/** Catalogue field key (the contract's) → column. */
const COLUMN_OF: Record<string, (typeof LEAK_COLUMNS)[number]> = {
  leak_type_id: 'leakTypeId',
  leaked_at: 'leakedAt',
  records_count: 'recordsCount',
  source_url: 'sourceUrl',
  description: 'description',
};

export function leaksCatalogueTarget(repo: TargetsRepo): Target<LeakRecord, Partial<Record<string, NameIndex>>> {
  const byKey = new Map(LEAK_CATALOGUE_FIELDS.map((f) => [f.key, f]));
  return {
    fields: leakCatalogueImportFields(),
    table: 'leaks',
    analyze: LEAKS_ANALYZE,
    loadLookups: () => refIndexes(repo, LEAK_CATALOGUE_FIELDS),

    prepare(r, mapping, headers, lookups) {
      const errors: RowError[] = [];
      let name: string | undefined;
      const values: LeakValues = {};
      for (let i = 0; i < mapping.length; i++) {
        const key = mapping[i];
        const f = key ? byKey.get(key) : undefined;
        if (!f) continue;
        const raw = r.cells[i] ?? '';
        if (raw === '') {
          if (f.required) errors.push(rowError(r, headers, i, IMPORT_MSG.required));
          continue;
        }
        const p = parseField(f, raw, (x) => (x.ref ? lookups[x.ref] : undefined));
        if (!p.ok) errors.push(rowError(r, headers, i, p.error));
        else if (f.key === 'name') name = p.value as string;
        else {
          const column = COLUMN_OF[f.key];
          if (column) (values as Record<string, unknown>)[column] = p.value;
        }
      }
      if (!mapping.includes('name')) errors.push(rowError(r, headers, null, `${IMPORT_MSG.required}: «Название»`));
      if (errors.length || name === undefined) return { errors };
      return { record: { row: r.row, name, values }, errors };
    },

    keyOf: leakKey,

    async write(tx, records, ctx) {
      const res = emptyResult();
      await inRounds(records, leakKey, (rows) => writeRound(tx, rows, ctx, res));
      return res;
    },

    undo: (tx, importId) => repo.deleteImportedLeaks(importId, tx),
  };

  /** One round (unique names): known entries updated or skipped, new ones inserted; returns the names to retry. */
  async function writeRound(tx: Db, rows: LeakRecord[], ctx: ImportContext, res: WriteResult): Promise<LeakRecord[]> {
    const found = new Map<string, LeakRow>();
    for (const e of await repo.lockLeaksByName(
      rows.map((r) => r.name.toLowerCase()),
      tx,
    ))
      found.set(e.name.toLowerCase(), e);
    const fresh: LeakRecord[] = [];
    for (const r of rows) {
      const e = found.get(r.name.toLowerCase());
      if (!e) fresh.push(r);
      else if (ctx.mode === 'skip' || !LEAK_COLUMNS.some((k) => k in r.values && !sameValue(r.values[k], e[k]))) res.skipped++;
      else {
        await repo.updateLeak(e.id, r.values, tx);
        res.updated++;
      }
    }
    if (!fresh.length) return [];
    const created = await repo.insertLeaks(
      fresh.map((r) => ({ ...r.values, name: r.name })),
      ctx.importId,
      tx,
    );
    res.created += created.length;
    const got = new Set(created.map((c) => c.name.toLowerCase()));
    return fresh.filter((r) => !got.has(r.name.toLowerCase()));
  }
}
