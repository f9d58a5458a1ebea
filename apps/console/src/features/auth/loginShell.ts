/*
 * The sign-in page's first paint without React (issue #30, item 15): a picture of the credentials step
 * in plain HTML and CSS, in index.html itself (vite.config.ts `loginShell`), so heading, fields and
 * button are on screen in the first paint, before the ≈ 0.5 MB of JavaScript has run. It is hidden
 * until a tiny inline script right after it (the server's CSP allows it by its hash; after the markup,
 * so a paint halfway through parsing never shows half a picture) has marked <html> `fp-login` — the address is /login's first step (`?type=…` steps start without it) — and
 * `fp-login-dark` in the console's dark theme (`forpost:theme`, as features/views/theme.ts reads it).
 * A picture only — `aria-hidden`, `inert`, no form controls, no ids — laid over the page
 * (`position: fixed`); the page removes it in the commit that draws itself (LoginPage's layout effect;
 * any other page once the router has rendered it: main.tsx), so the two are never on screen together.
 * e2e/login-shell.spec.ts checks that its parts are where the page's are, at a phone's and a desktop's
 * width; loginShell.test.ts the script and the texts.
 */
import { FONT_FAMILY } from '../../lib/font';
import { LOGIN_SHELL_ID } from './removeLoginShell';

/** The texts the picture shows: the same as LoginPage / CredentialsStep (loginShell.test.ts). */
export const LOGIN_SHELL_TEXT = {
  title: 'Форпост',
  subtitle: 'Вход в консоль',
  email: 'Email',
  password: 'Пароль',
  submit: 'Войти',
  forgot: 'Забыли пароль?',
  footer: 'Вопросы о доступе — к администратору вашей компании',
} as const;

/** @ant-design/icons' paths (SafetyOutlined, MailOutlined, LockOutlined, EyeInvisibleOutlined). */
const ICON = {
  safety: [
    '0 0 1024 1024',
    'M512 64L128 192v384c0 212.1 171.9 384 384 384s384-171.9 384-384V192L512 64zm312 512c0 172.3-139.7 312-312 312S200 748.3 200 576V246l312-110 312 110v330z',
    'M378.4 475.1a35.91 35.91 0 00-50.9 0 35.91 35.91 0 000 50.9l129.4 129.4 2.1 2.1a33.98 33.98 0 0048.1 0L730.6 434a33.98 33.98 0 000-48.1l-2.8-2.8a33.98 33.98 0 00-48.1 0L483 579.7 378.4 475.1z',
  ],
  mail: [
    '64 64 896 896',
    'M928 160H96c-17.7 0-32 14.3-32 32v640c0 17.7 14.3 32 32 32h832c17.7 0 32-14.3 32-32V192c0-17.7-14.3-32-32-32zm-40 110.8V792H136V270.8l-27.6-21.5 39.3-50.5 42.8 33.3h643.1l42.8-33.3 39.3 50.5-27.7 21.5zM833.6 232L512 482 190.4 232l-42.8-33.3-39.3 50.5 27.6 21.5 341.6 265.6a55.99 55.99 0 0068.7 0L888 270.8l27.6-21.5-39.3-50.5-42.7 33.2z',
  ],
  lock: [
    '64 64 896 896',
    'M832 464h-68V240c0-70.7-57.3-128-128-128H388c-70.7 0-128 57.3-128 128v224h-68c-17.7 0-32 14.3-32 32v384c0 17.7 14.3 32 32 32h640c17.7 0 32-14.3 32-32V496c0-17.7-14.3-32-32-32zM332 240c0-30.9 25.1-56 56-56h248c30.9 0 56 25.1 56 56v224H332V240zm460 600H232V536h560v304zM484 701v53c0 4.4 3.6 8 8 8h40c4.4 0 8-3.6 8-8v-53a48.01 48.01 0 10-56 0z',
  ],
  eyeInvisible: [
    '64 64 896 896',
    'M942.2 486.2Q889.47 375.11 816.7 305l-50.88 50.88C807.31 395.53 843.45 447.4 874.7 512 791.5 684.2 673.4 766 512 766q-72.67 0-133.87-22.38L323 798.75Q408 838 512 838q288.3 0 430.2-300.3a60.29 60.29 0 000-51.5zm-63.57-320.64L836 122.88a8 8 0 00-11.32 0L715.31 232.2Q624.86 186 512 186q-288.3 0-430.2 300.3a60.3 60.3 0 000 51.5q56.69 119.4 136.5 191.41L112.48 835a8 8 0 000 11.31L155.17 889a8 8 0 0011.31 0l712.15-712.12a8 8 0 000-11.32zM149.3 512C232.6 339.8 350.7 258 512 258c54.54 0 104.13 9.36 149.12 28.39l-70.3 70.3a176 176 0 00-238.13 238.13l-83.42 83.42C223.1 637.49 183.3 582.28 149.3 512zm246.7 0a112.11 112.11 0 01146.2-106.69L401.31 546.2A112 112 0 01396 512z',
    'M508 624c-3.46 0-6.87-.16-10.25-.47l-52.82 52.82a176.09 176.09 0 00227.42-227.42l-52.82 52.82c.31 3.38.47 6.79.47 10.25a111.94 111.94 0 01-112 112z',
  ],
} as const;

const icon = ([viewBox, ...paths]: readonly string[]) =>
  `<i class="fpls-i"><svg viewBox="${viewBox}" width="1em" height="1em" fill="currentColor">${paths.map((d) => `<path d="${d}"/>`).join('')}</svg></i>`;

/*
 * One stylesheet for the picture and for the credentials step's controls (CredentialsStep: plain
 * inputs and buttons, not antd's — see there), so the two are the same boxes by construction. In
 * <head> (vite.config.ts `loginShell`), where it stays when the picture goes. The picture's colours are
 * the console theme's antd tokens (readable-theme.ts), light on `#fp-login-shell` and dark under
 * `html.fp-login-dark`; the page sets the same variables from the live theme (`credentialsVars`).
 * Sizes: BlankLayout, LoginPage's box and heading, antd's large input, primary and link buttons.
 */
const CSS = `
#${LOGIN_SHELL_ID}{display:none}
.fp-login #${LOGIN_SHELL_ID}{display:block;position:fixed;inset:0;z-index:1;overflow:auto;
--bg:linear-gradient(160deg,#eef2fb 0%,#f5f7fa 60%);--box:#fff;--box-line:#f0f0f0;--text:rgba(0,0,0,.88);--muted:rgba(0,0,0,.58);
--field-line:#d9d9d9;--primary:#2f54eb;--primary-shadow:rgba(5,88,255,.06);--link:#2f54eb}
html.fp-login-dark #${LOGIN_SHELL_ID}{--bg:linear-gradient(160deg,#0f1b3d 0%,#000 60%);--box:#141414;--box-line:#303030;--text:rgba(255,255,255,.85);
--muted:rgba(255,255,255,.6);--field-line:#424242;--primary:#2b4acb;--primary-shadow:rgba(49,88,252,.28);--link:#748fdc}
html.fp-login #root:empty::before{content:none}
.fpls-page{min-height:100%;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:24px;box-sizing:border-box;
background:var(--bg);color:var(--text);font-size:14px;line-height:1.5714285714285714;font-family:${FONT_FAMILY}}
.fpls-box{width:100%;max-width:420px;box-sizing:border-box;padding:24px;background:var(--box);border:1px solid var(--box-line);border-radius:8px;
box-shadow:0 8px 24px rgba(15,27,61,.08)}
.fpls-head{display:flex;flex-direction:column;gap:4px;text-align:center;margin-bottom:24px}
.fpls-i{display:inline-flex;align-items:center;font-style:normal;line-height:0;vertical-align:-.125em}
.fpls-logo .fpls-i{font-size:40px;color:#2f54eb}
.fpls-title{margin:0;font-size:30px;line-height:1.2666666666666666;font-weight:600}
.fpls-muted{color:var(--muted)}
.fpls-field{margin-bottom:24px}
.fpls-field.fpls-bad{margin-bottom:8px}
.fpls-label{display:block;padding-bottom:8px}
.fpls-err{min-height:16px;color:var(--error)}
.fpls-input{display:flex;align-items:center;box-sizing:border-box;height:40px;padding:7px 11px;border:1px solid var(--field-line);border-radius:8px;
background:var(--box);font-size:16px;line-height:1.5;transition:border-color .2s,box-shadow .2s}
.fpls-input>.fpls-i,.fpls-input>.anticon{margin-right:4px}
.fpls-input input{flex:1;min-width:0;height:100%;margin:0;padding:0;border:0;outline:0;background:transparent;color:inherit;font:inherit}
.fpls-input:hover{border-color:var(--primary-hover)}
.fpls-input:focus-within{border-color:var(--primary);box-shadow:0 0 0 2px var(--outline)}
.fpls-bad .fpls-input{border-color:var(--error)}
.fpls-bad .fpls-input:hover{border-color:var(--error-hover)}
.fpls-bad .fpls-input:focus-within{border-color:var(--error);box-shadow:0 0 0 2px var(--error-outline)}
.fpls-input.fpls-off,.fpls-input.fpls-off:hover{border-color:var(--field-line);background:var(--off-bg);color:var(--off);box-shadow:none}
.fpls-off input{cursor:not-allowed}
.fpls-eye{display:flex;align-items:center;margin-left:auto;padding:0 0 0 4px;border:0;background:none;color:var(--muted);font:inherit;cursor:pointer;
transition:color .2s}
button.fpls-eye:hover{color:var(--icon-hover)}
.fpls-submit{display:flex;align-items:center;justify-content:center;gap:8px;width:100%;box-sizing:border-box;height:40px;padding:0 15px;
border:1px solid transparent;border-radius:8px;background:var(--primary);color:#fff;font-family:inherit;font-size:16px;line-height:normal;
box-shadow:0 2px 0 var(--primary-shadow);cursor:pointer;transition:background .2s}
.fpls-submit:hover{background:var(--primary-hover)}
.fpls-submit:active{background:var(--primary-active)}
.fpls-submit:disabled{opacity:.65;cursor:default}
.fpls-forgot{margin-top:12px;text-align:center}
.fpls-forgot>*{display:inline-flex;align-items:center;box-sizing:border-box;height:32px;padding:0 15px;border:1px solid transparent;border-radius:6px;
background:none;color:var(--link);font:inherit;cursor:pointer;transition:color .2s}
.fpls-forgot>button:hover{color:var(--link-hover)}
.fpls-forgot>button:disabled{color:var(--off);cursor:not-allowed}
.fpls-submit:focus-visible,.fpls-forgot>button:focus-visible,button.fpls-eye:focus-visible{outline:4px solid var(--focus);outline-offset:1px}
.fpls-footer{margin-top:24px;font-size:12px;color:var(--muted)}
`;

/** The stylesheet, for <head> (vite.config.ts `loginShell`, in the dev server too). */
export const LOGIN_STYLE = `<style id="fp-login-style">${CSS.replace(/\n/g, '')}</style>`;

const T = LOGIN_SHELL_TEXT;

/** The picture's markup (its own <style> first), before `#root` in index.html. */
export const LOGIN_SHELL_MARKUP = `<div id="${LOGIN_SHELL_ID}" aria-hidden="true" inert><div class="fpls-page"><div class="fpls-box" data-part="box">\
<div class="fpls-head"><div class="fpls-logo">${icon(ICON.safety)}</div><h2 class="fpls-title" data-part="title">${T.title}</h2>\
<span class="fpls-muted" data-part="subtitle">${T.subtitle}</span></div>\
<div class="fpls-field"><span class="fpls-label">${T.email}</span><div class="fpls-input" data-part="email">${icon(ICON.mail)}</div></div>\
<div class="fpls-field"><span class="fpls-label">${T.password}</span><div class="fpls-input" data-part="password">${icon(ICON.lock)}\
<span class="fpls-eye">${icon(ICON.eyeInvisible)}</span></div></div>\
<div class="fpls-submit" data-part="submit"><span>${T.submit}</span></div><div class="fpls-forgot"><span data-part="forgot">${T.forgot}</span></div></div>\
<span class="fpls-footer" data-part="footer">${icon(ICON.mail)} ${T.footer}</span></div></div>`;

/**
 * Marks <html> `fp-login` (and `fp-login-dark`) when the address is the sign-in page's first step. Runs
 * as an inline script right after the markup (its source is `loginShellScript`): no imports, only globals.
 */
export function markLoginShell(doc: Document): void {
  try {
    const loc = doc.location;
    if (!/^\/login\/?$/.test(loc.pathname) || /[?&]type=/.test(loc.search)) return;
    let pref: string | null = null;
    try {
      pref = localStorage.getItem('forpost:theme');
    } catch {
      // storage disabled: the light theme, as the console itself falls back
    }
    const dark = pref === 'dark' || (pref === 'system' && Boolean(window.matchMedia?.('(prefers-color-scheme: dark)').matches));
    doc.documentElement.classList.add('fp-login');
    if (dark) doc.documentElement.classList.add('fp-login-dark');
  } catch {
    // a picture only: the page draws itself anyway
  }
}

/** The inline script's source (vite.config.ts puts it after the markup, before `#root`). */
export const loginShellScript = (): string => `(${markLoginShell.toString()})(document);`;
