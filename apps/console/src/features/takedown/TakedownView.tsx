/*
 * One takedown request: its state, the recipients (editable before sending: add, remove, send now or
 * hold for escalation), the analyst's steps (send, «подтверждён получателем», «отклонён», «закрыть»),
 * the evidence (XARF, PDF) and the history of steps with who and when.
 */
import { DeleteOutlined, DownloadOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { formatDateTime } from '@forpost/contract/format';
import {
  RECIPIENT_KIND_LABELS,
  RECIPIENT_STATUS_LABELS,
  type RecipientKind,
  TAKEDOWN_ACTIONS,
  TAKEDOWN_SENDABLE,
  TAKEDOWN_STATE_LABELS,
  type TakedownAction,
  type TakedownRequest,
  type TakedownState,
  XARF_TYPE_LABELS,
} from '@forpost/contract/takedown';
import { Button, Descriptions, Flex, Input, Popconfirm, Select, Switch, Table, Tag, Timeline, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { feedback } from '../../lib/feedback';
import { useCan } from '../auth/useMe';
import { useSendTakedown, useSetRecipients, useTakedownStep } from './api';

export const STATE_COLORS: Record<TakedownState, string> = {
  draft: 'default',
  sent: 'processing',
  acknowledged: 'blue',
  down: 'success',
  closed: 'default',
  escalated: 'warning',
  rejected: 'error',
  reopened: 'magenta',
};

export function StateTag({ state }: { state: TakedownState }) {
  return (
    <Tag color={STATE_COLORS[state]} data-testid={`takedown-state-${state}`}>
      {TAKEDOWN_STATE_LABELS[state]}
    </Tag>
  );
}

interface Draft {
  kind: RecipientKind;
  email: string;
  name: string | null;
  send: boolean;
}
const draftOf = (r: TakedownRequest): Draft[] =>
  r.recipients
    .filter((x) => x.status !== 'sent')
    .map((x) => ({ kind: x.kind, email: x.email, name: x.name, send: x.status !== 'held' }));

export function TakedownView({ r }: { r: TakedownRequest }) {
  const { message } = feedback;
  const canSend = useCan('takedown.send', r.company_id);
  const editable = canSend && TAKEDOWN_SENDABLE.includes(r.state);
  const [list, setList] = useState<Draft[]>(() => draftOf(r));
  const [email, setEmail] = useState('');
  useEffect(() => setList(draftOf(r)), [r]);
  const save = useSetRecipients(r.id);
  const send = useSendTakedown(r.id);
  const step = useTakedownStep(r.id);
  const dirty = JSON.stringify(list) !== JSON.stringify(draftOf(r));
  const sent = r.recipients.filter((x) => x.status === 'sent');
  const steps = (Object.keys(TAKEDOWN_ACTIONS) as TakedownAction[]).filter((a) =>
    (TAKEDOWN_ACTIONS[a].from as readonly TakedownState[]).includes(r.state),
  );

  const doSend = async () => {
    if (dirty) await save.mutateAsync(list);
    const out = await send.mutateAsync();
    const failed = out.recipients.filter((x) => x.status === 'failed' || x.status === 'limited');
    if (out.state === 'sent') message.success(`Запрос ${out.reference} отправлен`);
    if (failed.length) message.warning(`Не отправлено: ${failed.map((x) => `${x.email} (${x.error})`).join('; ')}`);
  };

  return (
    <Flex vertical gap={16} data-testid="takedown-view">
      <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
        <Descriptions.Item label="Запрос">{r.reference}</Descriptions.Item>
        <Descriptions.Item label="Состояние">
          <StateTag state={r.state} />
        </Descriptions.Item>
        <Descriptions.Item label="Домен">{r.domain}</Descriptions.Item>
        <Descriptions.Item label="Тип (XARF)">{XARF_TYPE_LABELS[r.xarf_type]}</Descriptions.Item>
        <Descriptions.Item label="Регистратор">{r.registrar ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Хостинг">{r.hosting ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Отправлен">{r.sent_at ? formatDateTime(r.sent_at) : '—'}</Descriptions.Item>
        <Descriptions.Item label="Недоступен с">{r.down_at ? formatDateTime(r.down_at) : '—'}</Descriptions.Item>
      </Descriptions>

      <div>
        <Typography.Title level={5}>Получатели</Typography.Title>
        {sent.length > 0 && (
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={sent}
            data-testid="takedown-sent"
            columns={[
              { title: 'Адрес', dataIndex: 'email' },
              { title: 'Откуда', render: (_, x) => RECIPIENT_KIND_LABELS[x.kind] },
              { title: 'Отправлено', render: (_, x) => (x.sent_at ? formatDateTime(x.sent_at) : '—') },
              { title: 'Message-ID', dataIndex: 'message_id', ellipsis: true },
            ]}
            style={{ marginBottom: 8 }}
          />
        )}
        {(editable || list.length > 0) && (
          <Table
            size="small"
            rowKey="email"
            pagination={false}
            dataSource={list}
            data-testid="takedown-recipients"
            locale={{ emptyText: 'Получателей нет — добавьте адрес службы abuse' }}
            columns={[
              {
                title: 'Адрес',
                render: (_, x) => (
                  <Flex vertical>
                    <span>{x.email}</span>
                    {x.name && (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {x.name}
                      </Typography.Text>
                    )}
                  </Flex>
                ),
              },
              { title: 'Откуда', width: 170, render: (_, x) => RECIPIENT_KIND_LABELS[x.kind] },
              {
                title: 'Сейчас',
                width: 190,
                render: (_, x, i) => (
                  <Flex gap={8} align="center">
                    <Switch
                      size="small"
                      checked={x.send}
                      disabled={!editable}
                      onChange={(v) => setList(list.map((y, j) => (j === i ? { ...y, send: v } : y)))}
                      aria-label={`Отправить сейчас: ${x.email}`}
                    />
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {x.send ? RECIPIENT_STATUS_LABELS.proposed : RECIPIENT_STATUS_LABELS.held}
                    </Typography.Text>
                  </Flex>
                ),
              },
              {
                title: '',
                width: 48,
                render: (_, x, i) =>
                  editable && (
                    <Button
                      size="small"
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={`Убрать ${x.email}`}
                      onClick={() => setList(list.filter((_y, j) => j !== i))}
                    />
                  ),
              },
            ]}
          />
        )}
        {editable && (
          <Flex gap={8} style={{ marginTop: 8 }}>
            <Input
              placeholder="abuse@example.ru"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              data-testid="takedown-add-email"
              style={{ maxWidth: 320 }}
            />
            <Button
              icon={<PlusOutlined />}
              disabled={!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())}
              onClick={() => {
                setList([...list, { kind: 'manual', email: email.trim().toLowerCase(), name: null, send: true }]);
                setEmail('');
              }}
            >
              Добавить
            </Button>
          </Flex>
        )}
      </div>

      <Flex gap={8} wrap>
        {editable && (
          <Button
            type="primary"
            icon={<SendOutlined />}
            loading={send.isPending || save.isPending}
            disabled={!list.some((x) => x.send)}
            onClick={() => void doSend()}
            data-testid="takedown-send"
          >
            Отправить
          </Button>
        )}
        {editable && dirty && (
          <Button loading={save.isPending} onClick={() => save.mutate(list)}>
            Сохранить получателей
          </Button>
        )}
        {canSend &&
          steps.map((a) => (
            <Popconfirm key={a} title={`${TAKEDOWN_ACTIONS[a].label}?`} onConfirm={() => step.mutate({ action: a })}>
              <Button data-testid={`takedown-step-${a}`}>{TAKEDOWN_ACTIONS[a].label}</Button>
            </Popconfirm>
          ))}
        <Button icon={<DownloadOutlined />} href={`/api/v1/takedown/requests/${r.id}/pdf`}>
          PDF
        </Button>
        <Button icon={<DownloadOutlined />} href={`/api/v1/takedown/requests/${r.id}/xarf`} target="_blank">
          XARF
        </Button>
      </Flex>

      <div>
        <Typography.Title level={5}>История</Typography.Title>
        <Timeline
          data-testid="takedown-log"
          items={r.log.map((l) => ({
            color: l.to_state ? (STATE_COLORS[l.to_state] === 'success' ? 'green' : 'blue') : 'gray',
            children: (
              <Flex vertical>
                <span>
                  {l.to_state ? TAKEDOWN_STATE_LABELS[l.to_state] : l.action}
                  <Typography.Text type="secondary">
                    {' '}
                    · {formatDateTime(l.at)} · {l.actor ?? 'система'}
                  </Typography.Text>
                </span>
                {l.comment && (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {l.comment}
                  </Typography.Text>
                )}
              </Flex>
            ),
          }))}
        />
      </div>
    </Flex>
  );
}
