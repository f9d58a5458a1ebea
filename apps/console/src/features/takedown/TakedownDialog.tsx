/*
 * «Запрос на блокировку» of a domain event's card: the event's current request (or a draft made now:
 * evidence and recipients found by RDAP), shown by TakedownView; earlier requests listed below.
 */
import { Alert, Button, Flex, Input, Modal, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useCreateTakedown, useTakedown, useTakedownList } from './api';
import { StateTag, TakedownView } from './TakedownView';

const FINISHED = new Set(['closed', 'rejected', 'reopened']);

export function TakedownDialog({ eventId, open, onClose }: { eventId: number; open: boolean; onClose: () => void }) {
  const list = useTakedownList({ event_id: eventId, page: 1, per_page: 20 }, open);
  const items = list.data?.items ?? [];
  const current = items.find((x) => !FINISHED.has(x.state)) ?? null;
  const [picked, setPicked] = useState<number | null>(null);
  const shown = useTakedown(picked ?? current?.id ?? null);
  const create = useCreateTakedown();
  const [comment, setComment] = useState('');

  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      width={880}
      title="Запрос на блокировку"
      destroyOnHidden
      data-testid="takedown-dialog"
    >
      {list.isLoading ? (
        <Spin />
      ) : shown.data ? (
        <TakedownView r={shown.data} />
      ) : (
        <Flex vertical gap={12}>
          <Alert
            type="info"
            showIcon
            message="Будут собраны доказательства (снимок, DNS, RDAP, сертификат) и найдены адреса abuse регистратора и хостинга по RDAP. Перед отправкой получателей можно изменить."
          />
          <Input.TextArea
            rows={3}
            placeholder="Комментарий аналитика (попадёт в письмо и отчёт)"
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            maxLength={2000}
          />
          <Button
            type="primary"
            loading={create.isPending}
            data-testid="takedown-create"
            onClick={() =>
              create.mutate(
                { event_id: eventId, ...(comment.trim() ? { comment: comment.trim() } : {}) },
                { onSuccess: (r) => setPicked(r.id) },
              )
            }
          >
            Подготовить запрос
          </Button>
        </Flex>
      )}
      {items.length > 1 && (
        <Flex vertical gap={4} style={{ marginTop: 16 }}>
          <Typography.Text type="secondary">Все запросы по событию</Typography.Text>
          {items.map((x) => (
            <Button
              key={x.id}
              type="link"
              style={{ padding: 0, height: 'auto', textAlign: 'left' }}
              onClick={() => setPicked(x.id)}
            >
              {x.reference} <StateTag state={x.state} />
            </Button>
          ))}
        </Flex>
      )}
    </Modal>
  );
}
