/*
 * @mtcute/test's published build imports its platform from @mtcute/web; the API runs on Node, so the
 * test harness gets mtcute's Node platform and crypto under that name (vitest.config.ts alias).
 */
export { NodePlatform as WebPlatform } from '@mtcute/node';
export { NodeCryptoProvider as WebCryptoProvider } from '@mtcute/node/utils.js';
