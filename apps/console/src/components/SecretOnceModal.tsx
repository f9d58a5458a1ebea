import { Alert, Button, Flex, Modal, Typography } from 'antd';
import type { ReactNode } from 'react';
import { CopyButton } from './CopyButton';

export interface SecretOnceModalProps {
  open: boolean;
  title: string;
  /** The secret (password, key). Nothing is rendered while it is null. */
  secret: string | null;
  /** What the secret is and what to do with it. */
  description?: ReactNode;
  /** The warning; by default: it is shown once. */
  warning?: ReactNode;
  onClose: () => void;
  closeText?: string;
}

/**
 * A secret shown exactly once (generated password, product key, API key): monospace text, a copy
 * button with the 1500 ms «Скопировано» mark, and a warning that it will not be shown again.
 * Closing needs an explicit click: the mask and Esc do not close it.
 */
export function SecretOnceModal({
  open,
  title,
  secret,
  description,
  warning = 'Сохраните его сейчас: после закрытия окна он больше не будет показан.',
  onClose,
  closeText = 'Я сохранил, закрыть',
}: SecretOnceModalProps) {
  return (
    <Modal
      open={open && secret !== null}
      title={title}
      onCancel={onClose}
      maskClosable={false}
      keyboard={false}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          {closeText}
        </Button>
      }
      width={620}
    >
      <Flex vertical gap={12}>
        {description && <Typography.Paragraph style={{ margin: 0 }}>{description}</Typography.Paragraph>}
        <Flex gap={8} align="center">
          <Typography.Text
            code
            data-testid="secret-value"
            style={{ flex: 1, fontSize: 15, padding: '6px 8px', wordBreak: 'break-all', userSelect: 'all' }}
          >
            {secret}
          </Typography.Text>
          {secret && <CopyButton text={secret} data-testid="secret-copy" />}
        </Flex>
        <Alert type="warning" showIcon title={warning} />
      </Flex>
    </Modal>
  );
}
