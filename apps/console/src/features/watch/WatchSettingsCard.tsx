/*
 * A company's watch (#31) on its page: on/off, how often each watched domain is observed, and per
 * transition the priority its event is raised to. Read with discovery.read, saved with discovery.manage.
 */
import {
  MAX_WATCH_INTERVAL_MINUTES,
  MIN_WATCH_INTERVAL_MINUTES,
  TRANSITION_KINDS,
  TRANSITIONS,
  type TransitionKind,
  WATCH_MSG,
  WATCH_PRIORITIES,
  type WatchPriority,
  type WatchRules,
  type WatchSettings,
} from '@forpost/contract/watch';
import { Alert, Button, Card, Flex, InputNumber, Select, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { LoadError, LoadingCard } from '../../components/page/QueryState';
import { feedback } from '../../lib/feedback';
import { errorMessage } from '../../lib/http';
import { useCan } from '../auth/useMe';
import { useSaveWatchSettings, useWatchSettings } from './api';

const PRIORITY_LABELS: Record<WatchPriority, string> = {
  low: 'Низкий',
  medium: 'Средний',
  high: 'Высокий',
  critical: 'Критический',
};

export function WatchSettingsCard({ companyId }: { companyId: number }) {
  const q = useWatchSettings(companyId);
  const canEdit = useCan('discovery.manage', companyId);
  if (q.isError && !q.data) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <LoadingCard rows={4} />;
  return <Editor key={q.data.updated_at ?? 'default'} companyId={companyId} data={q.data} canEdit={canEdit} />;
}

function Editor({ companyId, data, canEdit }: { companyId: number; data: WatchSettings; canEdit: boolean }) {
  const save = useSaveWatchSettings(companyId);
  const [enabled, setEnabled] = useState(data.enabled);
  const [hours, setHours] = useState<number | null>(data.interval_minutes / 60);
  const [rules, setRules] = useState<WatchRules>(data.rules);
  const minutes = hours === null ? Number.NaN : Math.round(hours * 60);
  const badInterval = !(minutes >= MIN_WATCH_INTERVAL_MINUTES && minutes <= MAX_WATCH_INTERVAL_MINUTES);

  const submit = () =>
    save.mutate(
      { enabled, interval_minutes: minutes, rules },
      { onSuccess: () => void feedback.message.success('Наблюдение сохранено') },
    );

  return (
    <Card size="small" style={{ maxWidth: 900 }} data-testid="watch-settings">
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          Зарегистрированные домены-двойники с решением «Наблюдать» или с включённым наблюдением в карточке проверяются по
          расписанию: DNS (A/AAAA, NS, MX), страница (статус, заголовок, форма входа), TLS-сертификат. Каждое изменение — переход
          в истории события. Сейчас наблюдается доменов: {data.watched}.
        </Typography.Paragraph>
        <Space size="large" wrap>
          <Space>
            <Switch checked={enabled} onChange={setEnabled} disabled={!canEdit} aria-label="Наблюдение включено" />
            <span>Наблюдение включено</span>
          </Space>
          <Space>
            <span>Проверять каждые</span>
            <InputNumber
              // The bounds are checked below with the contract's message (antd would silently clamp them).
              min={0}
              step={1}
              value={hours}
              onChange={(v) => setHours(v)}
              disabled={!canEdit}
              status={badInterval ? 'error' : undefined}
              aria-label="Интервал, часов"
              data-testid="watch-interval"
            />
            <span>ч</span>
          </Space>
        </Space>
        {badInterval && <Typography.Text type="danger">{WATCH_MSG.interval}</Typography.Text>}
        <Table
          size="small"
          pagination={false}
          rowKey="kind"
          dataSource={TRANSITION_KINDS.map((kind) => ({ kind }))}
          columns={[
            {
              title: 'Переход',
              key: 'label',
              render: (_, r: { kind: TransitionKind }) => (
                <Flex vertical>
                  <span>{TRANSITIONS[r.kind].label}</span>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {TRANSITIONS[r.kind].hint}
                  </Typography.Text>
                </Flex>
              ),
            },
            {
              title: 'Поднять приоритет до',
              key: 'priority',
              width: 220,
              render: (_, r: { kind: TransitionKind }) => (
                <Select
                  style={{ width: 200 }}
                  value={rules[r.kind] ?? ''}
                  disabled={!canEdit}
                  aria-label={`Приоритет: ${TRANSITIONS[r.kind].label}`}
                  data-testid={`watch-rule-${r.kind}`}
                  options={[
                    { value: '', label: 'Не менять' },
                    ...WATCH_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] })),
                  ]}
                  onChange={(v: string) =>
                    setRules((x) => {
                      const { [r.kind]: _, ...rest } = x;
                      return v ? { ...rest, [r.kind]: v as WatchPriority } : rest;
                    })
                  }
                />
              ),
            },
          ]}
        />
        {save.isError && <Alert type="error" showIcon message={errorMessage(save.error)} />}
        {canEdit && (
          <div>
            <Button type="primary" onClick={submit} loading={save.isPending} disabled={badInterval} data-testid="watch-save">
              Сохранить
            </Button>
          </div>
        )}
      </Flex>
    </Card>
  );
}
