/*
 * Raising domain events from discovery (DNS runs and the CT monitor) through the import's batch writer
 * (imports/event-write.ts): the module's fingerprint dedups (an existing event is left as it is), the
 * create guards refuse allowlisted domains, the whitelist mark is looked up, history is written — exactly
 * as for imported rows. The ids of the new events are returned: the caller queues their snapshot probe
 * after the commit (always, whatever `snapshot_on_create` says); the ML score comes from the classifier queue.
 */
import { getModule } from '@forpost/contract/modules';
import type { Db } from '../../db/client';
import type { CardVault, CreateGuards, EventsRepo, Refs, WhitelistKindFor } from '../events/index';
import { newEventData } from '../events/index';
import type { EventRecord } from '../imports/index';
import { type EventWriter, writeEvents } from '../imports/index';
import { emitEventOutbox } from '../outbox/index';

export interface EngineParts {
  events: EventsRepo;
  refs: Refs;
  vault: CardVault;
  guards: CreateGuards;
  whitelistKindFor: WhitelistKindFor;
}

/** One finding: the company and the domains module's input (plain values). */
export interface Finding {
  companyId: number;
  input: Record<string, unknown>;
}

export function createEventRaiser(engine: EngineParts) {
  const m = getModule('domains');
  const writer: EventWriter = { m, ...engine };
  /**
   * Writes the findings as domain events with `source` in transaction `tx`; returns how many were new
   * (and their ids) and how many a create guard refused (allowlisted).
   */
  return async function raise(
    tx: Db,
    findings: readonly Finding[],
    source: 'Discovery' | 'CT',
    authorId: number | null,
  ): Promise<{ created: number; refused: number; ids: number[] }> {
    if (!findings.length) return { created: 0, refused: 0, ids: [] };
    const records: EventRecord[] = findings.map((f, i) => ({
      row: i + 1,
      companyId: f.companyId,
      input: f.input,
      ...newEventData(m, f.input, engine.vault),
      source,
    }));
    const ids: number[] = [];
    const res = await writeEvents(writer, tx, records, {
      mode: 'skip',
      authorId,
      authorKeyId: null,
      importId: null,
      onCreated: (x) => ids.push(...x),
    });
    // «Найден домен-двойник» for the integrations (the event's own «Новое событие» comes from its history).
    await emitEventOutbox(
      tx,
      ids.map((eventId) => ({ eventId, type: 'discovery.finding', extra: { source } })),
    );
    return { created: res.created, refused: res.errors.length, ids };
  };
}
export type EventRaiser = ReturnType<typeof createEventRaiser>;
