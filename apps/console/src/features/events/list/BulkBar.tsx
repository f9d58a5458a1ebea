/*
 * Actions on the selected rows — status, priority, decision, a tag, the module's actions, delete —
 * through the collection's endpoints only: the selected rows in one call (all of them change, or
 * none), or, after «Выбрать все N по фильтру», every event the list's filter selects (a large set
 * runs as a job: BulkProgress follows it and refreshes the list). A change comes back with «Отменить»
 * (undo.tsx) for a few seconds.
 */
import { DeleteOutlined, DownOutlined, SendOutlined, UserAddOutlined } from '@ant-design/icons';
import type { BulkJob } from '@forpost/contract/events-bulk';
import { type ActionDescriptor, hasDecisions, type ModuleCode, type ModuleDescriptor } from '@forpost/contract/modules';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown, Flex, Popconfirm, Typography, theme } from 'antd';
import { useState } from 'react';
import { feedback } from '../../../lib/feedback';
import { formatNumber, pluralRu } from '../../../lib/format';
import type { SearchParams } from '../../../lib/http';
import { useCan } from '../../auth/useMe';
import { useBulkTakedown } from '../../takedown/api';
import { type BulkOp, useBatch, useBulkByFilter } from '../api/mutations';
import type { EventRefs } from '../api/queries';
import { AssignDialog } from '../assign/AssignDialog';
import { ActionRequestModal } from '../components/ActionRequestModal';
import { offerUndo } from '../undo';

export const eventsCount = (n: number) => `${formatNumber(n)} ${pluralRu(n, 'событие', 'события', 'событий')}`;

/** A running operation «по фильтру»: its module, its job and what it does (for the messages). */
export interface BulkRun {
  code: ModuleCode;
  id: number;
  what: string;
}

export function BulkBar({
  m,
  ids,
  refs,
  canWrite,
  canDelete,
  everyRowOfPage,
  total,
  totalCapped,
  filters,
  allMatching,
  onAllMatching,
  onDone,
  onJob,
  onClear,
}: {
  m: ModuleDescriptor;
  /** The selected rows. */
  ids: number[];
  refs: EventRefs;
  canWrite: boolean;
  canDelete: boolean;
  /** Every row of the page is selected: «все N по фильтру» can be offered. */
  everyRowOfPage: boolean;
  /** The list's total (capped: more than it). */
  total: number;
  totalCapped: boolean;
  /** The list's filters (its query without paging and sort). */
  filters: SearchParams;
  /** The action applies to every event the filter selects, not only the selected rows. */
  allMatching: boolean;
  onAllMatching: (on: boolean) => void;
  /** The operation is done: the selection is cleared. */
  onDone: () => void;
  /** An operation «по фильтру» went to the background. */
  onJob: (run: BulkRun) => void;
  onClear: () => void;
}) {
  const { message } = feedback;
  const { token } = theme.useToken();
  const qc = useQueryClient();
  const batch = useBatch(m);
  const byFilter = useBulkByFilter(m);
  const busy = batch.isPending || byFilter.isPending;
  const [action, setAction] = useState<ActionDescriptor | null>(null);
  const [assigning, setAssigning] = useState(false);
  const KEY = 'events-bulk';
  const many = totalCapped ? `более ${eventsCount(total)}` : eventsCount(total);
  const target = allMatching ? `все ${many} по фильтру` : eventsCount(ids.length);

  const run = (op: BulkOp, what: string) => {
    message.open({ key: KEY, type: 'loading', content: `${what}…`, duration: 0 });
    const settled = { onSettled: () => message.destroy(KEY) };
    if (!allMatching) {
      batch.mutate(
        { ids, op },
        {
          ...settled,
          onSuccess: (r) => {
            offerUndo(qc, m.code, r.undo_token, `${what}: ${eventsCount(r.count)}`);
            onDone();
          },
        },
      );
      return;
    }
    byFilter.mutate(
      { filters, op },
      {
        ...settled,
        onSuccess: (job: BulkJob) => {
          if (job.status === 'done') offerUndo(qc, m.code, job.undo_token, `${what}: ${eventsCount(job.processed)}`);
          else onJob({ code: m.code, id: job.id, what });
          onDone();
        },
      },
    );
  };

  const patchMenu = (
    label: string,
    items: readonly { id: number; name: string }[],
    field: string,
    what: string,
    testId: string,
  ) => (
    <Dropdown
      trigger={['click']}
      disabled={busy}
      menu={{
        items: items.map((x) => ({ key: String(x.id), label: x.name })),
        onClick: ({ key }) => run({ kind: 'patch', patch: { [field]: Number(key) } }, what),
      }}
    >
      <Button data-testid={testId}>
        {label} <DownOutlined />
      </Button>
    </Dropdown>
  );

  const sendAction = (comment: string | undefined) => {
    if (!action) return;
    // A record-only action is written to the history, nothing is sent: say so.
    run({ kind: 'action', action: action.code, ...(comment ? { comment } : {}) }, `Записано в историю: ${action.label}`);
    setAction(null);
  };
  // «Запрос на блокировку» of selected domains: one takedown draft per event (#32), then «Блокировки».
  const takedown = useBulkTakedown();
  const mayTakedown = useCan('takedown.send');
  const canTakedown = m.code === 'domains' && mayTakedown && !allMatching;
  const draftTakedowns = () =>
    takedown.mutate(ids, {
      onSuccess: (r) => {
        message.success(`Подготовлено запросов на блокировку: ${r.created.length}`);
        if (r.skipped.length) message.info(`Пропущено: ${r.skipped.map((x) => `№${x.event_id} — ${x.reason}`).join('; ')}`);
        onDone();
      },
    });

  return (
    // What does not fit one line wraps to the next (a bar scrolled sideways hid «Снять выделение» at
    // 1280 px), in the theme's colours (the dark theme too).
    <Flex
      gap={8}
      wrap
      align="center"
      data-testid="bulk-bar"
      style={{
        padding: '6px 12px',
        background: token.colorPrimaryBg,
        border: `1px solid ${token.colorPrimaryBorder}`,
        borderRadius: 8,
        whiteSpace: 'nowrap',
      }}
    >
      <Typography.Text strong data-testid="bulk-count">
        {allMatching ? `Выбраны все ${many} по фильтру` : `Выбрано: ${ids.length}`}
      </Typography.Text>
      {!allMatching && everyRowOfPage && (totalCapped || total > ids.length) && (
        <Button type="link" onClick={() => onAllMatching(true)} data-testid="bulk-all" style={{ paddingInline: 0 }}>
          Выбрать все {many} по фильтру
        </Button>
      )}
      {canWrite && patchMenu('Статус', refs.statuses, 'status_id', 'Статус изменён', 'bulk-status')}
      {canWrite && patchMenu('Приоритет', refs.priorities, 'priority_id', 'Приоритет изменён', 'bulk-priority')}
      {canWrite && hasDecisions(m) && patchMenu('Решение', refs.decisions, 'decision_id', 'Решение изменено', 'bulk-decision')}
      {canWrite && (
        <Button icon={<UserAddOutlined />} disabled={busy} onClick={() => setAssigning(true)} data-testid="bulk-assign">
          Назначить
        </Button>
      )}
      {canWrite && (
        <Dropdown
          trigger={['click']}
          disabled={busy || refs.tags.length === 0}
          menu={{
            items: refs.tags.map((t) => ({ key: String(t.id), label: t.name })),
            onClick: ({ key }) => run({ kind: 'patch', patch: { tags_add: [Number(key)] } }, 'Тег добавлен'),
          }}
        >
          <Button data-testid="bulk-tag">
            Добавить тег <DownOutlined />
          </Button>
        </Dropdown>
      )}
      {canWrite && m.actions?.length ? (
        <Dropdown
          trigger={['click']}
          disabled={busy}
          menu={{
            items: m.actions.map((a) => ({ key: a.code, label: a.label })),
            onClick: ({ key }) =>
              key === 'takedown' && canTakedown ? draftTakedowns() : setAction(m.actions?.find((a) => a.code === key) ?? null),
          }}
        >
          <Button icon={<SendOutlined />} data-testid="bulk-action">
            Действие <DownOutlined />
          </Button>
        </Dropdown>
      ) : null}
      {canDelete && (
        <Popconfirm
          title={`Удалить ${target}?`}
          description="Вместе с комментариями и вложениями. Отменить нельзя."
          okText="Удалить"
          cancelText="Отмена"
          okButtonProps={{ danger: true }}
          onConfirm={() => run({ kind: 'delete' }, 'Удалено')}
        >
          <Button danger icon={<DeleteOutlined />} disabled={busy} data-testid="bulk-delete">
            Удалить
          </Button>
        </Popconfirm>
      )}
      <Button type="link" onClick={onClear} data-testid="bulk-clear" style={{ paddingInline: 4, marginInlineStart: 'auto' }}>
        Снять выделение
      </Button>
      <ActionRequestModal action={action} subject={`Для: ${target}`} onSend={sendAction} onCancel={() => setAction(null)} />
      <AssignDialog
        open={assigning}
        code={m.code}
        companyId={typeof filters.company_id === 'number' ? filters.company_id : null}
        subject={`Для: ${target}`}
        pending={busy}
        onCancel={() => setAssigning(false)}
        onAssign={(assignee) => {
          setAssigning(false);
          run(
            { kind: 'patch', patch: { assignee_id: assignee } },
            assignee === null ? 'Исполнитель снят' : 'Исполнитель назначен',
          );
        }}
      />
    </Flex>
  );
}
