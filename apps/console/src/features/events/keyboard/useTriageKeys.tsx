/*
 * The triage keys of one event, the same in the list (its marked row) and on the card (TRIAGE_KEYS):
 * s — status, p — priority (QuickPick: ↓/↑ and Enter, or a digit), a — assignee. The change goes to the
 * collection's PATCH with this one id, so it comes back with «Отменить» (undo.tsx).
 */
import type { ModuleCode } from '@forpost/contract/modules';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { http } from '../../../lib/http';
import type { EventPatch } from '../api/mutations';
import { paths } from '../api/paths';
import { type EventRefs, eventKeys } from '../api/queries';
import { AssignDialog } from '../assign/AssignDialog';
import type { BatchResponse } from '../model/types';
import { offerUndo } from '../undo';
import { QuickPick } from './QuickPick';

/** What the keys need of the event they change. */
export interface TriageTarget {
  id: number;
  company_id: number;
  status_id: number;
  priority_id: number | null;
  assignee_id?: number | null;
  assignee_name?: string | null;
}

export function useTriageKeys(p: {
  code: ModuleCode;
  refs: EventRefs;
  target: TriageTarget | null;
  canWrite: boolean;
  /** How «a» picks the assignee here (default: the assign dialog); true when it opened something. */
  assign?: () => boolean;
}): { onKey: (key: string) => boolean; node: ReactNode } {
  const qc = useQueryClient();
  const [pick, setPick] = useState<'status' | 'priority' | 'assign' | null>(null);
  // The event the open picker is for (the list's mark may move meanwhile).
  const [of, setOf] = useState<TriageTarget | null>(null);

  const change = (patch: EventPatch) => {
    const t = of;
    setPick(null);
    if (!t) return;
    void http
      .patch(paths.events(p.code), { json: { ids: [t.id], patch } })
      .json<BatchResponse>()
      .then((r) => {
        void qc.invalidateQueries({ queryKey: eventKeys.module(p.code) });
        offerUndo(qc, p.code, r.undo_token, 'Изменения сохранены');
      })
      .catch(() => undefined);
  };

  const open = (what: 'status' | 'priority' | 'assign') => {
    if (!p.canWrite || !p.target) return false;
    setOf(p.target);
    setPick(what);
    return true;
  };

  const onKey = (key: string): boolean => {
    switch (key) {
      case 's':
        return open('status');
      case 'p':
        return open('priority');
      case 'a':
        if (!p.canWrite || !p.target) return false;
        return p.assign ? p.assign() : open('assign');
      default:
        return false;
    }
  };

  const close = () => setPick(null);
  return {
    onKey,
    node: (
      <>
        <QuickPick
          open={pick === 'status'}
          title={of ? `Статус: событие №${of.id}` : 'Статус'}
          options={p.refs.statuses}
          current={of?.status_id}
          onPick={(id) => change({ status_id: id })}
          onClose={close}
        />
        <QuickPick
          open={pick === 'priority'}
          title={of ? `Приоритет: событие №${of.id}` : 'Приоритет'}
          options={p.refs.priorities}
          current={of?.priority_id}
          onPick={(id) => change({ priority_id: id })}
          onClose={close}
        />
        {!p.assign && (
          <AssignDialog
            open={pick === 'assign'}
            code={p.code}
            companyId={of?.company_id ?? null}
            subject={of ? `Для: событие №${of.id}` : undefined}
            current={of?.assignee_id ?? null}
            currentName={of?.assignee_name ?? null}
            onCancel={close}
            onAssign={(assignee) => change({ assignee_id: assignee })}
          />
        )}
      </>
    ),
  };
}
