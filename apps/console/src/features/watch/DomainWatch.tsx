/*
 * Domains: the watch block of the event card (#31) — the «Наблюдать» switch and the timeline of what
 * the watch saw: each distinct state with the time range it held (DNS, page, certificate) and the
 * transitions between them, newest first, in Russian. Loading, empty and error states of their own.
 */
import { EyeOutlined } from '@ant-design/icons';
import type { EventWatch, WatchState } from '@forpost/contract/watch';
import { Alert, Button, Card, Empty, Flex, Skeleton, Switch, Tag, Timeline, Tooltip, Typography } from 'antd';
import { formatDateTime } from '../../lib/format';
import { errorMessage } from '../../lib/http';
import type { ExtrasProps } from '../events/extras/types';
import { useEventWatch, useSetEventWatch } from './api';

const intervalText = (m: number) => (m % 1440 === 0 ? `${m / 1440} дн` : m % 60 === 0 ? `${m / 60} ч` : `${m} мин`);

function dnsText(s: WatchState): string {
  if (s.dns === 'nxdomain') return 'Не зарегистрирован (NXDOMAIN)';
  if (s.dns !== 'registered') return `DNS не ответил (${s.dns})`;
  const parts = [s.a.length || s.aaaa.length ? `IP: ${[...s.a, ...s.aaaa].join(', ')}` : 'нет A/AAAA'];
  if (s.ns.length) parts.push(`NS: ${s.ns.join(', ')}`);
  if (s.mx.length) parts.push(`MX: ${s.mx.join(', ')}`);
  return parts.join(' · ');
}

function StateLine({ s }: { s: WatchState }) {
  return (
    <Flex vertical gap={2} style={{ fontSize: 13 }}>
      <Typography.Text style={{ fontSize: 13, wordBreak: 'break-word' }}>{dnsText(s)}</Typography.Text>
      {(s.http_status !== null || s.http_error) && (
        <Flex gap={6} wrap align="center">
          {s.http_status !== null && <Tag color={s.http_status < 400 ? 'green' : 'orange'}>HTTP {s.http_status}</Tag>}
          {s.login_form && <Tag color="red">Форма входа</Tag>}
          {s.title && <Typography.Text style={{ fontSize: 13 }}>«{s.title}»</Typography.Text>}
          {s.http_status === null && s.http_error && (
            <Typography.Text type="secondary" style={{ fontSize: 13 }}>
              {s.http_error}
            </Typography.Text>
          )}
        </Flex>
      )}
      {s.tls_fingerprint && (
        <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-word' }}>
          Сертификат: {s.tls_issuer ?? 'издатель неизвестен'}
          {s.tls_sans.length ? ` · ${s.tls_sans.join(', ')}` : ''}
        </Typography.Text>
      )}
    </Flex>
  );
}

type Item = { at: string; key: string; order: number; node: React.ReactNode; color: string };

function itemsOf(w: EventWatch): Item[] {
  const states: Item[] = w.states.map((s) => ({
    at: s.first_seen,
    key: `s${s.id}`,
    order: 1e15 - s.id,
    color: 'gray',
    node: (
      <Flex vertical gap={2} data-testid="watch-state">
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {s.first_seen === s.last_seen
            ? formatDateTime(s.first_seen)
            : `${formatDateTime(s.first_seen)} — ${formatDateTime(s.last_seen)}`}{' '}
          · наблюдений: {s.observations}
        </Typography.Text>
        <StateLine s={s.state} />
      </Flex>
    ),
  }));
  const transitions: Item[] = w.transitions.map((t) => ({
    at: t.at,
    key: `t${t.id}`,
    order: t.id,
    color: t.kind === 'offline' ? 'gray' : t.kind === 'came_back' || t.kind === 'web_live' ? 'green' : 'red',
    node: (
      <Typography.Text strong style={{ fontSize: 13 }} data-testid="watch-transition">
        {t.label}
      </Typography.Text>
    ),
  }));
  // Newest first; at the same moment the transitions (in the table's order) come before the state they led to.
  const t = (x: string) => new Date(x).getTime();
  return [...transitions, ...states].sort((a, b) => t(b.at) - t(a.at) || a.order - b.order);
}

export function DomainWatch({ event, canWrite }: ExtrasProps) {
  const q = useEventWatch(event.id);
  const set = useSetEventWatch(event.id);
  const w = q.data;
  const title = (
    <Flex align="center" gap={8}>
      <EyeOutlined />
      Наблюдение
    </Flex>
  );
  const extra = w && (
    <Tooltip title={w.flag === null ? 'Следует решению «Наблюдать»' : undefined}>
      <Switch
        size="small"
        checked={w.flag ?? w.watched}
        disabled={!canWrite}
        loading={set.isPending}
        onChange={(v) => set.mutate(v)}
        aria-label="Наблюдать за доменом"
        data-testid="watch-toggle"
      />
    </Tooltip>
  );
  return (
    <Card title={title} extra={extra} size="small" data-testid="watch">
      {q.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : q.isError || !w ? (
        <Flex vertical gap={8} align="flex-start">
          <Typography.Text type="secondary" data-testid="watch-error">
            Наблюдение недоступно: {errorMessage(q.error)}
          </Typography.Text>
          <Button size="small" onClick={() => void q.refetch()}>
            Повторить
          </Button>
        </Flex>
      ) : (
        <Flex vertical gap={8}>
          {set.isError && <Alert type="error" showIcon message={errorMessage(set.error)} />}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {!w.company_enabled
              ? 'Наблюдение за доменами компании выключено'
              : w.watched
                ? `Проверка каждые ${intervalText(w.effective_interval_minutes)}${
                    w.last_observed_at ? ` · последняя ${formatDateTime(w.last_observed_at)}` : ' · ещё не проверялся'
                  }`
                : 'Не наблюдается'}
          </Typography.Text>
          {w.states.length === 0 && w.transitions.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Наблюдений пока нет" style={{ margin: 0 }} />
          ) : (
            <Timeline items={itemsOf(w).map((i) => ({ key: i.key, color: i.color, content: i.node }))} />
          )}
        </Flex>
      )}
    </Card>
  );
}
