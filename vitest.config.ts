import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // mtcute's test harness (@mtcute/test) on Node: see apps/api/test/mtcute-web-shim.ts.
  resolve: { alias: { '@mtcute/web': fileURLToPath(new URL('apps/api/test/mtcute-web-shim.ts', import.meta.url)) } },
  test: {
    server: { deps: { inline: ['@mtcute/test'] } },
    include: ['packages/**/src/**/*.test.ts', 'apps/api/**/*.test.ts', 'apps/console/src/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**'],
    globalSetup: ['apps/api/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
