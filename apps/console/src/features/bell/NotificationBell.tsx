/*
 * The header's bell: the unread count (polled every 45 s while the tab is visible), a panel of the
 * latest notifications — assignments, @mentions, SLA breaches — each opening its event and marked read
 * on the way, and «Отметить все прочитанными».
 */
import { BellOutlined } from '@ant-design/icons';
import { NOTIFICATION_KIND_LABELS } from '@forpost/contract/enums';
import type { NotificationItem } from '@forpost/contract/notifications';
import { useNavigate } from '@tanstack/react-router';
import { Badge, Button, Empty, Flex, List, Popover, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../lib/format';
import { sectionOfModule } from '../shell/sections';
import { useLatestNotifications, useMarkRead, useUnreadCount } from './api';

const KIND_COLORS: Record<NotificationItem['kind'], string> = { assigned: 'blue', mention: 'purple', sla_breach: 'red' };

function BellPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const latest = useLatestNotifications(open);
  const read = useMarkRead();
  const navigate = useNavigate();
  const items = latest.data?.items ?? [];
  const openItem = (n: NotificationItem) => {
    if (!n.read_at) read.mutate({ ids: [n.id] });
    onClose();
    if (n.event_id !== null && n.module)
      void navigate({ to: '/$section/$id', params: { section: sectionOfModule(n.module), id: String(n.event_id) } });
    else void navigate({ to: '/my-events' });
  };
  return (
    <Flex vertical style={{ width: 380, maxWidth: 'calc(100vw - 32px)' }} data-testid="bell-panel">
      <Flex justify="space-between" align="center" style={{ padding: '4px 4px 8px' }}>
        <Typography.Text strong>Уведомления</Typography.Text>
        <Button
          type="link"
          size="small"
          disabled={!latest.data?.unread || read.isPending}
          onClick={() => read.mutate({ all: true })}
          data-testid="bell-read-all"
        >
          Отметить все прочитанными
        </Button>
      </Flex>
      {latest.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : latest.isError ? (
        <Typography.Text type="secondary" style={{ padding: 8 }}>
          Не удалось загрузить уведомления
        </Typography.Text>
      ) : items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Уведомлений нет" />
      ) : (
        <List
          size="small"
          dataSource={items}
          style={{ maxHeight: 420, overflowY: 'auto' }}
          renderItem={(n) => (
            <List.Item
              onClick={() => openItem(n)}
              style={{ cursor: 'pointer', paddingInline: 8, background: n.read_at ? undefined : 'rgba(47, 84, 235, 0.06)' }}
              data-testid="bell-item"
              data-unread={n.read_at ? undefined : 'true'}
            >
              <Flex vertical gap={2} style={{ minWidth: 0 }}>
                <Flex gap={6} align="center">
                  <Tag color={KIND_COLORS[n.kind]} style={{ marginInlineEnd: 0 }}>
                    {NOTIFICATION_KIND_LABELS[n.kind]}
                  </Tag>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatDateTime(n.created_at)}
                  </Typography.Text>
                </Flex>
                <Typography.Text strong={!n.read_at} style={{ wordBreak: 'break-word' }}>
                  {n.text}
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      )}
    </Flex>
  );
}

export function NotificationBell() {
  const count = useUnreadCount();
  const [open, setOpen] = useState(false);
  const n = count.data ?? 0;
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      placement="bottomRight"
      // Always some content: a Popover without any does not open at all.
      content={<BellPanel open={open} onClose={() => setOpen(false)} />}
      destroyOnHidden
    >
      <Badge count={n} size="small" overflowCount={99} data-testid="bell-badge">
        <Button
          type="text"
          shape="circle"
          icon={<BellOutlined style={{ fontSize: 18 }} />}
          aria-label={n ? `Уведомления: ${n} непрочитанных` : 'Уведомления'}
          data-testid="bell"
        />
      </Badge>
    </Popover>
  );
}
