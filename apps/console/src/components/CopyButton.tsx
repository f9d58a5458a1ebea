import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { COPIED_INDICATOR_MS } from '@forpost/contract/http-constants';
import { Button, type ButtonProps } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { feedback } from '../lib/feedback';

/** Writes text to the clipboard; falls back to a hidden textarea where the Clipboard API is missing. */
async function copyText(text: string): Promise<void> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return;
    }
  } catch {
    // Permission denied or not focused: try the old way.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

/** `[copied, copy]`: `copied` is true for COPIED_INDICATOR_MS (1500 ms) after a successful copy. */
function useCopy(): [boolean, (text: string) => Promise<void>] {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { message } = feedback;
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async (text: string) => {
    try {
      await copyText(text);
    } catch {
      message.error('Не удалось скопировать: выделите текст и скопируйте вручную');
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
  }, []);
  return [copied, copy];
}

export interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  text: string;
  label?: string;
}

/** «Копировать» → «Скопировано» for 1500 ms. */
export function CopyButton({ text, label = 'Копировать', ...rest }: CopyButtonProps) {
  const [copied, copy] = useCopy();
  return (
    <Button
      icon={copied ? <CheckOutlined /> : <CopyOutlined />}
      onClick={() => void copy(text)}
      data-copied={copied ? 'true' : undefined}
      {...rest}
    >
      {copied ? 'Скопировано' : label}
    </Button>
  );
}
