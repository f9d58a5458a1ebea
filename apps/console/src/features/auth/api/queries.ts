import type { Me } from '@forpost/contract/auth';
import { queryOptions } from '@tanstack/react-query';
import { getErrorStatus, http } from '../../../lib/http';
import { hasSessionHint } from '../../../lib/session-hint';

export const authKeys = {
  all: ['auth'] as const,
  me: () => [...authKeys.all, 'me'] as const,
};

/*
 * GET /me's schema (and zod with it) loads only when there is a profile to check: the sign-in page, where
 * GET /me answers 401, does without both (issue #16). The signed-in routes start loading it together with
 * the request (`preloadMeSchema` in routes/_auth.tsx). Should its chunk be gone after a deploy, the
 * profile is used unchecked, as when it does not match.
 */
let meSchema: Promise<typeof import('@forpost/contract/auth')['meResponse'] | null> | undefined;
export const preloadMeSchema = () => {
  meSchema ??= import('@forpost/contract/auth').then(
    (m) => m.meResponse,
    () => null,
  );
  return meSchema;
};

/**
 * GET /me: the signed-in user, or null when there is no session (no session hint cookie, or 401 after
 * the refresh attempt — whose failure also clears the hint).
 * Never toasts and never triggers the logout reload: the route guards decide where to go.
 */
async function fetchMe(): Promise<Me | null> {
  // No session cookie at all: signed out, known without a request that would answer 401.
  if (!hasSessionHint()) return null;
  let raw: unknown;
  try {
    raw = await http.get('me', { context: { errorMode: 'silent', onUnauthorized: 'throw' } }).json();
  } catch (error) {
    if (getErrorStatus(error) === 401) return null;
    console.error('Не удалось загрузить профиль', error);
    throw error;
  }
  const meResponse = await preloadMeSchema();
  if (!meResponse) return raw as Me;
  const parsed = meResponse.safeParse(raw);
  if (parsed.success) return parsed.data;
  // A newer/older API shape must not lock everyone out: log it and use what came.
  console.error('Ответ GET /me не соответствует контракту', parsed.error.issues);
  return raw as Me;
}

/** The profile is loaded once (staleTime Infinity) and invalidated on login, logout and profile save. */
export const meQuery = queryOptions({
  queryKey: authKeys.me(),
  queryFn: fetchMe,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});
