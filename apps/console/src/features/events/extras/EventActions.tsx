/*
 * Requests an analyst can send about an event (the descriptor's `actions`: takedown, report to
 * Netoscope, recheck, allowlist…). Each asks for an optional comment and lands in the history.
 */
import { SendOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useEventAction } from '../api/mutations';
import type { ExtrasProps } from './types';

export function EventActions({ m, event, canWrite }: ExtrasProps) {
  const { message } = App.useApp();
  const action = useEventAction(m.code, event.id);
  const [open, setOpen] = useState<{ code: string; label: string; provider?: string } | null>(null);
  const [comment, setComment] = useState('');
  if (!m.actions?.length || !canWrite) return null;

  const send = () => {
    if (!open) return;
    action.mutate(
      { action: open.code, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      {
        onSuccess: (r) => {
          if (r.snapshot_throttled) message.info('Сайт уже проверяется — новая проверка возможна через минуту');
          else message.success(r.snapshot_queued ? 'Проверка сайта поставлена в очередь' : `Выполнено: ${r.label}`);
          setOpen(null);
          setComment('');
        },
      },
    );
  };

  return (
    <Card title="Действия" size="small" data-testid="event-actions">
      <Flex gap={8} wrap>
        {m.actions.map((a) => (
          <Button key={a.code} icon={<SendOutlined />} onClick={() => setOpen(a)} data-testid={`action-${a.code}`}>
            {a.label}
          </Button>
        ))}
      </Flex>
      <Modal
        open={open !== null}
        title={open?.label}
        okText="Отправить"
        cancelText="Отмена"
        onOk={send}
        confirmLoading={action.isPending}
        onCancel={() => setOpen(null)}
        destroyOnHidden
      >
        <Flex vertical gap={8}>
          <Typography.Text>
            Событие №{event.id}: {event.title}
          </Typography.Text>
          {open?.provider && <Typography.Text type="secondary">Запрос будет отправлен: {open.provider}</Typography.Text>}
          <Input.TextArea
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            placeholder="Комментарий (необязательно)"
            autoSize={{ minRows: 3, maxRows: 8 }}
            maxLength={2000}
            aria-label="Комментарий к действию"
          />
        </Flex>
      </Modal>
    </Card>
  );
}
