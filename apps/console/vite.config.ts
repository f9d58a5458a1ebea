import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { LOGIN_SHELL_MARKUP, LOGIN_STYLE, loginShellScript } from './src/features/auth/loginShell';

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

/**
 * Emits dist/routes.json: the console's route paths as TanStack Router generated them
 * (`fullPaths` of src/routeTree.gen.ts: '/audit', '/$section/$id', '/users/{-$id}/edit' …), so the
 * server answers 404 for a path that is no route (apps/api/src/plugins/spa.ts).
 */
function routeTable(): Plugin {
  return {
    name: 'forpost-route-table',
    apply: 'build',
    generateBundle() {
      const tree = readFileSync(resolve(root, 'src/routeTree.gen.ts'), 'utf8');
      const block = tree.slice(tree.indexOf('fullPaths:'), tree.indexOf('fileRoutesByTo:'));
      const paths = [...block.matchAll(/\|\s*'([^']+)'/g)].map((m) => m[1]);
      if (!paths.includes('/')) throw new Error('routes.json: no route paths in src/routeTree.gen.ts');
      this.emitFile({ type: 'asset', fileName: 'routes.json', source: `${JSON.stringify(paths)}\n` });
    },
  };
}

/*
 * Modules of the code-splitting groups below (route chunks, `?tsr-split=…`, stay chunks of their own:
 * the router loads them by name).
 */
const LOGIN_MODULES =
  /[\\/]src[\\/](?:features[\\/]auth[\\/](?:LoginPage|components[\\/](?:CredentialsStep|shared)|api[\\/]mutations)|features[\\/]shell[\\/](?:BlankLayout|usePageTitle)|lib[\\/]navigation)\.tsx?$/;
const SHELL_MODULES = /[\\/]src[\\/]features[\\/](?:shell|bell|company)[\\/][^?]*$/;

/** Text files worth compressing; below 1 KB the headers cost more than compression saves. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) next to every compressible output file,
 * once per build, so the server sends them as they are (@fastify/static `preCompressed`) instead of
 * compressing on every request. A variant not smaller than the file is not written.
 */
/**
 * antd's form context (imported by every antd Input) takes only `FormProvider` from @rc-component/form,
 * but through the package's index, whose top level attaches Field, List, useForm … to the Form object,
 * so the bundler keeps the whole form engine and async-validator: ~11 KB brotli of the sign-in page,
 * which has no antd Form (issue #16). That one import is pointed at the module that defines
 * `FormProvider`; pages with antd Form still get the whole package through their own imports.
 */
function formProviderOnly(): Plugin {
  return {
    name: 'forpost-form-provider-only',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (source !== '@rc-component/form' || !importer || !/[\\/]antd[\\/]es[\\/]form[\\/]context\.js$/.test(importer))
        return null;
      return this.resolve('@rc-component/form/es/FormContext.js', importer, { skipSelf: true });
    },
  };
}

/**
 * `<link rel="modulepreload">` for the sign-in page's route chunk and the chunks it imports: the router
 * asks for them only once the entry has run, one round trip later (on a phone, ≈ 0.3 s of the sign-in
 * page's LCP, issue #30). Every signed-in page loads the `login` group too (the shell imports it).
 */
function preloadLoginRoute(): Plugin {
  return {
    name: 'forpost-preload-login-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const route = chunks.find((c) => /[\\/]src[\\/]routes[\\/]login\.tsx\?tsr-split=component$/.test(c.facadeModuleId ?? ''));
        if (!route) throw new Error('preloadLoginRoute: no chunk of src/routes/login.tsx');
        const files = [...route.imports, route.fileName].filter((f) => !html.includes(`/${f}"`));
        const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('\n    ');
        return html.replace('</head>', `  ${links}\n  </head>`);
      },
    },
  };
}

/**
 * The sign-in page's picture before React (src/features/auth/loginShell.ts, issue #30): its markup before
 * `#root`, hidden until the inline script right after it has marked the page as /login. Inline, so the
 * first paint is the picture: a script file would cost a request, and with the chunks arriving in the
 * same round trip the browser ran them before painting anything. After the markup, so a paint while the
 * parser is halfway through it cannot show half a picture (its box would move as the rest arrived). The
 * server's CSP allows exactly this script by its hash (apps/api/src/plugins/spa.ts `inlineScriptHashes`).
 */
function loginShell(): Plugin {
  let building = false;
  return {
    name: 'forpost-login-shell',
    configResolved(c) {
      building = c.command === 'build';
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        if (!html.includes('<div id="root"></div>')) throw new Error('loginShell: no <div id="root"></div> in index.html');
        if (!html.includes('</head>')) throw new Error('loginShell: no </head> in index.html');
        // The stylesheet always (the credentials step's controls use it, in the dev server too); the
        // picture and its script in the build, whose CSP allows the script by its hash.
        const styled = html.replace('</head>', `  ${LOGIN_STYLE}\n  </head>`);
        if (!building) return styled;
        return styled.replace(
          '<div id="root"></div>',
          `${LOGIN_SHELL_MARKUP}\n    <script>${loginShellScript()}</script>\n    <div id="root"></div>`,
        );
      },
    },
  };
}

function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'forpost-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = resolve(c.root, c.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(name)) continue;
        const file = resolve(outDir, name);
        const raw = readFileSync(file);
        if (raw.length < MIN_COMPRESS_BYTES) continue;
        const br = brotliCompressSync(raw, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        const gz = gzipSync(raw, { level: 9 });
        if (br.length < raw.length) writeFileSync(`${file}.br`, br);
        if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
      }
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
    routeTable(),
    formProviderOnly(),
    preloadLoginRoute(),
    loginShell(),
    precompress(),
  ],
  define: {
    'import.meta.env.VITE_BUILD_ID': JSON.stringify(BUILD_ID),
  },
  build: {
    outDir: resolve(root, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    // dist/.vite/manifest.json: the chunk graph apps/console/src/bundle.test.ts checks (public like the chunks).
    manifest: true,
    rolldownOptions: {
      output: {
        // Rolldown splits by which entries (the main one, each lazy route) use a module, into many small
        // chunks; brotli packs one file better than thirty (issue #16: /login 257 → 226 KB). These groups
        // merge what pages load together anyway, and keep apart what only chart pages load (ECharts +
        // zrender, one `charts` chunk that bench/console.bench.ts and the build test look for).
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](?:react|react-dom|scheduler)[\\/]/, priority: 4 },
            { name: 'charts', test: /[\\/]node_modules[\\/](?:echarts|zrender)[\\/]/, priority: 4 },
            // What the entry imports statically (Rolldown's `$initial` tag): every page loads all of it, so
            // one chunk instead of the ~30 Rolldown makes of it by default (each shared with lazy routes).
            { name: 'entry', tags: ['$initial'], priority: 3 },
            // The sign-in page's modules with their npm dependencies (antd Form, Input, Alert …) and the
            // signed-in shell's (layout, menu, header, bell) with theirs, each one chunk: every signed-in
            // page loads both, /login only the first. Higher priority wins a module both groups reach.
            { name: 'login', test: LOGIN_MODULES, priority: 2 },
            { name: 'shell', test: SHELL_MODULES, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/version.json': { target: API_TARGET, changeOrigin: false },
    },
  },
});
