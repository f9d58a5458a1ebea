/*
 * What the stand-in "Telegram" of telegram-mtproto-kit.ts answers to, without mtcute: the Playwright
 * spec imports these (its process must not load @mtcute/test, which pulls in vitest).
 */

/** The code "Telegram" sends and the hash of its sentCode. */
export const LOGIN_CODE = '24680';
export const CODE_HASH = 'phone-code-hash-5e1f';
export const PASSWORD_HINT = 'кот';
/** Telegram's own test numbers (99966XYYYY on its test DCs): the e2e server answers them with the stand-in. */
export const E2E_PHONE_PREFIX = '+99966';
