import { isInternalPath } from '@forpost/contract/redirect';
import { local, STORAGE_KEYS } from './storage';

/** Paths that are part of signing in: a failed session there never adds a redirect back to them. */
export const isLoginPath = (pathname: string): boolean =>
  pathname === '/login' || pathname.startsWith('/login/') || pathname === '/newpassword';

/**
 * Only console paths are accepted as a post-login or rule target — the contract's one rule of an
 * internal path (`isInternalPath`: a single leading '/', no backslash or '//' in the path, no control
 * characters), the same the API validates route rules with — and never a login path.
 */
export function safeRedirect(target: unknown): string | null {
  if (!isInternalPath(target)) return null;
  if (isLoginPath(target.split(/[?#]/)[0] ?? '')) return null;
  return target;
}

/** `/login?redirect=<path+search>` for the given location (no redirect from a login path). */
export function loginHref(pathWithSearch: string): string {
  const path = pathWithSearch.split(/[?#]/)[0] ?? '/';
  if (isLoginPath(path) || pathWithSearch === '/') return '/login';
  return `/login?redirect=${encodeURIComponent(pathWithSearch)}`;
}

export const rememberLoginEmail = (email: string): void => local.set(STORAGE_KEYS.loginEmail, email);
export const rememberedLoginEmail = (): string | null => local.get(STORAGE_KEYS.loginEmail);
export const forgetLoginEmail = (): void => local.remove(STORAGE_KEYS.loginEmail);

type SessionEndListener = () => void;
const sessionEndListeners = new Set<SessionEndListener>();

/** Lets the app drop its auth state (query cache) when the session ends. */
export function onSessionEnd(listener: SessionEndListener): () => void {
  sessionEndListeners.add(listener);
  return () => sessionEndListeners.delete(listener);
}

let endingSession = false;

/**
 * The logout behaviour of the spec: clear the auth state and the remembered email, then reload to
 * /login, with `redirect` = the current path unless the user is already on a login path.
 */
export function endSessionAndReload(): void {
  if (endingSession) return;
  endingSession = true;
  // Read before the listeners run: dropping the auth state may already move the router to /login.
  const { pathname, search, hash } = window.location;
  const target = loginHref(`${pathname}${search}${hash}`);
  for (const l of sessionEndListeners) l();
  forgetLoginEmail();
  window.location.assign(target);
}

export const isEndingSession = (): boolean => endingSession;
