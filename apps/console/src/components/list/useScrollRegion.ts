/*
 * A table that scrolls inside itself (sticky header, `scroll.x`) has a scrolling body: keyboard users
 * must be able to reach it even when it holds nothing focusable, an empty list for one (axe
 * «scrollable-region-focusable»). The body is antd's own element, so it is marked once it exists.
 * A callback ref: the wrapper may mount later than the page (after the list's first load).
 */
import { useCallback, useRef } from 'react';

export function useScrollRegion<T extends HTMLElement = HTMLDivElement>(label: string) {
  const watching = useRef<MutationObserver | null>(null);
  return useCallback(
    (root: T | null) => {
      watching.current?.disconnect();
      watching.current = null;
      if (!root) return;
      const mark = () => {
        for (const el of root.querySelectorAll<HTMLElement>('.ant-table-body, .ant-table-content')) {
          if (el.hasAttribute('tabindex')) continue;
          el.tabIndex = 0;
          el.setAttribute('role', 'region');
          el.setAttribute('aria-label', label);
        }
      };
      mark();
      watching.current = new MutationObserver(mark);
      watching.current.observe(root, { childList: true, subtree: true });
    },
    [label],
  );
}
