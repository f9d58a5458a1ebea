/*
 * Value lists and small checks without zod, re-exported by the modules they belong to (whitelist,
 * telegram, analytics …), so every other import stays as it is. The console's route tree imports them
 * from here: its search validators run before any page loads, and importing a constant from a module
 * with schemas would bring those schemas and zod into the sign-in page's bundle (issue #16).
 */

/** Lists: the default and the largest page. */
export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 20;

/** The analytics period presets. */
export const PERIOD_PRESETS = ['7d', '30d', '90d'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day `YYYY-MM-DD` (not 2026-02-30). */
export const isDay = (s: string): boolean =>
  DAY_RE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s);

/** Sorts of «Мои события». */
/** «Мои события»: `sla_due_at` (the default) — the nearest deadline first, events without one last. */
export const MY_EVENTS_SORTS = [
  'sla_due_at',
  '-sla_due_at',
  '-created_at',
  'created_at',
  '-priority',
  'priority',
  'status',
  '-status',
] as const;
export const MY_EVENTS_DEFAULT_SORT = 'sla_due_at';

export const TELEGRAM_ACCOUNT_STATUSES = ['active', 'paused', 'banned'] as const;
export type TelegramAccountStatus = (typeof TELEGRAM_ACCOUNT_STATUSES)[number];

export const WHITELIST_SORTS = [
  'created_at',
  '-created_at',
  'value',
  '-value',
  'type',
  '-type',
  'expires_at',
  '-expires_at',
] as const;

export const WHITELIST_TYPES = ['domain', 'url', 'email', 'ip', 'name', 'inn'] as const;
export type WhitelistType = (typeof WHITELIST_TYPES)[number];

/** The console themes (a user preference). */
export const THEMES = ['light', 'dark', 'system'] as const;
export type ThemePreference = (typeof THEMES)[number];
export const THEME_LABELS: Record<ThemePreference, string> = { light: 'Светлая', dark: 'Тёмная', system: 'Как в системе' };

/** What the bell notifies of. */
export const NOTIFICATION_KINDS = ['assigned', 'mention', 'sla_breach', 'watch', 'hunt'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  assigned: 'Назначение',
  mention: 'Упоминание',
  sla_breach: 'Нарушение SLA',
  watch: 'Наблюдение',
  hunt: 'Поиск утечек',
};
