import type { CSSProperties } from 'react';
import type { Segment } from '../highlight';

const MARK_STYLE: CSSProperties = { background: '#ffe58f', color: 'inherit', padding: '0 1px', borderRadius: 2 };

/** Segments of a highlighted text as React text nodes: the matched words in <mark>, nothing else as markup. */
export function Highlighted({ segments, style }: { segments: readonly Segment[]; style?: CSSProperties }) {
  return (
    <span style={style}>
      {segments.map((s, i) =>
        s.mark ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are a fixed split of one string
          <mark key={i} style={MARK_STYLE}>
            {s.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <span key={i}>{s.text}</span>
        ),
      )}
    </span>
  );
}
