/*
 * A table that scrolls inside itself (sticky header, `scroll.x`) has a scrolling body: keyboard users
 * must be able to reach it even when it holds nothing focusable, an empty list for one (axe
 * «scrollable-region-focusable»). The body is antd's own element, so it is marked once it exists.
 */
import { useEffect, useRef } from 'react';

export function useScrollRegion<T extends HTMLElement = HTMLDivElement>(label: string) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
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
    const watch = new MutationObserver(mark);
    watch.observe(root, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [label]);
  return ref;
}
