/* Status, priority, decision and tags of an event: selects that PATCH at once (optimistic, rolled back on error). */
import { hasDecisions, type ModuleDescriptor, type WhitelistKind } from '@forpost/contract/modules';
import { Card, Descriptions, Select, Space, Typography } from 'antd';
import type { EventPatch } from '../api/mutations';
import type { EventRefs } from '../api/queries';
import { AssigneeSelect } from '../assign/AssigneeSelect';
import { SlaDetail } from '../components/SlaValue';
import { DecisionValue, PriorityTag, StatusTag, sourceLabel, WhitelistTag } from '../components/values';
import type { EventDetail } from '../model/types';
import { MlState } from './MlState';
import { TagsEditor } from './TagsEditor';

export function TriageCard({
  m,
  event,
  refs,
  canWrite,
  onPatch,
}: {
  m: ModuleDescriptor;
  event: EventDetail;
  refs: EventRefs;
  canWrite: boolean;
  onPatch: (patch: EventPatch) => void;
}) {
  const select = (
    label: string,
    value: number | null | undefined,
    items: readonly { id: number; name: string }[],
    key: string,
    clearable: boolean,
    view: React.ReactNode,
  ) =>
    canWrite ? (
      <Select<number | null>
        value={value ?? null}
        options={items.map((x) => ({ value: x.id, label: x.name }))}
        onChange={(v) => onPatch({ [key]: v ?? null })}
        allowClear={clearable}
        placeholder="Не задано"
        style={{ width: '100%' }}
        aria-label={label}
        data-testid={`triage-${key}`}
      />
    ) : (
      view
    );

  const wl = event.whitelist_kind as WhitelistKind | null;
  const items = [
    {
      key: 'status',
      label: 'Статус',
      children: select(
        'Статус',
        event.status_id,
        refs.statuses,
        'status_id',
        false,
        <StatusTag statuses={refs.statuses} id={event.status_id} />,
      ),
    },
    {
      key: 'priority',
      label: 'Приоритет',
      children: select(
        'Приоритет',
        event.priority_id,
        refs.priorities,
        'priority_id',
        true,
        <PriorityTag priorities={refs.priorities} id={event.priority_id} />,
      ),
    },
    ...(hasDecisions(m)
      ? [
          {
            key: 'decision',
            label: 'Решение',
            children: select(
              'Решение',
              event.decision_id,
              refs.decisions,
              'decision_id',
              true,
              <DecisionValue decisions={refs.decisions} id={event.decision_id} />,
            ),
          },
        ]
      : []),
    {
      key: 'assignee',
      label: 'Исполнитель',
      children: canWrite ? (
        <AssigneeSelect
          code={m.code}
          companyId={event.company_id}
          value={event.assignee_id ?? null}
          currentName={event.assignee_name}
          onChange={(v) => onPatch({ assignee_id: v })}
          testId="triage-assignee_id"
        />
      ) : (
        (event.assignee_name ?? 'Не назначен')
      ),
    },
    {
      key: 'tags',
      label: 'Теги',
      children: <TagsEditor event={event} tags={refs.tags} canWrite={canWrite} onPatch={onPatch} />,
    },
    { key: 'sla', label: 'SLA', children: <SlaDetail sla={event.sla} /> },
    { key: 'ml', label: 'Состояние ML', children: <MlState code={m.code} event={event} canWrite={canWrite} /> },
    { key: 'source', label: 'Источник', children: sourceLabel(event.source) },
    ...(wl === 'whitelistClient' || wl === 'whitelistPartner'
      ? [{ key: 'wl', label: 'Белый список', children: <WhitelistTag kind={wl} /> }]
      : []),
  ];

  return (
    <Card title="Обработка" size="small" data-testid="triage-card">
      <Descriptions column={1} size="small" items={items} styles={{ label: { width: 120 } }} />
      {!canWrite && (
        <Space style={{ marginTop: 8 }}>
          <Typography.Text type="secondary">Недостаточно прав для изменения события</Typography.Text>
        </Space>
      )}
    </Card>
  );
}
