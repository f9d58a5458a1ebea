/*
 * Sign-in, sessions and identity: the lowest area. Its user rows (`users.repo.ts`) are read by the
 * admin areas above it (users, companies, apikeys) and the event engine; the access cache and the
 * failure limiter are shared with them too.
 */
export { ACCESS_CHANNEL, type AccessCache, createAccessCache, deepFreeze, type Expiring } from './access-cache';
export { authRoutes } from './auth.routes';
export { type AuthContext, type AuthService, createAuthService, ipAllowed } from './auth.service';
export { identityRoutes } from './identity.routes';
export { createIdentityService } from './identity.service';
export { createFailureLimiter, type FailureLimiter } from './limiter';
export { createSessionsRepo } from './sessions.repo';
export { type CompanyLink, createUsersRepo, type UserRow } from './users.repo';
