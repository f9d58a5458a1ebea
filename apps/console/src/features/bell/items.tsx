/*
 * One notification as the bell and «Все уведомления» show it, and where it leads. A group (alike
 * unread ones folded by the API, `count` > 1) reads «Нарушение SLA: 23 события» and opens the
 * module's list filtered to them (overdue SLA of my events, in that company); a single one opens
 * its event. Opening marks it (or the whole group) read.
 */
import { NOTIFICATION_KIND_LABELS } from '@forpost/contract/enums';
import { pluralRu } from '@forpost/contract/format';
import { MODULE_SECTIONS } from '@forpost/contract/modules/sections';
import type { NotificationItem } from '@forpost/contract/notifications';
import { useNavigate } from '@tanstack/react-router';
import { Flex, Tag, Typography } from 'antd';
import { formatDateTime } from '../../lib/format';
import { sectionOfModule } from '../shell/sections';
import { useMarkRead } from './api';

export const KIND_COLORS: Record<NotificationItem['kind'], string> = {
  assigned: 'blue',
  mention: 'purple',
  sla_breach: 'red',
  watch: 'orange',
  hunt: 'red',
};

export const isGroup = (n: NotificationItem) => n.count > 1;

/** «Нарушение SLA: 23 события» for a group; the notification's own text otherwise. */
export function notificationTitle(n: NotificationItem): string {
  if (!isGroup(n)) return n.text;
  return `${NOTIFICATION_KIND_LABELS[n.kind]}: ${n.count} ${pluralRu(n.count, 'событие', 'события', 'событий')}`;
}

const moduleName = (code: string | null) => MODULE_SECTIONS.find((m) => m.code === code)?.name ?? code;

/** Opens a notification (its event, or a group's filtered list) and marks it read on the way. */
export function useOpenNotification(after?: () => void) {
  const read = useMarkRead();
  const navigate = useNavigate();
  return (n: NotificationItem) => {
    if (!n.read_at)
      read.mutate(isGroup(n) ? { group: { kind: n.kind, company_id: n.company_id, module: n.module } } : { ids: [n.id] });
    after?.();
    const companyId = n.company_id ?? undefined;
    if (isGroup(n) && n.module && n.kind === 'sla_breach')
      void navigate({
        to: '/$section',
        params: { section: sectionOfModule(n.module) },
        search: { sla: 'overdue', assignee: 'me', sort: 'sla_due_at', companyId },
      });
    else if (isGroup(n) && n.module)
      void navigate({ to: '/$section', params: { section: sectionOfModule(n.module) }, search: { assignee: 'me', companyId } });
    else if (n.event_id !== null && n.module)
      void navigate({ to: '/$section/$id', params: { section: sectionOfModule(n.module), id: String(n.event_id) } });
    else void navigate({ to: '/my-events' });
  };
}

/** The kind, time and text of a notification (a group: its count, module and newest time). */
export function NotificationBody({ n }: { n: NotificationItem }) {
  const group = isGroup(n);
  return (
    <Flex vertical gap={2} style={{ minWidth: 0 }}>
      <Flex gap={6} align="center" wrap>
        <Tag color={KIND_COLORS[n.kind]} style={{ marginInlineEnd: 0 }}>
          {NOTIFICATION_KIND_LABELS[n.kind]}
        </Tag>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {group ? `последнее ${formatDateTime(n.created_at)}` : formatDateTime(n.created_at)}
        </Typography.Text>
      </Flex>
      <Typography.Text strong={!n.read_at} style={{ wordBreak: 'break-word' }} data-testid="notification-text">
        {notificationTitle(n)}
      </Typography.Text>
      {group && n.module && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {moduleName(n.module)} · открыть список
        </Typography.Text>
      )}
    </Flex>
  );
}
