import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = import.meta.dirname;
const API_TARGET = 'http://127.0.0.1:8080';

/** One id per build: the running app compares it with /version.json to detect a newer deploy. */
const BUILD_ID = `${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBytes(3).toString('hex')}`;

/** Emits dist/version.json = {"version": BUILD_ID}. */
function versionFile(): Plugin {
  return {
    name: 'forpost-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: `${JSON.stringify({ version: BUILD_ID })}\n`,
      });
    },
  };
}

export default defineConfig({
  root,
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: resolve(root, 'src/routes'),
      generatedRouteTree: resolve(root, 'src/routeTree.gen.ts'),
      quoteStyle: 'single',
    }),
    react(),
    versionFile(),
  ],
  define: {
    'import.meta.env.VITE_BUILD_ID': JSON.stringify(BUILD_ID),
  },
  build: {
    outDir: resolve(root, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/version.json': { target: API_TARGET, changeOrigin: false },
    },
  },
});
