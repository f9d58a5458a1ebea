/* The list's columns for this user (their chosen ones, server-side) and the width the table has to show them in. */
import type { ModuleDescriptor } from '@forpost/contract/modules';
import { columnsPrefKey } from '@forpost/contract/views';
import { useEffect, useMemo, useState } from 'react';
import { usePreferences } from '../../views/api';
import { visibleColumnKeys } from './columns';

export function useListLayout(m: ModuleDescriptor) {
  const prefs = usePreferences();
  const chosen = prefs.data?.[columnsPrefKey(m.code)];
  const keys = useMemo(() => visibleColumnKeys(m, Array.isArray(chosen) ? (chosen as string[]) : undefined), [m, chosen]);
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [width, setWidth] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(([e]) => setWidth(e?.contentRect.width));
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  /** `ref`: the element around the table (its width decides whether columns can be pinned). */
  return { keys, width, ref: setEl };
}
