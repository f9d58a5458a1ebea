/*
 * A keyboard pick of one value (status, priority): the options numbered 1–9, a digit or a click
 * chooses, Esc closes. The current value is marked.
 */
import { Button, Flex, Modal, Tag, Typography } from 'antd';
import { useEffect } from 'react';

export interface PickOption {
  id: number;
  name: string;
  color?: string;
}

export function QuickPick({
  open,
  title,
  options,
  current,
  onPick,
  onClose,
}: {
  open: boolean;
  title: string;
  options: readonly PickOption[];
  current: number | null | undefined;
  onPick: (id: number) => void;
  onClose: () => void;
}) {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      const n = Number(e.key);
      if (!Number.isInteger(n) || n < 1 || n > options.length) return;
      const o = options[n - 1];
      if (!o) return;
      e.preventDefault();
      onPick(o.id);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, options, onPick]);
  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} width={420} destroyOnHidden>
      <Flex vertical gap={6} data-testid="quick-pick">
        {options.slice(0, 9).map((o, i) => (
          <Button
            key={o.id}
            block
            style={{ justifyContent: 'flex-start' }}
            type={o.id === current ? 'primary' : 'default'}
            ghost={o.id === current}
            onClick={() => onPick(o.id)}
          >
            <Typography.Text keyboard>{i + 1}</Typography.Text>
            <Tag color={o.color} style={{ marginInlineEnd: 0 }}>
              {o.name}
            </Tag>
            {o.id === current && <Typography.Text type="secondary">сейчас</Typography.Text>}
          </Button>
        ))}
      </Flex>
    </Modal>
  );
}
