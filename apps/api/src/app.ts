import '@forpost/contract/zod-setup';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { createAudit } from './lib/audit';
import { API_PREFIX, type App } from './lib/routes';
import { type BearerAuthenticator, registerAccess } from './plugins/access';
import { registerErrorHandling } from './plugins/errors';
import { readBuildVersion, registerSpa } from './plugins/spa';
import { authRoutes } from './modules/auth/auth.routes';
import { createAuthService } from './modules/auth/auth.service';
import { createSessionsRepo } from './modules/auth/sessions.repo';
import { systemRoutes } from './modules/system/system.routes';
import { configsRoutes, createConfigsService } from './modules/configs/index';
import { createWhitelistService, whitelistRoutes } from './modules/whitelist/index';
import { createMailer, type Mailer } from './lib/mailer';
import { createSecretBox } from './lib/secretbox';
import { createFailureLimiter } from './modules/auth/limiter';
import { createIdentityService } from './modules/auth/identity.service';
import { identityRoutes } from './modules/auth/identity.routes';
import { createCompaniesService } from './modules/companies/companies.service';
import { companiesRoutes } from './modules/companies/companies.routes';
import { createUsersService } from './modules/users/users.service';
import { usersRoutes } from './modules/users/users.routes';
import { createApiKeysService } from './modules/apikeys/apikeys.service';
import { apiKeysRoutes } from './modules/apikeys/apikeys.routes';
import { auditRoutes } from './modules/audit/audit.routes';

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Replaces the configured mailer (tests capture mail with a real SMTP server instead). */
  mailer?: Mailer;
}

export const BODY_LIMIT = 1024 * 1024;

export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[скрыто]' },
    },
    bodyLimit: BODY_LIMIT,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    trustProxy: config.trustProxy,
    requestTimeout: 120_000,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.publicUrl.startsWith('https://'),
  });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Форпост API',
        version: readBuildVersion(config.consoleDist),
        description:
          'API консоли «Форпост». Аутентификация: cookie сессии консоли или API-ключ в заголовке `Authorization: Bearer <ключ>`. Ошибки: `{statusCode, statusMessage, message, data}`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'API-ключ (fp_…)' },
          session: { type: 'apiKey', in: 'cookie', name: 'fp_access' },
        },
      },
      security: [{ apiKey: [] }, { session: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });

  const db = database.db;
  const audit = createAudit({ db });
  // Run-time settings for every module: `configs.get(key)`, cached, invalidated on all instances via LISTEN/NOTIFY.
  const configs = createConfigsService({ db, pool: database.pool, config, audit, log: app.log });
  app.addHook('onClose', () => configs.close());
  const whitelist = createWhitelistService({ db, audit, log: app.log });
  const limiter = createFailureLimiter(db, () => ({ maxFailures: config.lockoutMaxFailures, windowMinutes: config.lockoutWindowMinutes }));
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const auth = createAuthService({ repo: createSessionsRepo(db), audit, config, limiter });
  const identity = createIdentityService({ db, audit, auth, limiter, mailer, totpBox: createSecretBox(config.secret, 'totp'), config });
  const companiesSvc = createCompaniesService({ db, audit, limiter });
  const usersSvc = createUsersService({ db, audit, links: identity });
  const apiKeysSvc = createApiKeysService({ db, audit });
  const bearer: BearerAuthenticator[] = [(token, req) => apiKeysSvc.authenticate(token, req.ip)];
  const routeTable = registerAccess(app, { auth, publicUrl: config.publicUrl, bearer });

  await app.register(
    async (api) => {
      const a = api as unknown as App;
      await systemRoutes(a, { database, openapi: () => app.swagger() });
      await authRoutes(a, { auth, config });
      await configsRoutes(a, { configs });
      await whitelistRoutes(a, { whitelist });
      await identityRoutes(a, { auth, identity, config, avatarOk: async () => false });
      await companiesRoutes(a, { companies: companiesSvc });
      await usersRoutes(a, { users: usersSvc });
      await apiKeysRoutes(a, { apiKeys: apiKeysSvc });
      await auditRoutes(a, { db });
    },
    { prefix: API_PREFIX },
  );

  await registerSpa(app, config.consoleDist);
  await app.ready();
  return Object.assign(app, { routeTable, services: { auth, audit, configs, whitelist, identity, mailer, limiter, companies: companiesSvc, users: usersSvc, apiKeys: apiKeysSvc } });
}
export type BuiltApp = Awaited<ReturnType<typeof buildApp>>;
