/*
 * The e2e server's API process (started by scripts/e2e-server.mjs): the production entry `main` with
 * one dependency injected — the MTProto factory. Accounts whose phone starts with E2E_PHONE_PREFIX
 * (Telegram's own test numbers, 99966…) sign in against a stand-in "Telegram" on mtcute's harness
 * (apps/api/test/telegram-mtproto-kit.ts: code, wrong code, cloud password); every other account gets
 * the production factory (TCP to Telegram). Test code only: src/ has no test branch.
 */
import { register } from 'node:module';

// Before mtcute's harness is loaded (hence the dynamic imports below).
register('./mtcute-hooks.mjs', import.meta.url);
const { failedToStart, main } = await import('../apps/api/src/main');
const { nodeMtprotoFactory } = await import('../apps/api/src/modules/telegram/index');
const { E2E_PHONE_PREFIX, loginStub, loginTelegram } = await import('../apps/api/test/telegram-mtproto-kit');

const production = nodeMtprotoFactory({ testMode: process.env.TELEGRAM_TEST_DC === '1' });
// The stand-in's accounts have the cloud password on (the dialog's every step).
const telegram = loginTelegram({ twoFa: true });

main({
  mtproto: (creds) => (creds.phone?.startsWith(E2E_PHONE_PREFIX) ? loginStub(telegram) : production(creds)),
}).catch(failedToStart);
