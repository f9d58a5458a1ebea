import { useSyncExternalStore } from 'react';

/**
 * A request made in 'global' error mode that failed with 403/404/500/503 replaces the current page
 * with the full error page. The default layout renders it and clears it on the next navigation.
 */
export interface GlobalError {
  status: number;
  message: string;
}

let current: GlobalError | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export function setGlobalError(error: GlobalError | null): void {
  if (current === error) return;
  current = error;
  emit();
}

export const clearGlobalError = (): void => setGlobalError(null);

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useGlobalError(): GlobalError | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
