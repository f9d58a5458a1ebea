/* Domains: the snapshots timeline (screenshot, IP, HTTP status, page title at each check). */
import { Card, Empty, Flex, Image, Skeleton, Tag, Timeline, Typography } from 'antd';
import { EMPTY_VALUE, formatDateTime } from '../../../lib/format';
import { docContentUrl } from '../api/paths';
import { useSnapshots } from '../api/queries';
import type { ExtrasProps } from './types';

const httpColor = (s: number) => (s < 300 ? 'green' : s < 400 ? 'blue' : s < 500 ? 'orange' : 'red');

export function DomainSnapshots({ event }: ExtrasProps) {
  const snapshots = useSnapshots(event.id);
  const items = snapshots.data ?? [];
  return (
    <Card title={`Снимки${items.length ? ` (${items.length})` : ''}`} size="small" data-testid="domain-snapshots">
      {snapshots.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : snapshots.isError ? (
        <Typography.Text type="secondary">Снимки недоступны</Typography.Text>
      ) : items.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description="Снимков ещё нет — «Перепроверить» запросит новый"
          style={{ margin: 0 }}
        />
      ) : (
        <Image.PreviewGroup>
          <Timeline
            items={items.map((s) => ({
              key: s.id,
              color: s.http_status ? httpColor(s.http_status) : 'gray',
              content: (
                <Flex gap={12} align="flex-start">
                  {s.screenshot_doc_id && (
                    <Image
                      src={docContentUrl(s.screenshot_doc_id)}
                      alt={`Снимок ${formatDateTime(s.taken_at)}`}
                      width={120}
                      height={80}
                      style={{ objectFit: 'cover', borderRadius: 4, border: '1px solid rgba(0,0,0,.06)' }}
                    />
                  )}
                  <Flex vertical gap={2}>
                    <Typography.Text strong>{formatDateTime(s.taken_at)}</Typography.Text>
                    <Flex gap={6} wrap>
                      {s.http_status && <Tag color={httpColor(s.http_status)}>HTTP {s.http_status}</Tag>}
                      <Typography.Text type="secondary">IP: {s.ip ?? EMPTY_VALUE}</Typography.Text>
                    </Flex>
                    {s.page_title && <Typography.Text>{s.page_title}</Typography.Text>}
                  </Flex>
                </Flex>
              ),
            }))}
          />
        </Image.PreviewGroup>
      )}
    </Card>
  );
}
