/*
 * Requests an analyst can send about an event (the descriptor's `actions`: takedown, report to
 * Netoscope, recheck, allowlist…). Each asks for an optional comment and lands in the history.
 */
import { SendOutlined } from '@ant-design/icons';
import type { ActionDescriptor } from '@forpost/contract/modules';
import { Button, Card, Flex } from 'antd';
import { useState } from 'react';
import { feedback } from '../../../lib/feedback';
import { useCan } from '../../auth/useMe';
import { TakedownDialog } from '../../takedown/TakedownDialog';
import { useEventAction } from '../api/mutations';
import { ActionRequestModal } from '../components/ActionRequestModal';
import type { ExtrasProps } from './types';

export function EventActions({ m, event, canWrite }: ExtrasProps) {
  const { message } = feedback;
  const action = useEventAction(m.code, event.id);
  const [open, setOpen] = useState<ActionDescriptor | null>(null);
  const [takedown, setTakedown] = useState(false);
  // «Запрос на блокировку» of a domain is the takedown process (#32): its own dialog, not a history line.
  const canTakedown = useCan('takedown.send', event.company_id) && m.code === 'domains';
  if (!m.actions?.length || !canWrite) return null;

  const send = (comment: string | undefined) => {
    if (!open) return;
    action.mutate(
      { action: open.code, ...(comment ? { comment } : {}) },
      {
        onSuccess: (r) => {
          if (r.snapshot_throttled) message.info('Сайт уже проверяется — новая проверка возможна через минуту');
          // A record-only action is written to the event's history, nothing is sent anywhere: say so.
          else message.success(r.snapshot_queued ? 'Проверка сайта поставлена в очередь' : `Записано в историю: ${r.label}`);
          setOpen(null);
        },
      },
    );
  };

  return (
    <Card title="Действия" size="small" data-testid="event-actions">
      <Flex gap={8} wrap>
        {m.actions.map((a) => (
          <Button
            key={a.code}
            icon={<SendOutlined />}
            onClick={() => (a.code === 'takedown' && canTakedown ? setTakedown(true) : setOpen(a))}
            data-testid={`action-${a.code}`}
          >
            {a.label}
          </Button>
        ))}
      </Flex>
      <ActionRequestModal
        action={open}
        subject={`Событие №${event.id}: ${event.title}`}
        pending={action.isPending}
        onSend={send}
        onCancel={() => setOpen(null)}
      />
      {canTakedown && <TakedownDialog eventId={event.id} open={takedown} onClose={() => setTakedown(false)} />}
    </Card>
  );
}
