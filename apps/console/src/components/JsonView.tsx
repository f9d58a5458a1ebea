import { theme } from 'antd';
import type { CSSProperties } from 'react';

/** Pretty-printed JSON in a scrollable monospace block ('—' for null/undefined). */
export function JsonView({ value, maxHeight = 360, style }: { value: unknown; maxHeight?: number; style?: CSSProperties }) {
  const { token } = theme.useToken();
  const text = value === undefined || value === null ? '—' : JSON.stringify(value, null, 2);
  return (
    <pre
      style={{
        margin: 0,
        padding: '8px 12px',
        maxHeight,
        overflow: 'auto',
        background: token.colorFillQuaternary,
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadius,
        fontSize: 12,
        lineHeight: 1.5,
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
        ...style,
      }}
    >
      {text}
    </pre>
  );
}
