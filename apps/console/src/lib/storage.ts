/** localStorage / sessionStorage access that never throws (private mode, disabled storage). */

export const STORAGE_KEYS = {
  /** Selected company in the header selector (spec: "kept in local storage as the company id"). */
  companyId: 'companyId',
  /** Email remembered between the login steps (password → 2FA code). */
  loginEmail: 'loginEmail',
  /** Timestamp of the last automatic reload after a failed chunk load (reload-loop guard). */
  chunkReloadAt: 'forpost:chunkReloadAt',
  /** Side menu collapsed state. */
  siderCollapsed: 'forpost:siderCollapsed',
} as const;

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export const local = {
  get: (key: string): string | null => safe(() => window.localStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => window.localStorage.setItem(key, value), undefined),
  remove: (key: string): void => safe(() => window.localStorage.removeItem(key), undefined),
};

export const session = {
  get: (key: string): string | null => safe(() => window.sessionStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => window.sessionStorage.setItem(key, value), undefined),
};
