/* API keys: routes, service (also the bearer authenticator of plugins/access.ts) and their rows (read by users). */
export { createApiKeysRepo } from './apikeys.repo';
export { apiKeysRoutes } from './apikeys.routes';
export { createApiKeysService } from './apikeys.service';
