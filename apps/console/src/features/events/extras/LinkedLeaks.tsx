/* Accounts: leaks of the catalogue this account was found in — link (search by leak name) and unlink. */
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Card, Empty, Flex, Popconfirm, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../lib/format';
import { useDebounced } from '../../../lib/useDebounced';
import { useLinkedLeakMutations } from '../api/mutations';
import { useLeakNames, useLinkedLeaks } from '../api/queries';
import type { ExtrasProps } from './types';

export function LinkedLeaks({ m, event, canWrite }: ExtrasProps) {
  const linked = useLinkedLeaks(m.code, event.id);
  const { link, unlink } = useLinkedLeakMutations(m.code, event.id);
  const [q, setQ] = useState('');
  const names = useLeakNames(useDebounced(q.trim(), 300));
  const items = linked.data ?? [];
  const linkedIds = new Set(items.map((l) => l.id));

  return (
    <Card title={`Связанные утечки${items.length ? ` (${items.length})` : ''}`} size="small" data-testid="linked-leaks">
      <Flex vertical gap={12}>
        {linked.isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Утечки не привязаны" style={{ margin: 0 }} />
        ) : (
          <Flex vertical gap={4}>
            {items.map((l) => (
              <Flex key={l.id} align="center" gap={8} style={{ padding: '4px 0', borderBottom: '1px solid rgba(0,0,0,.04)' }}>
                <Typography.Text style={{ flex: 1 }}>{l.name}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  привязана {formatDateTime(l.linked_at)}
                </Typography.Text>
                {canWrite && (
                  <Popconfirm
                    title={`Отвязать «${l.name}»?`}
                    okText="Отвязать"
                    cancelText="Отмена"
                    onConfirm={() => unlink.mutate(l.id)}
                  >
                    <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`Отвязать ${l.name}`} />
                  </Popconfirm>
                )}
              </Flex>
            ))}
          </Flex>
        )}
        {canWrite && (
          <Select<number>
            showSearch={{ filterOption: false, onSearch: setQ }}
            placeholder="Привязать утечку: начните вводить название"
            value={null as unknown as number}
            loading={names.isFetching}
            options={(names.data ?? []).filter((n) => !linkedIds.has(n.id)).map((n) => ({ value: n.id, label: n.name }))}
            onChange={(id) => link.mutate(id, { onSuccess: () => setQ('') })}
            notFoundContent={names.isFetching ? 'Поиск…' : 'Утечки не найдены'}
            style={{ width: '100%' }}
            aria-label="Привязать утечку"
            data-testid="leak-link"
          />
        )}
      </Flex>
    </Card>
  );
}
