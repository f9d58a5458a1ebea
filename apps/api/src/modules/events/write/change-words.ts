/*
 * A change of events in words, for the audit log and the «Отменить» notice: «Статус: Новое → В работе;
 * теги: +«Фишинг»» rather than `tags_add:[5]`. Built from the history entries the change wrote, so it
 * says what really changed (events already at the new value add nothing).
 */
import type { ModuleDescriptor } from '@forpost/contract/modules';
import type { HistoryEntry } from '../events.repo';
import type { Refs } from '../refs/refs';

/** The fields a batch change may set, as history names them, in the order the words list them. */
export const UNDO_FIELDS = ['status_id', 'priority_id', 'decision_id', 'assignee_id', 'tags'] as const;
export type UndoField = (typeof UNDO_FIELDS)[number];
export const isUndoField = (f: string | null): f is UndoField => (UNDO_FIELDS as readonly string[]).includes(f ?? '');

const LABEL: Record<UndoField, string> = {
  status_id: 'Статус',
  priority_id: 'Приоритет',
  decision_id: 'Решение',
  assignee_id: 'Исполнитель',
  tags: 'Теги',
};
const NONE = 'не задан';
/** At most this many distinct «before» values are named; more read «…». */
const NAMED = 3;

const ints = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);

/** The tag ids a change's words need names for. */
export function tagIdsOf(entries: readonly HistoryEntry[]): number[] {
  return [...new Set(entries.filter((h) => h.field === 'tags').flatMap((h) => [...ints(h.before), ...ints(h.after)]))];
}

export function changeWords(
  m: ModuleDescriptor,
  refs: Refs,
  entries: readonly HistoryEntry[],
  tagNames: ReadonlyMap<number, string>,
): string {
  const nameIn = (list: readonly { id: number; name: string }[], v: unknown) =>
    v === null || v === undefined ? NONE : (list.find((x) => x.id === v)?.name ?? `№${String(v)}`);
  const valueName = (field: UndoField, v: unknown): string => {
    switch (field) {
      case 'status_id':
        return nameIn(refs.statuses(m.code), v);
      case 'priority_id':
        return nameIn(refs.priorities(m.code), v);
      case 'decision_id':
        return nameIn(refs.decisions(m.code), v);
      case 'assignee_id': {
        const a = v as { id?: number; name?: string } | null | undefined;
        return a ? (a.name ?? `№${String(a.id)}`) : NONE;
      }
      default:
        return String(v);
    }
  };
  const tag = (id: number) => `«${tagNames.get(id) ?? `№${id}`}»`;
  const parts: string[] = [];
  for (const field of UNDO_FIELDS) {
    const of = entries.filter((h) => h.field === field);
    if (!of.length) continue;
    const label = parts.length ? LABEL[field].toLowerCase() : LABEL[field];
    if (field === 'tags') {
      const added = new Set<number>();
      const removed = new Set<number>();
      for (const h of of) {
        const was = ints(h.before);
        const now = ints(h.after);
        for (const t of now) if (!was.includes(t)) added.add(t);
        for (const t of was) if (!now.includes(t)) removed.add(t);
      }
      const words = [...[...added].map((t) => `+${tag(t)}`), ...[...removed].map((t) => `−${tag(t)}`)];
      if (words.length) parts.push(`${label}: ${words.join(', ')}`);
      continue;
    }
    const befores = [...new Set(of.map((h) => valueName(field, h.before)))];
    const afters = [...new Set(of.map((h) => valueName(field, h.after)))];
    const before = befores.length > NAMED ? `${befores.slice(0, NAMED).join(', ')}, …` : befores.join(', ');
    parts.push(`${label}: ${before} → ${afters.join(', ')}`);
  }
  return parts.join('; ');
}
