/*
 * Domains: the snapshots timeline — at each check the time, HTTP status, IP, final URL, page title
 * and the screenshot (opens full size); a failed check shows its reason. After «Перепроверить» the
 * timeline waits for the new snapshot (the producer is a background job).
 */
import { CameraOutlined, LoadingOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Card, Empty, Flex, Image, Skeleton, Tag, Timeline, Tooltip, Typography } from 'antd';
import { useMemo } from 'react';
import { EMPTY_VALUE, formatDateTime } from '../../../lib/format';
import { docContentUrl } from '../api/paths';
import { SNAPSHOT_WAIT_MS, snapshotAwaited, useEventHistory, useSnapshots } from '../api/queries';
import { SafeLink } from '../components/values';
import type { ExtrasProps } from './types';

const httpColor = (s: number) => (s < 300 ? 'green' : s < 400 ? 'blue' : s < 500 ? 'orange' : 'red');

type Snapshot = NonNullable<ReturnType<typeof useSnapshots>['data']>[number];

function colorOf(s: Snapshot) {
  if (s.http_status) return s.error ? 'orange' : httpColor(s.http_status);
  return s.error ? 'red' : 'gray';
}

function Thumb({ s }: { s: Snapshot }) {
  if (s.screenshot_doc_id)
    return (
      <Image
        src={docContentUrl(s.screenshot_doc_id)}
        alt={`Снимок ${formatDateTime(s.taken_at)}`}
        width={160}
        height={100}
        style={{ objectFit: 'cover', objectPosition: 'top', borderRadius: 4, border: '1px solid rgba(0,0,0,.06)' }}
        preview={{ mask: 'Открыть' }}
        data-testid="snapshot-screenshot"
      />
    );
  return (
    <Tooltip
      title={
        s.http_status
          ? 'Скриншот не сделан: браузер для снимков недоступен или страница не открылась'
          : 'Сайт не ответил — снимать нечего'
      }
    >
      <Flex
        vertical
        align="center"
        justify="center"
        gap={2}
        style={{
          width: 160,
          height: 100,
          flex: 'none',
          borderRadius: 4,
          border: '1px dashed rgba(0,0,0,.15)',
          color: 'rgba(0,0,0,.45)',
        }}
        data-testid="snapshot-no-screenshot"
      >
        <CameraOutlined style={{ fontSize: 20 }} />
        <span style={{ fontSize: 12 }}>Без скриншота</span>
      </Flex>
    </Tooltip>
  );
}

export function DomainSnapshots({ m, event }: ExtrasProps) {
  const history = useEventHistory(m.code, event.id);
  // The last «Перепроверить»: the timeline polls until a snapshot newer than it arrives.
  const pendingSince = useMemo(() => {
    const last = history.data?.find((h) => h.action === 'action' && h.field === 'recheck');
    const at = last ? Date.parse(last.at) : Number.NaN;
    return Number.isNaN(at) || Date.now() - at > SNAPSHOT_WAIT_MS ? null : at;
  }, [history.data]);
  const snapshots = useSnapshots(m.code, event.id, pendingSince);
  const items = snapshots.data ?? [];
  const waiting = snapshotAwaited(items, pendingSince);

  return (
    <Card title={`Снимки${items.length ? ` (${items.length})` : ''}`} size="small" data-testid="domain-snapshots">
      {waiting && (
        <Alert
          type="info"
          showIcon
          icon={<LoadingOutlined />}
          title="Проверка сайта выполняется — снимок появится здесь"
          style={{ marginBottom: 12 }}
          data-testid="snapshot-pending"
        />
      )}
      {snapshots.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : snapshots.isError ? (
        <Typography.Text type="secondary">Снимки недоступны</Typography.Text>
      ) : items.length === 0 ? (
        waiting ? null : (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description="Снимков ещё нет — «Перепроверить» запросит новый"
            style={{ margin: 0 }}
          />
        )
      ) : (
        <Image.PreviewGroup>
          <Timeline
            items={items.map((s) => ({
              key: s.id,
              color: colorOf(s),
              content: (
                <Flex gap={12} align="flex-start" data-testid="snapshot-item">
                  <Thumb s={s} />
                  <Flex vertical gap={4} style={{ minWidth: 0 }}>
                    <Typography.Text strong>{formatDateTime(s.taken_at)}</Typography.Text>
                    <Flex gap={6} wrap align="center">
                      {s.http_status ? (
                        <Tag color={httpColor(s.http_status)} style={{ marginInlineEnd: 0 }}>
                          HTTP {s.http_status}
                        </Tag>
                      ) : (
                        <Tag color="red" style={{ marginInlineEnd: 0 }}>
                          Нет ответа
                        </Tag>
                      )}
                      <Typography.Text type="secondary">IP: {s.ip ?? EMPTY_VALUE}</Typography.Text>
                    </Flex>
                    {s.page_title && (
                      <Typography.Text style={{ wordBreak: 'break-word' }} data-testid="snapshot-title">
                        {s.page_title}
                      </Typography.Text>
                    )}
                    {s.final_url && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        Адрес: <SafeLink href={s.final_url} />
                      </Typography.Text>
                    )}
                    {s.error && (
                      <Typography.Text type={s.http_status ? 'warning' : 'danger'} data-testid="snapshot-error">
                        <WarningOutlined /> {s.error}
                      </Typography.Text>
                    )}
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
