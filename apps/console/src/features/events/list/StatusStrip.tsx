/*
 * Counts per status of the current filter (the API's `status_counts`); a click filters by that status.
 * A broad search (more matches than the API counts) shows «Все: более 1 000» and the statuses without numbers;
 * a list counts each status up to COUNT_CAP and shows «более 10 000» for a status past it (and «Все» as
 * «более» the sum).
 */
import { SEARCH_COUNT_CAP } from '@forpost/contract/events';
import { Badge, Flex, Tag } from 'antd';
import { formatNumber } from '../../../lib/format';
import type { EventList, StatusItem } from '../model/types';

export function StatusStrip({
  statuses,
  counts,
  capped,
  selected,
  onSelect,
}: {
  statuses: readonly StatusItem[];
  counts: EventList['status_counts'];
  /** The filter matches more than SEARCH_COUNT_CAP: no per-status numbers. */
  capped: boolean;
  /** Status codes of the current filter. */
  selected: readonly string[];
  onSelect: (code: string | undefined) => void;
}) {
  if (!counts) return null;
  const byId = new Map(counts.map((c) => [c.status_id, c]));
  const total = counts.reduce((n, c) => n + c.count, 0);
  const totalText = capped
    ? `более ${formatNumber(SEARCH_COUNT_CAP)}`
    : counts.some((c) => c.capped)
      ? `более ${formatNumber(total)}`
      : formatNumber(total);
  const only = selected.length === 1 ? selected[0] : undefined;
  return (
    <Flex gap={6} wrap data-testid="status-strip" role="group" aria-label="Количество по статусам">
      <Tag.CheckableTag checked={selected.length === 0} onChange={() => onSelect(undefined)} data-testid="status-count-all">
        Все <Badge count={totalText} overflowCount={Number.MAX_SAFE_INTEGER} color="#8c8c8c" style={{ marginInlineStart: 4 }} />
      </Tag.CheckableTag>
      {statuses.map((s) => {
        const c = byId.get(s.id);
        const n = c?.count ?? 0;
        const checked = selected.includes(s.code);
        return (
          <Tag.CheckableTag
            key={s.id}
            checked={checked}
            onChange={() => onSelect(only === s.code ? undefined : s.code)}
            data-testid={`status-count-${s.code}`}
            style={{ opacity: n === 0 && !checked && !capped ? 0.75 : 1 }}
          >
            {s.name}
            {!capped && ' '}
            {!capped && (
              <Badge
                count={c?.capped ? `более ${formatNumber(n)}` : formatNumber(n)}
                overflowCount={Number.MAX_SAFE_INTEGER}
                showZero
                color={checked ? '#fff' : colorOf(s.color)}
                style={checked ? { color: '#2f54eb' } : undefined}
              />
            )}
          </Tag.CheckableTag>
        );
      })}
    </Flex>
  );
}

/** antd preset colour names → a badge colour (the tag palette's solid tones). */
const PRESET: Record<string, string> = {
  blue: '#1677ff',
  gold: '#faad14',
  purple: '#722ed1',
  green: '#52c41a',
  red: '#f5222d',
  orange: '#fa8c16',
  cyan: '#13c2c2',
  default: '#8c8c8c',
};
const colorOf = (c: string) => PRESET[c] ?? (c.startsWith('#') ? c : PRESET.default);
