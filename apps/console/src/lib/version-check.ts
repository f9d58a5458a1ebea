import { RELOAD_GUARD_MS, VERSION_POLL_MS } from '@forpost/contract/http-constants';
import { STORAGE_KEYS, session } from './storage';

/** The id of the running build (baked in by vite.config.ts; also written to dist/version.json). */
const BUILD_ID: string = import.meta.env.VITE_BUILD_ID ?? 'dev';

/** The deployed version, or null when it cannot be read (offline, dev server without API…). */
async function fetchDeployedVersion(): Promise<string | null> {
  try {
    const res = await fetch(`/version.json?timestamp=${Date.now()}`, {
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    if (!res.ok) return null;
    const body = (await res.json()) as { version?: unknown };
    return typeof body.version === 'string' ? body.version : null;
  } catch {
    return null;
  }
}

/**
 * Checks the deployed version now and every 60 s; calls `onOutdated` once when it differs from
 * BUILD_ID. Returns a stop function.
 */
export function startVersionCheck(onOutdated: (deployed: string) => void): () => void {
  let stopped = false;
  let notified = false;
  const check = async () => {
    if (stopped || notified) return;
    const deployed = await fetchDeployedVersion();
    if (stopped || notified || deployed === null || deployed === BUILD_ID) return;
    notified = true;
    onOutdated(deployed);
  };
  void check();
  const timer = window.setInterval(check, VERSION_POLL_MS);
  return () => {
    stopped = true;
    window.clearInterval(timer);
  };
}

/**
 * Reload once after a lazily loaded chunk failed (typically: a new deploy removed the old files).
 * Guarded by a sessionStorage timestamp so a persistent failure cannot loop: returns false when a
 * reload already happened within the last 10 s.
 */
export function reloadAfterChunkError(): boolean {
  const last = Number(session.get(STORAGE_KEYS.chunkReloadAt) ?? 0);
  if (Number.isFinite(last) && Date.now() - last < RELOAD_GUARD_MS) return false;
  session.set(STORAGE_KEYS.chunkReloadAt, String(Date.now()));
  window.location.reload();
  return true;
}

/** Does this error look like a failed dynamic import / lazy chunk load? */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i.test(
    error.message,
  );
}

/** Vite fires `vite:preloadError` when a chunk's preload fails: reload (once) instead of breaking. */
export function installPreloadErrorReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadAfterChunkError()) event.preventDefault();
  });
}
