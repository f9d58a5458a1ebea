/*
 * The header's bell: the unread count (polled every 45 s while the tab is visible), a panel of the
 * latest notifications — assignments, @mentions (the event's title and the comment's first line), SLA
 * breaches; alike unread ones folded into one item («Нарушение SLA: 23 события», opening the filtered
 * list) — each marked read on the way, «Отметить все прочитанными» and «Все уведомления».
 */
import { BellOutlined } from '@ant-design/icons';
import { Link } from '@tanstack/react-router';
import { Badge, Button, Empty, Flex, List, Popover, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useLatestNotifications, useMarkRead, useUnreadCount } from './api';
import { isGroup, NotificationBody, useOpenNotification } from './items';

function BellPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const latest = useLatestNotifications(open);
  const read = useMarkRead();
  const openItem = useOpenNotification(onClose);
  const items = latest.data?.items ?? [];
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
              data-group={isGroup(n) ? String(n.count) : undefined}
            >
              <NotificationBody n={n} />
            </List.Item>
          )}
        />
      )}
      <Flex justify="center" style={{ paddingTop: 8, borderTop: '1px solid var(--ant-color-split)' }}>
        <Link to="/my-notifications" onClick={onClose} data-testid="bell-all">
          Все уведомления
        </Link>
      </Flex>
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
