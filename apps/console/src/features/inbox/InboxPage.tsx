/*
 * «Все уведомления» (/my-notifications): every notification of the signed-in user, newest first,
 * alike unread ones folded as in the bell («Нарушение SLA: 23 события»); all or only unread, pages,
 * «Отметить все прочитанными», a row's «Прочитано»; a row opens its event (or a group's filtered list).
 */
import type { NotificationItem } from '@forpost/contract/notifications';
import { Button, Card, Flex, Segmented, Typography } from 'antd';
import { ListTable } from '../../components/list/ListTable';
import type { SearchPatch } from '../../components/list/listSearch';
import { pageParams } from '../../components/list/pagination';
import { PageHeading } from '../../components/page/PageHeading';
import { EmptyState } from '../../components/page/QueryState';
import { useMarkRead, useNotificationsPage } from '../bell/api';
import { isGroup, NotificationBody, useOpenNotification } from '../bell/items';
import type { InboxSearch } from './search';

export function InboxPage({ search, onSearch }: { search: InboxSearch; onSearch: (p: SearchPatch<InboxSearch>) => void }) {
  const unread = search.state === 'unread';
  const { page, page_size } = pageParams(search);
  const list = useNotificationsPage({ page, page_size: Math.min(page_size, 100), unread });
  const read = useMarkRead();
  const open = useOpenNotification();
  const markRead = (n: NotificationItem) =>
    read.mutate(isGroup(n) ? { group: { kind: n.kind, company_id: n.company_id, module: n.module } } : { ids: [n.id] });

  return (
    <>
      <PageHeading
        title="Уведомления"
        subtitle="Назначения, упоминания в комментариях и нарушения SLA"
        extra={
          <Button
            onClick={() => read.mutate({ all: true })}
            disabled={!list.data?.unread || read.isPending}
            data-testid="inbox-read-all"
          >
            Отметить все прочитанными
          </Button>
        }
      />
      <Card>
        <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
          <Segmented
            value={unread ? 'unread' : 'all'}
            options={[
              { value: 'all', label: 'Все' },
              { value: 'unread', label: `Непрочитанные${list.data ? `: ${list.data.unread}` : ''}` },
            ]}
            onChange={(v) => onSearch({ state: v === 'unread' ? 'unread' : undefined, page: undefined })}
            data-testid="inbox-state"
          />
        </Flex>
        <ListTable<NotificationItem>
          query={list}
          paging={{ search, onSearch, options: { showTotal: (t) => `Всего: ${t}` } }}
          showHeader={false}
          data-testid="inbox-table"
          onRow={(n) => ({
            'data-unread': n.read_at ? undefined : 'true',
            style: { background: n.read_at ? undefined : 'rgba(47, 84, 235, 0.06)' },
          })}
          locale={{
            emptyText: <EmptyState text={unread ? 'Непрочитанных уведомлений нет' : 'Уведомлений пока нет'} />,
          }}
          columns={[
            {
              key: 'body',
              render: (_, n) => (
                <Typography.Link onClick={() => open(n)} style={{ display: 'block', color: 'inherit' }} data-testid="inbox-item">
                  <NotificationBody n={n} />
                </Typography.Link>
              ),
            },
            {
              key: 'actions',
              width: 140,
              align: 'right',
              render: (_, n) =>
                n.read_at ? (
                  <Typography.Text type="secondary">Прочитано</Typography.Text>
                ) : (
                  <Button size="small" onClick={() => markRead(n)} data-testid="inbox-mark-read">
                    Прочитано
                  </Button>
                ),
            },
          ]}
        />
      </Card>
    </>
  );
}
