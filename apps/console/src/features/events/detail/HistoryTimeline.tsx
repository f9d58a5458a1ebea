/* The event's history (GET …/{id}/history): who changed which field, before → after, and when. */
import { fieldOf, type ModuleDescriptor } from '@forpost/contract/modules';
import { Button, Card, Empty, Flex, Skeleton, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { EMPTY_VALUE, formatDateTime } from '../../../lib/format';
import { type EventRefs, useEventHistory } from '../api/queries';
import { fieldText, isEmpty, mlStateLabel, sourceLabel } from '../components/values';
import type { HistoryItem } from '../model/types';

const SHOWN = 8;

function valueText(m: ModuleDescriptor, refs: EventRefs, field: string | null, v: unknown): string {
  if (isEmpty(v)) return EMPTY_VALUE;
  const name = (list: readonly { id: number; name: string }[]) => list.find((x) => x.id === v)?.name ?? `#${String(v)}`;
  switch (field) {
    case 'status_id':
      return name(refs.statuses);
    case 'priority_id':
      return name(refs.priorities);
    case 'decision_id':
      return name(refs.decisions);
    case 'tags':
      return Array.isArray(v) ? v.map((id) => refs.tags.find((t) => t.id === id)?.name ?? `#${id}`).join(', ') : String(v);
    case 'source':
      return sourceLabel(String(v));
    case 'ml_state':
      return mlStateLabel(String(v));
    case 'detected_at':
      return formatDateTime(String(v));
  }
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    return String(o.name ?? o.path ?? o.label ?? (o.id !== undefined ? `№${String(o.id)}` : JSON.stringify(o)));
  }
  const f = field ? fieldOf(m, field) : undefined;
  return f ? fieldText(f, v) : String(v);
}

function describe(m: ModuleDescriptor, refs: EventRefs, h: HistoryItem): { what: string; detail?: string } {
  // The API names the field with the contract's labels (historyFieldLabel); the raw key only for an unknown one.
  const label = h.field_label ?? h.field ?? '';
  switch (h.action) {
    case 'create':
      return { what: 'Событие создано' };
    case 'action': {
      const after = (h.after ?? {}) as Record<string, unknown>;
      const comment = typeof after.comment === 'string' ? after.comment : undefined;
      return { what: `Действие: ${label}`, detail: comment };
    }
    case 'link':
      return { what: `${label}: добавлено`, detail: valueText(m, refs, h.field, h.after) };
    case 'unlink':
      return { what: `${label}: удалено`, detail: valueText(m, refs, h.field, h.before) };
    case 'undo':
      // «Отменить» of an earlier change: the field went back (before → after of the undo itself).
      return {
        what: `${label}: отменено`,
        detail: `${valueText(m, refs, h.field, h.before)} → ${valueText(m, refs, h.field, h.after)}`,
      };
    default:
      return { what: label, detail: `${valueText(m, refs, h.field, h.before)} → ${valueText(m, refs, h.field, h.after)}` };
  }
}

export function HistoryTimeline({ m, eventId, refs }: { m: ModuleDescriptor; eventId: number; refs: EventRefs }) {
  const history = useEventHistory(m.code, eventId);
  const [all, setAll] = useState(false);
  const items = history.data ?? [];
  const shown = all ? items : items.slice(0, SHOWN);
  return (
    <Card title="История" size="small" data-testid="history">
      {history.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : history.isError ? (
        <Typography.Text type="secondary">История недоступна</Typography.Text>
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Изменений нет" style={{ margin: 0 }} />
      ) : (
        <Flex vertical>
          <Timeline
            items={shown.map((h) => {
              const d = describe(m, refs, h);
              return {
                key: h.id,
                color: h.action === 'create' ? 'green' : h.action === 'action' ? 'red' : h.action === 'undo' ? 'gray' : 'blue',
                content: (
                  <Flex vertical gap={2} data-testid="history-item">
                    <Typography.Text strong style={{ fontSize: 13 }}>
                      {d.what}
                    </Typography.Text>
                    {d.detail && <Typography.Text style={{ fontSize: 13, wordBreak: 'break-word' }}>{d.detail}</Typography.Text>}
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {h.actor_name ?? 'Система'} · {formatDateTime(h.at)}
                    </Typography.Text>
                  </Flex>
                ),
              };
            })}
          />
          {items.length > SHOWN && (
            <Button type="link" size="small" onClick={() => setAll((v) => !v)} style={{ alignSelf: 'flex-start', padding: 0 }}>
              {all ? 'Свернуть' : `Показать все (${items.length})`}
            </Button>
          )}
        </Flex>
      )}
    </Card>
  );
}
