// npm run dev: API on :8080 and the Vite dev server on :5173 (proxying /api to the API).
import { spawn } from 'node:child_process';
import { root, startServer } from './lib.mjs';

startServer({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' });
spawn('npm', ['run', 'dev', '-w', '@forpost/console'], { stdio: 'inherit', cwd: root });
