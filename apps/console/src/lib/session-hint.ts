/*
 * «This browser has a session»: the API's readable `fp_session` cookie, set with the session's cookies
 * and cleared with them (plugins/access.ts, SESSION_HINT_COOKIE). Without it the console knows it is
 * signed out and asks nothing — a signed-out page logs no 401 (issue #30). With it, GET /me decides.
 */
export const SESSION_HINT_COOKIE = 'fp_session';

export function hasSessionHint(cookies: string = document.cookie): boolean {
  return cookies.split(';').some((c) => c.trim().startsWith(`${SESSION_HINT_COOKIE}=`));
}
