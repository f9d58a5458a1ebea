/*
 * The list's keyboard: j/k (↓/↑) move a marked row, Enter or o opens it, x ticks it for a bulk
 * action, s/p/a change the marked row's status, priority or assignee (the card's keys, useTriageKeys),
 * / jumps to the search, ? lists the keys. The page it shows is remembered for the event
 * card's «предыдущее / следующее».
 */
import type { ModuleCode } from '@forpost/contract/modules';
import { useNavigate } from '@tanstack/react-router';
import { type HTMLAttributes, type ReactNode, useEffect, useState } from 'react';
import type { SearchParams } from '../../../lib/http';
import type { EventRefs } from '../api/queries';
import type { EventList } from '../model/types';
import { KeysHelp } from './KeysHelp';
import { LIST_KEYS, useShortcuts } from './keys';
import { rememberListPage } from './neighbours';
import { useTriageKeys } from './useTriageKeys';

const MARK = '#2f54eb';
const ACTIVE_ROW: React.CSSProperties = { outline: `2px solid ${MARK}`, outlineOffset: -2 };
/*
 * The row's outline is drawn under its pinned cells (the name on the left, triage on the right: sticky
 * cells with their own background), so on a wide list the mark showed only between them. Each cell
 * draws its share of the frame instead.
 */
const ACTIVE_CELLS = `
tr[data-active="true"] > td { box-shadow: inset 0 2px 0 ${MARK}, inset 0 -2px 0 ${MARK}; }
tr[data-active="true"] > td:first-child { box-shadow: inset 2px 0 0 ${MARK}, inset 0 2px 0 ${MARK}, inset 0 -2px 0 ${MARK}; }
tr[data-active="true"] > td:last-child { box-shadow: inset -2px 0 0 ${MARK}, inset 0 2px 0 ${MARK}, inset 0 -2px 0 ${MARK}; }
`;

export function useListKeys(p: {
  section: string;
  code: ModuleCode;
  data: EventList | undefined;
  params: SearchParams;
  refs: EventRefs;
  canWrite: boolean;
  /** Ticks or unticks a row (undefined: the user may not select). */
  onToggle?: (id: number) => void;
}): {
  onRow: (record: { id: number }) => HTMLAttributes<HTMLElement> & { 'data-active'?: boolean };
  /** The «?» sheet, with the marked row's frame style. */
  help: ReactNode;
} {
  const navigate = useNavigate();
  const [active, setActive] = useState<number | null>(null);
  const [help, setHelp] = useState(false);
  const ids = p.data?.items.map((x) => x.id) ?? [];
  const idsKey = ids.join();

  useEffect(() => {
    if (!p.data) return;
    rememberListPage(p.section, {
      code: p.code,
      ids: p.data.items.map((x) => x.id),
      params: p.params,
      page: p.data.page,
      pageSize: p.data.page_size,
      total: p.data.total,
    });
  }, [p.data, p.params, p.section, p.code]);

  // Another page or filter: the mark starts again from the top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the rows change
  useEffect(() => setActive(null), [idsKey]);
  useEffect(() => {
    if (active === null) return;
    document.querySelector(`tr[data-row-key="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active]);

  const move = (dir: 1 | -1) => {
    if (!ids.length) return;
    const at = active === null ? -1 : ids.indexOf(active);
    const next = at < 0 ? (dir === 1 ? 0 : ids.length - 1) : Math.min(ids.length - 1, Math.max(0, at + dir));
    setActive(ids[next] ?? null);
  };

  const triage = useTriageKeys({
    code: p.code,
    refs: p.refs,
    canWrite: p.canWrite,
    target: p.data?.items.find((x) => x.id === active) ?? null,
  });

  useShortcuts((key) => {
    if (active !== null && triage.onKey(key)) return true;
    switch (key) {
      case 'j':
      case 'ArrowDown':
        move(1);
        return true;
      case 'k':
      case 'ArrowUp':
        move(-1);
        return true;
      case 'Enter':
      case 'o':
        if (active === null) return false;
        void navigate({ to: '/$section/$id', params: { section: p.section, id: String(active) } });
        return true;
      case 'x':
        if (active === null || !p.onToggle) return false;
        p.onToggle(active);
        return true;
      case '/': {
        const search = document.querySelector<HTMLInputElement>('[data-testid="filter-q"] input, input[data-testid="filter-q"]');
        search?.focus();
        return Boolean(search);
      }
      case '?':
        setHelp(true);
        return true;
      default:
        return false;
    }
  });

  return {
    onRow: (record) => (record.id === active ? { style: ACTIVE_ROW, 'data-active': true, 'aria-current': 'true' } : {}),
    help: (
      <>
        <style>{ACTIVE_CELLS}</style>
        <KeysHelp open={help} onClose={() => setHelp(false)} keys={LIST_KEYS} title="список событий" />
        {triage.node}
      </>
    ),
  };
}
