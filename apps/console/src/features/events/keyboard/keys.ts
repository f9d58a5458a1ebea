/*
 * Keyboard triage: the keys of the list and the event card (one table, shown by «?»), and the rule
 * of when a key press is ours — never while the user types in a field, uses a modifier, or a
 * dialog is open.
 */
import { useEffect, useRef } from 'react';

export interface KeyHelp {
  keys: string[];
  what: string;
}

/** The triage keys, the same on the list's marked row and on the card (useTriageKeys). */
export const TRIAGE_KEYS: KeyHelp[] = [
  { keys: ['s'], what: 'Изменить статус (↓/↑ и Enter или цифра)' },
  { keys: ['p'], what: 'Изменить приоритет (↓/↑ и Enter или цифра)' },
  { keys: ['a'], what: 'Назначить исполнителя' },
];

export const LIST_KEYS: KeyHelp[] = [
  { keys: ['j', '↓'], what: 'Следующее событие в списке' },
  { keys: ['k', '↑'], what: 'Предыдущее событие в списке' },
  { keys: ['Enter', 'o'], what: 'Открыть выбранное событие' },
  { keys: ['x'], what: 'Отметить событие (для массовых действий)' },
  ...TRIAGE_KEYS,
  { keys: ['/'], what: 'Перейти к поиску' },
];

export const DETAIL_KEYS: KeyHelp[] = [
  { keys: ['j', '→'], what: 'Следующее событие списка (с тем же фильтром)' },
  { keys: ['k', '←'], what: 'Предыдущее событие списка' },
  ...TRIAGE_KEYS,
  { keys: ['c'], what: 'Написать комментарий' },
  { keys: ['u', 'Esc'], what: 'Вернуться к списку' },
];

export const COMMON_KEYS: KeyHelp[] = [{ keys: ['?'], what: 'Показать горячие клавиши' }];

/** A key press the console's shortcuts may take: no modifier, not typed into a field, no dialog open. */
export function isShortcut(e: KeyboardEvent): boolean {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return false;
  const t = e.target as HTMLElement | null;
  if (t) {
    const tag = t.tagName;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || t.isContentEditable) return false;
    if (t.closest('[role="dialog"], .ant-select-dropdown, .ant-dropdown, .ant-picker-dropdown')) return false;
  }
  return !document.querySelector('.ant-modal-wrap:not([style*="display: none"]) .ant-modal, .ant-drawer-open');
}

/** Calls `handler(key, event)` for shortcut key presses while mounted (the latest handler, no re-binding). */
export function useShortcuts(handler: (key: string, e: KeyboardEvent) => boolean | undefined, enabled = true): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (!isShortcut(e)) return;
      if (ref.current(e.key, e)) e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
