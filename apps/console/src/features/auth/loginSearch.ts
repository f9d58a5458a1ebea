/* /login's search params, apart from the page: the route's `validateSearch` is in the entry chunk, the page is not. */

export interface LoginSearch {
  /** Where to go after signing in (only same-origin relative paths are honoured). */
  redirect?: string;
  /** '2fa' = the code step; 'new-password' (+ token) = set a new password from a mail link. */
  type?: '2fa' | 'new-password';
  token?: string;
}

const str = (v: unknown): string | undefined => (v === undefined || v === null || v === '' ? undefined : String(v));

export function parseLoginSearch(search: Record<string, unknown>): LoginSearch {
  const type = search.type === '2fa' || search.type === 'new-password' ? search.type : undefined;
  return { redirect: str(search.redirect), type, token: str(search.token) };
}
