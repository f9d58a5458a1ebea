/*
 * Actions on the selected rows: status, priority, decision, add a tag, delete. Modules with batch
 * endpoints change everything in one call; the others go event by event with a progress message
 * and a summary of what failed (the failed rows stay selected).
 */
import { DeleteOutlined, DownOutlined } from '@ant-design/icons';
import { hasDecisions, type ModuleDescriptor } from '@forpost/contract/modules';
import { App, Button, Dropdown, Flex, Popconfirm, Typography } from 'antd';
import { pluralRu } from '../../../lib/format';
import { type BulkOp, type BulkResult, useBulk } from '../api/mutations';
import type { EventRefs } from '../api/queries';

const events = (n: number) => `${n} ${pluralRu(n, 'событие', 'события', 'событий')}`;

export function BulkBar({
  m,
  ids,
  refs,
  canWrite,
  canDelete,
  onDone,
  onClear,
}: {
  m: ModuleDescriptor;
  ids: number[];
  refs: EventRefs;
  canWrite: boolean;
  canDelete: boolean;
  /** Called with the ids that failed (they stay selected). */
  onDone: (failed: number[]) => void;
  onClear: () => void;
}) {
  const { message, modal } = App.useApp();
  const bulk = useBulk(m);
  const KEY = 'events-bulk';

  const run = (op: BulkOp, what: string) => {
    const total = ids.length;
    bulk.mutate(
      {
        ids,
        op,
        onProgress: (done, n) => {
          if (n > 1) message.open({ key: KEY, type: 'loading', content: `${what}: ${done} из ${n}`, duration: 0 });
        },
      },
      {
        onSuccess: (r: BulkResult) => {
          message.destroy(KEY);
          if (!r.failed.length) {
            message.success(`${what}: ${events(r.done.length)}`);
          } else {
            modal.warning({
              title: `${what}: выполнено для ${r.done.length} из ${total}`,
              width: 560,
              content: (
                <div data-testid="bulk-failures">
                  <Typography.Paragraph>Не удалось для {events(r.failed.length)}:</Typography.Paragraph>
                  <ul style={{ paddingInlineStart: 20, maxHeight: 300, overflow: 'auto' }}>
                    {r.failed.map((f) => (
                      <li key={f.id}>
                        №{f.id}: {f.message}
                      </li>
                    ))}
                  </ul>
                </div>
              ),
            });
          }
          onDone(r.failed.map((f) => f.id));
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
      disabled={bulk.isPending}
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

  return (
    <Flex
      gap={8}
      wrap
      align="center"
      data-testid="bulk-bar"
      style={{ padding: '8px 12px', background: '#f0f5ff', border: '1px solid #d6e4ff', borderRadius: 8 }}
    >
      <Typography.Text strong>Выбрано: {ids.length}</Typography.Text>
      {canWrite && patchMenu('Статус', refs.statuses, 'status_id', 'Статус изменён', 'bulk-status')}
      {canWrite && patchMenu('Приоритет', refs.priorities, 'priority_id', 'Приоритет изменён', 'bulk-priority')}
      {canWrite && hasDecisions(m) && patchMenu('Решение', refs.decisions, 'decision_id', 'Решение изменено', 'bulk-decision')}
      {canWrite && (
        <Dropdown
          trigger={['click']}
          disabled={bulk.isPending || refs.tags.length === 0}
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
      {canDelete && (
        <Popconfirm
          title={`Удалить ${events(ids.length)}?`}
          description="Вместе с комментариями и вложениями. Отменить нельзя."
          okText="Удалить"
          cancelText="Отмена"
          okButtonProps={{ danger: true }}
          onConfirm={() => run({ kind: 'delete' }, 'Удалено')}
        >
          <Button danger icon={<DeleteOutlined />} disabled={bulk.isPending} data-testid="bulk-delete">
            Удалить
          </Button>
        </Popconfirm>
      )}
      <Button type="link" onClick={onClear}>
        Снять выделение
      </Button>
    </Flex>
  );
}
