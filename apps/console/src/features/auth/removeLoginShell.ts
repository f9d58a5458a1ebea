/*
 * The sign-in page's HTML picture (loginShell.ts) by its id, apart from its markup: the entry chunk and
 * the page need only this, the markup lives in its own classic script.
 */
export const LOGIN_SHELL_ID = 'fp-login-shell';

/** Takes the picture away (the real page is drawn in the same frame). */
export function removeLoginShell(): void {
  document.getElementById(LOGIN_SHELL_ID)?.remove();
}
