// npm run dev: API on :8080 and the Vite dev server on :5173 (proxying /api to the API).
import { spawn } from 'node:child_process';
import { root, startServer } from './lib.mjs';

// The console's pages come from Vite's origin in development: the API accepts their writes (CSRF check).
startServer({
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  ALLOWED_ORIGINS: process.env.ALLOWED_ORIGINS ?? 'http://localhost:5173,http://127.0.0.1:5173',
});
spawn('npm', ['run', 'dev', '-w', '@forpost/console'], { stdio: 'inherit', cwd: root });
