/* The dialog of a module's action (takedown, report…) on one event or many: whom it goes to and an optional comment. */
import type { ActionDescriptor } from '@forpost/contract/modules';
import { Flex, Input, Modal, Typography } from 'antd';
import { type ReactNode, useState } from 'react';

export function ActionRequestModal({
  action,
  subject,
  pending,
  onSend,
  onCancel,
}: {
  /** The action asked for (null: closed). */
  action: ActionDescriptor | null;
  /** What it is about (the event, or how many). */
  subject: ReactNode;
  pending?: boolean;
  onSend: (comment: string | undefined) => void;
  onCancel: () => void;
}) {
  const [comment, setComment] = useState('');
  return (
    <Modal
      open={action !== null}
      title={action?.label}
      okText="Отправить"
      cancelText="Отмена"
      onOk={() => onSend(comment.trim() || undefined)}
      confirmLoading={pending}
      onCancel={onCancel}
      afterClose={() => setComment('')}
      destroyOnHidden
    >
      <Flex vertical gap={8}>
        <Typography.Text>{subject}</Typography.Text>
        {action?.provider && <Typography.Text type="secondary">Запрос будет отправлен: {action.provider}</Typography.Text>}
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
  );
}
