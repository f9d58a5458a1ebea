/*
 * The console's one rule for leaving the console (spec: «an external redirect navigates the whole
 * window; external navigation is otherwise refused»): only a server route rule may send the window
 * to another origin; any other target that is not a console path is refused with a Russian notice.
 */
import { isExternalTarget } from '@forpost/contract/redirect';
import { safeRedirect } from './session';

export const EXTERNAL_REFUSED = 'Переход на внешний адрес отклонён: консоль ведёт только на свои страницы';

/**
 * The console path to go to for `target` (e.g. the `redirect` query after login); `fallback` when
 * there is none or it leads elsewhere — then `onRefused` is told (the caller shows EXTERNAL_REFUSED).
 */
export function internalTarget(target: unknown, onRefused: (text: string) => void, fallback = '/'): string {
  const safe = safeRedirect(target);
  if (safe) return safe;
  if (typeof target === 'string' && target !== '') onRefused(EXTERNAL_REFUSED);
  return fallback;
}

/** Follows a route rule's redirect: a console path through the router, an external URL with the whole window. */
export function followRuleRedirect(
  redirect: { to: string; external: boolean },
  navigate: (href: string) => void,
  assign: (url: string) => void = (u) => window.location.assign(u),
): void {
  if (redirect.external) {
    // Only http(s): a rule is checked by the API, but a scheme like javascript: must never reach assign.
    if (isExternalTarget(redirect.to)) assign(redirect.to);
    return;
  }
  navigate(internalTarget(redirect.to, () => undefined));
}
