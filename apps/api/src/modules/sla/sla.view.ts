/* The `sla` block of an event in list and card answers (contract sla.ts: eventSla). */
import { type EventSla, slaOverdue } from '@forpost/contract/sla';
import { iso } from '../../lib/serialize';

export interface SlaColumns {
  sla_due_at: Date | string | null;
  sla_stage: 'triage' | 'resolve' | null;
  triaged_at: Date | string | null;
  resolved_at: Date | string | null;
}

/** The stored SLA columns as the API shows them; `overdue` as of `now`. */
export function slaView(r: SlaColumns, now: Date = new Date()): EventSla {
  const due = iso(r.sla_due_at);
  return {
    due_at: due,
    stage: due === null ? null : r.sla_stage,
    overdue: slaOverdue(due, now),
    triaged_at: iso(r.triaged_at),
    resolved_at: iso(r.resolved_at),
  };
}
