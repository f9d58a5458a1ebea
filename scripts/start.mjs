// npm start: build the console if needed, then run the server (embedded PostgreSQL unless DATABASE_URL is set).
import { ensureConsoleBuilt, startServer } from './lib.mjs';

await ensureConsoleBuilt();
startServer();
