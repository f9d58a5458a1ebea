// npm run build: everything production runs, once at install — the console (apps/console/dist) and the
// compiled API (apps/api/dist). Each is written to a temporary folder and renamed into place under a
// lock, so a concurrent npm start waits and then uses the fresh build. `--api` / `--console`: only one.
import { ensureApiBuilt, ensureConsoleBuilt } from './lib.mjs';

const only = process.argv.slice(2);
if (only.length === 0 || only.includes('--console')) await ensureConsoleBuilt({ force: true });
if (only.length === 0 || only.includes('--api')) await ensureApiBuilt({ force: true });
