/*
 * An event's SLA: the time left to its pending deadline or «Просрочено на …», coloured (red overdue,
 * orange due within SLA_DUE_SOON_MINUTES). Counted in the browser from `due_at` against a clock that
 * ticks every 30 s, so a page left open goes overdue without a reload (contract sla.ts: slaText).
 */
import { type EventSla, SLA_STAGE_LABELS, slaShortText, slaStateOf, slaText } from '@forpost/contract/sla';
import { Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { EMPTY_VALUE, formatDateTime } from '../../../lib/format';

const TICK_MS = 30_000;

/** The current time, re-read every 30 s while mounted. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = window.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => window.clearInterval(t);
  }, []);
  return now;
}

const COLORS = { overdue: 'red', due_soon: 'orange', on_track: 'green' } as const;

/**
 * `compact` (list cells): «−1 д 4 ч» / «2 ч 15 мин», the full text («Просрочено на 1 д 4 ч») in the
 * tooltip and the title; the card shows the full text.
 */
export function SlaValue({ sla, compact }: { sla: EventSla | undefined; compact?: boolean }) {
  const now = useNow();
  if (!sla?.due_at) return <Typography.Text type="secondary">{EMPTY_VALUE}</Typography.Text>;
  const state = slaStateOf(sla.due_at, now) ?? 'on_track';
  const stage = sla.stage ? SLA_STAGE_LABELS[sla.stage] : '';
  const full = slaText(sla.due_at, now);
  const due = `${stage}: срок ${formatDateTime(sla.due_at)}`;
  return (
    <Tooltip title={compact ? `${full}. ${due}` : due}>
      <Tag
        color={COLORS[state]}
        data-testid="sla-value"
        data-state={state}
        aria-label={compact ? full : undefined}
        style={compact ? { marginInlineEnd: 0, whiteSpace: 'nowrap' } : undefined}
      >
        {compact ? slaShortText(sla.due_at, now) : full}
      </Tag>
    </Tooltip>
  );
}

/** The card's SLA block: the pending deadline, then when the event was first triaged and resolved. */
export function SlaDetail({ sla }: { sla: EventSla | undefined }) {
  return (
    <div data-testid="sla-detail" style={{ display: 'flex', flexDirection: 'column', gap: 4, alignItems: 'flex-start' }}>
      {sla?.due_at ? (
        <>
          <SlaValue sla={sla} />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {sla.stage ? `${SLA_STAGE_LABELS[sla.stage]} до ${formatDateTime(sla.due_at)}` : formatDateTime(sla.due_at)}
          </Typography.Text>
        </>
      ) : (
        <Typography.Text type="secondary">{sla?.resolved_at ? 'Решено — срока нет' : 'Срок не задан'}</Typography.Text>
      )}
      {sla?.triaged_at && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          Разобрано: {formatDateTime(sla.triaged_at)}
        </Typography.Text>
      )}
      {sla?.resolved_at && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          Решено: {formatDateTime(sla.resolved_at)}
        </Typography.Text>
      )}
    </div>
  );
}
