/*
 * A keyboard pick of one value (status, priority): the options numbered 1–9; ↓/↑ move the highlight
 * (it starts on the current value), Enter applies the highlighted one, a digit or a click chooses at
 * once, Esc closes. The keys are taken before the dialog's focused button sees them, so Enter applies
 * the highlight rather than pressing whatever button has the focus.
 */
import { Button, Flex, Modal, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';

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
  const shown = options.slice(0, 9);
  const [hi, setHi] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the highlight starts on the current value when the pick opens
  useEffect(() => {
    if (open)
      setHi(
        Math.max(
          0,
          shown.findIndex((o) => o.id === current),
        ),
      );
  }, [open]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const take = () => {
        e.preventDefault();
        e.stopPropagation();
      };
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        take();
        const d = e.key === 'ArrowDown' ? 1 : -1;
        setHi((h) => (h + d + shown.length) % shown.length);
        return;
      }
      if (e.key === 'Enter') {
        take();
        const o = shown[hi];
        if (o) onPick(o.id);
        return;
      }
      const n = Number(e.key);
      if (!Number.isInteger(n) || n < 1 || n > shown.length) return;
      const o = shown[n - 1];
      if (!o) return;
      take();
      onPick(o.id);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [open, shown, hi, onPick]);
  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} width={420} destroyOnHidden>
      <Flex vertical gap={6} data-testid="quick-pick" role="listbox" aria-label={title}>
        {shown.map((o, i) => (
          <Button
            key={o.id}
            block
            role="option"
            aria-selected={i === hi}
            data-highlighted={i === hi || undefined}
            style={{ justifyContent: 'flex-start', ...(i === hi ? { outline: '2px solid #2f54eb', outlineOffset: 1 } : {}) }}
            type={o.id === current ? 'primary' : 'default'}
            ghost={o.id === current}
            onMouseEnter={() => setHi(i)}
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
