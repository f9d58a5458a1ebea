import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOGIN_SHELL_MARKUP, LOGIN_SHELL_TEXT, LOGIN_STYLE, loginShellScript } from './loginShell';
import { LOGIN_SHELL_ID } from './removeLoginShell';

/** Just enough of a document for the classic script: the address and <html>'s classes. */
function fakeDocument(url: string) {
  const { pathname, search } = new URL(url, 'http://console.test');
  const classes = new Set<string>();
  const doc = { location: { pathname, search }, documentElement: { classList: { add: (c: string) => classes.add(c) } } };
  return { doc, classes };
}

/** Runs the emitted script's source the way the browser does: no module scope, only globals. */
function runScript(url: string, theme: string | null = null, systemDark = false): string[] {
  const { doc, classes } = fakeDocument(url);
  vi.stubGlobal('localStorage', { getItem: (k: string) => (k === 'forpost:theme' ? theme : null) });
  vi.stubGlobal('window', { matchMedia: (q: string) => ({ matches: q.includes('dark') && systemDark }) });
  new Function('document', loginShellScript())(doc);
  return [...classes];
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('login shell: the sign-in page drawn before its scripts run (#30 item 15)', () => {
  it('marks the page as /login for the picture in index.html', () => {
    expect(runScript('/login?redirect=%2Fprofile')).toEqual(['fp-login']);
    expect(runScript('/login/')).toEqual(['fp-login']);
  });

  it('only on the first step of /login', () => {
    expect(runScript('/login?type=2fa')).toEqual([]);
    expect(runScript('/login?redirect=%2F&type=new-password&token=x')).toEqual([]);
    expect(runScript('/')).toEqual([]);
    expect(runScript('/profile')).toEqual([]);
    expect(runScript('/login-help')).toEqual([]);
  });

  it('in the theme the console will start in (forpost:theme; «system» follows the system)', () => {
    expect(runScript('/login', 'dark')).toEqual(['fp-login', 'fp-login-dark']);
    expect(runScript('/login', 'system', true)).toEqual(['fp-login', 'fp-login-dark']);
    expect(runScript('/login', 'system', false)).toEqual(['fp-login']);
    expect(runScript('/login', 'light', true)).toEqual(['fp-login']);
  });

  it('storage that throws leaves the light picture', () => {
    const { doc, classes } = fakeDocument('/login');
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('SecurityError');
      },
    });
    new Function('document', loginShellScript())(doc);
    expect([...classes]).toEqual(['fp-login']);
  });

  it('is a picture: hidden until marked, out of the accessibility tree and the tab order, no controls or ids', () => {
    expect(LOGIN_SHELL_MARKUP.startsWith(`<div id="${LOGIN_SHELL_ID}" aria-hidden="true" inert>`)).toBe(true);
    expect(LOGIN_STYLE).toContain(`#${LOGIN_SHELL_ID}{display:none}`);
    expect(LOGIN_SHELL_MARKUP.replace(`id="${LOGIN_SHELL_ID}"`, '')).not.toMatch(/<(?:input|button|label|form|a)\b|\sid=/);
  });

  it('shares its stylesheet with the credentials step, whose controls use its classes', () => {
    const step = readFileSync(path.join(import.meta.dirname, 'components/CredentialsStep.tsx'), 'utf8');
    for (const cls of ['fpls-field', 'fpls-label', 'fpls-input', 'fpls-eye', 'fpls-submit', 'fpls-forgot', 'fpls-err']) {
      expect(LOGIN_STYLE, cls).toContain(`.${cls}`);
      expect(step, cls).toContain(cls);
    }
    // Every variable the stylesheet reads is one the page sets from the theme or the picture sets itself.
    const read = new Set([...LOGIN_STYLE.matchAll(/var\((--[\w-]+)\)/g)].map((m) => m[1]));
    const set = new Set([...step.matchAll(/'(--[\w-]+)':/g), ...LOGIN_STYLE.matchAll(/(--[\w-]+):/g)].map((m) => m[1]));
    expect([...read].filter((v) => !set.has(v))).toEqual([]);
    expect(LOGIN_SHELL_MARKUP).not.toContain('<style');
  });

  it('shows the texts the page shows', () => {
    const src = ['LoginPage.tsx', 'components/CredentialsStep.tsx', '../shell/usePageTitle.ts']
      .map((f) => readFileSync(path.join(import.meta.dirname, f), 'utf8'))
      .join('\n');
    for (const text of Object.values(LOGIN_SHELL_TEXT)) {
      expect(src, text).toContain(text);
      expect(LOGIN_SHELL_MARKUP, text).toContain(text);
    }
  });
});
