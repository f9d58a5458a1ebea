/*
 * The rules of a redirect target (issue #28), without zod: the console's sign-in page imports them
 * (`safeRedirect`) and its first download stays light. The API's route-rule schemas
 * (route-rules.ts), the server's redirect and the console's navigation all use these.
 */

export const ROUTE_RULE_MSG = {
  notFound: 'Перенаправление не найдено',
  duplicate: 'Для этого пути уже есть перенаправление',
  pathStart: 'Путь должен начинаться с «/»',
  pathQuery: 'Путь указывается без «?» и «#»',
  pathIsRoute: 'Этот путь — страница консоли: его нельзя перенаправить',
  target: 'Укажите путь консоли («/…») или адрес http(s)://…',
  loop: 'Перенаправление не может вести на тот же путь',
  control: 'Адрес не должен содержать управляющих символов (перевод строки, табуляция и т. п.)',
  internal: 'Путь консоли начинается с одного «/» и не содержит «\\» и «//»',
  credentials: 'Адрес не должен содержать имя пользователя или пароль',
} as const;

/** Control characters (C0, DEL, C1) and the Unicode line separators: never part of a redirect. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point of the check
export const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * The one rule of an internal target (issue #28), shared by the API's validation, the server's
 * redirect and the console's `safeRedirect`: one path starting with a single «/», no control
 * characters anywhere, and in the path part (before «?»/«#») no backslash and no «//» — browsers read
 * those as another host («/\evil», «//evil», «/<TAB>/evil» once the tab is dropped).
 */
export function isInternalPath(t: unknown): t is string {
  if (typeof t !== 'string' || !t.startsWith('/') || CONTROL_CHARS.test(t)) return false;
  const path = t.split(/[?#]/)[0] ?? '';
  return !path.includes('\\') && !path.includes('//');
}

const CONSOLE_BASE = 'http://console.invalid';

/**
 * A target as it is stored and sent in `Location`: an external http(s) URL as the URL standard
 * serialises it (IDN host in punycode, path, query and fragment percent-encoded); a console path
 * percent-encoded the same way. An error message (Russian) when it can be neither.
 */
export function normalizeRuleTarget(raw: string): { target: string } | { error: string } {
  if (CONTROL_CHARS.test(raw)) return { error: ROUTE_RULE_MSG.control };
  const t = raw.trim();
  if (isExternalTarget(t)) {
    let u: URL;
    try {
      u = new URL(t);
    } catch {
      return { error: ROUTE_RULE_MSG.target };
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return { error: ROUTE_RULE_MSG.target };
    if (u.username || u.password) return { error: ROUTE_RULE_MSG.credentials };
    return { target: u.href };
  }
  if (!t.startsWith('/')) return { error: ROUTE_RULE_MSG.target };
  if (!isInternalPath(t)) return { error: ROUTE_RULE_MSG.internal };
  let u: URL;
  try {
    u = new URL(t, CONSOLE_BASE);
  } catch {
    return { error: ROUTE_RULE_MSG.internal };
  }
  const out = u.pathname + u.search + u.hash;
  // Dot segments can still fold into «//» («/.//x»): the encoded form must hold the rule too.
  if (u.origin !== CONSOLE_BASE || !isInternalPath(out)) return { error: ROUTE_RULE_MSG.internal };
  return { target: out };
}

/** Whether `target` is an absolute http(s) URL (an external redirect); else it must be a console path. */
export function isExternalTarget(target: string): boolean {
  return /^https?:\/\//i.test(target);
}
