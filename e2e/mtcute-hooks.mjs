// A module resolution hook of the e2e server (registered by e2e/server-main.ts): @mtcute/test's build
// imports its platform from @mtcute/web; on Node it gets mtcute's Node platform through the same shim
// the API tests use (vitest.config.ts's alias).
const shim = new URL('../apps/api/test/mtcute-web-shim.ts', import.meta.url).href;

export async function resolve(specifier, context, next) {
  // Through the rest of the chain (tsx loads the shim's TypeScript).
  if (specifier === '@mtcute/web') return next(shim, context);
  return next(specifier, context);
}
