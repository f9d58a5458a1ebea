/*
 * The console theme (light, dark or the system's): the user's preference `theme`, kept in localStorage
 * too so the first paint (before the preferences load) already has the right colours.
 */
import { THEMES, type ThemePreference } from '@forpost/contract/enums';
import { useEffect, useSyncExternalStore } from 'react';
import { local } from '../../lib/storage';
import { usePreferences, usePutPreference } from './api';

const STORAGE_KEY = 'forpost:theme';
const isTheme = (v: unknown): v is ThemePreference => (THEMES as readonly unknown[]).includes(v);

let current: ThemePreference = (() => {
  const v = local.get(STORAGE_KEY);
  return isTheme(v) ? v : 'light';
})();
const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

function setTheme(t: ThemePreference) {
  if (t === current) return;
  current = t;
  local.set(STORAGE_KEY, t);
  for (const l of listeners) l();
}

export const useThemePreference = () => useSyncExternalStore(subscribe, () => current);

/** Whether a media query of the system's settings matches now. */
const matches = (query: string) => typeof window !== 'undefined' && Boolean(window.matchMedia?.(query).matches);

const DARK_QUERY = '(prefers-color-scheme: dark)';
const systemDark = () => matches(DARK_QUERY);
const subscribeSystem = (l: () => void) => {
  const mq = window.matchMedia?.(DARK_QUERY);
  mq?.addEventListener('change', l);
  return () => mq?.removeEventListener('change', l);
};

/** Is the console dark now (the preference, or the system's scheme for «Как в системе»)? */
export function useDarkMode(): boolean {
  const pref = useThemePreference();
  const sys = useSyncExternalStore(subscribeSystem, systemDark);
  return pref === 'dark' || (pref === 'system' && sys);
}

/**
 * Has the user asked the system for less motion (WCAG 2.3.3)? Then dialogs, menus and toasts appear
 * without their opening animations.
 */
export const prefersReducedMotion = (): boolean => matches('(prefers-reduced-motion: reduce)');

/**
 * Follows the signed-in user's stored theme (it comes with them to another machine) and returns the
 * setter of the user menu: applied at once, then saved.
 */
export function useThemeSetting(): [ThemePreference, (t: ThemePreference) => void] {
  const prefs = usePreferences();
  const put = usePutPreference();
  const stored = prefs.data?.theme;
  const loaded = prefs.isSuccess;
  useEffect(() => {
    if (loaded) setTheme(isTheme(stored) ? stored : 'light');
  }, [loaded, stored]);
  const pref = useThemePreference();
  return [
    pref,
    (t) => {
      setTheme(t);
      put.mutate({ key: 'theme', value: t });
    },
  ];
}
