import type { MtprotoFactory } from './modules/telegram/index';
import '@forpost/contract/zod-setup';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Database } from './db/client';
import { createInsightsJobs } from './insights.jobs';
import { createAudit } from './lib/audit';
import { createDelivery } from './lib/delivery';
import { createDocStore } from './lib/docstore';
import { createKeyRateCounter } from './lib/key-rate';
import { createMailer, type Mailer } from './lib/mailer';
import { createOutboundFetch } from './lib/outbound';
import { API_PREFIX, type App } from './lib/routes';
import { createSecretBox } from './lib/secretbox';
import { analyticsRoutes, createAnalyticsService } from './modules/analytics/index';
import { apiKeysRoutes, createApiKeysService } from './modules/apikeys/index';
import { auditRoutes } from './modules/audit/index';
import {
  authRoutes,
  createAccessCache,
  createAuthService,
  createFailureLimiter,
  createIdentityService,
  createSessionsRepo,
  identityRoutes,
} from './modules/auth/index';
import { classifierRoutes, createClassifierService } from './modules/classifier/index';
import { commentsRoutes, createCommentsService } from './modules/comments/index';
import { companiesRoutes, createCompaniesRepo, createCompaniesService } from './modules/companies/index';
import { configsRoutes, createConfigsService } from './modules/configs/index';
import { createDiscovery } from './modules/discovery/index';
import { createDocsService, docsRoutes } from './modules/docs/index';
import { createBulkJobs, createListCache, registerEventEngine } from './modules/events/index';
import { createFiltratorService, filtratorRoutes } from './modules/filtrator/index';
import { createHunts } from './modules/hunts/index';
import { createTransfer } from './modules/imports/index';
import { createMailingsService, mailingsRoutes } from './modules/mailings/index';
import { createNotificationsService, notificationsRoutes, notify as notifyUsers } from './modules/notifications/index';
import { createIntegrations } from './modules/outbox/index';
import { createReportsRepos, createReportsService, reportsRoutes } from './modules/reports/index';
import { createRouteRulesService, routeRulesRoutes } from './modules/route-rules/index';
import { createSlaJobs, createSlaService, slaRoutes } from './modules/sla/index';
import { createSnapshotsService } from './modules/snapshots/index';
import { createStixService, stixRoutes } from './modules/stix/index';
import { storageProbe, systemRoutes } from './modules/system/index';
import { tagsRoutes } from './modules/tags/index';
import { createTakedown } from './modules/takedown/index';
import {
  createAccountCollector,
  createPreviewCollector,
  createTelegramRepo,
  createTelegramService,
  nodeMtprotoFactory,
  telegramRoutes,
} from './modules/telegram/index';
import { createUsersService, usersRoutes } from './modules/users/index';
import { createViewsService, viewsRoutes } from './modules/views/index';
import { createWatch } from './modules/watch/index';
import { createWhitelistService, whitelistRoutes } from './modules/whitelist/index';
import { type BearerAuthenticator, registerAccess } from './plugins/access';
import { registerErrorHandling } from './plugins/errors';
import { clientErrorHandler, frameworkErrors, registerTextGuard } from './plugins/input';
import { registerMetrics } from './plugins/metrics';
import { registerKeyRateLimit, registerLoadShedding } from './plugins/pressure';
import { registerSecurityHeaders } from './plugins/security-headers';
import { createResponseSerializer } from './plugins/serializer';
import { routeTable as consoleRouteTable, inlineScriptHashes, readBuildVersion, registerSpa } from './plugins/spa';

export interface AppDeps {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Replaces the configured mailer (tests capture mail with a real SMTP server instead). */
  mailer?: Mailer;
  /** Replaces the MTProto transport (default: Telegram's DCs; tests: mtcute's StubTelegramClient). */
  mtproto?: MtprotoFactory;
}

const BODY_LIMIT = 1024 * 1024;

/**
 * TAXII 2.1 clients (OpenCTI, MISP's taxii2-client) are configured with the conventional `/taxii2/` at
 * the site root: those paths are the /api/v1/taxii2/ routes — same handlers, auth and permissions.
 */
const SITE_TAXII = /^\/taxii2(?:[/?]|$)/;
export const rewriteTaxii = (url: string): string => (SITE_TAXII.test(url) ? `${API_PREFIX}${url}` : url);

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
    frameworkErrors,
    clientErrorHandler,
    rewriteUrl: (req) => rewriteTaxii(req.url ?? '/'),
  }).withTypeProvider<import('fastify-type-provider-zod').ZodTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createResponseSerializer({ check: config.responseCheck }));
  registerErrorHandling(app);
  registerTextGuard(app);

  await app.register(fastifyCookie);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        // + the console's own inline script(s), by hash (the sign-in page's first paint, spa.ts)
        'script-src': ["'self'", ...inlineScriptHashes(config.consoleDist)],
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
  // The repositories several areas read (each area's service gets them in its deps).
  const companies = createCompaniesRepo(db);
  // One file store for every module: local DATA_DIR/files, or the S3 bucket (S3_BUCKET) shared by all machines.
  const docstore = createDocStore(config);
  await docstore.check();
  app.addHook('onClose', async () => docstore.close?.());
  // Documents of events, imports, reports, snapshots and avatars: below the event engine, which gets it in its deps.
  const docs = createDocsService({ db, store: docstore, audit, companies });
  // Run-time settings for every module: `configs.get(key)`, cached, invalidated on all instances via LISTEN/NOTIFY.
  const configs = createConfigsService({ db, pool: database.pool, config, audit, log: app.log });
  app.addHook('onClose', () => configs.close());
  const whitelist = createWhitelistService({ db, audit, log: app.log, companies });
  app.addHook('onClose', async () => whitelist.remarker?.close());
  const filtrator = createFiltratorService({ db, audit });
  // MTProto clients (sign-in and the account collector): Telegram's DCs, or the factory the tests pass.
  const mtproto = deps.mtproto ?? nodeMtprotoFactory({ testMode: process.env.TELEGRAM_TEST_DC === '1' });
  const telegram = createTelegramService({
    db,
    audit,
    companies,
    secret: config.secret,
    rematchChannel: filtrator.rematchChannel,
    mtproto,
  });
  const limiter = createFailureLimiter(db, async () => ({
    maxFailures: await configs.get('lockout_max_failures'),
    windowMinutes: await configs.get('lockout_window_minutes'),
    lockoutMinutes: await configs.get('lockout_minutes'),
  }));
  const mailer =
    deps.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  // Who a session or an API key is, for a few seconds per instance (dropped everywhere on any change of access).
  const access = createAccessCache({ pool: database.pool, log: app.log, ttlMs: config.accessCacheMs });
  app.addHook('onClose', () => access.close());
  // The event list pages this instance answered, for a moment (dropped everywhere on any change of events).
  const listCache = createListCache({ pool: database.pool, log: app.log, ttlMs: config.listCacheMs });
  app.addHook('onClose', () => listCache.close());
  const auth = createAuthService({
    repo: createSessionsRepo(db),
    audit,
    config,
    limiter,
    access,
    lifetimes: async () => ({
      accessTtlSeconds: await configs.get('access_token_ttl_seconds'),
      idleSeconds: (await configs.get('session_idle_minutes')) * 60,
      absoluteSeconds: (await configs.get('session_absolute_hours')) * 3600,
    }),
  });
  const identity = createIdentityService({
    db,
    audit,
    auth,
    limiter,
    mailer,
    totpBox: createSecretBox(config.secret, 'totp'),
    config,
  });
  const companiesSvc = createCompaniesService({ db, audit, limiter });
  const usersSvc = createUsersService({ db, audit, links: identity, companies });
  const apiKeysSvc = createApiKeysService({ db, audit, access, companies });
  const analytics = createAnalyticsService({ db, cacheEntries: config.analyticsCacheEntries });
  // SLA policies and the breach job (bell notifications for the assignee: notifications.notify).
  const sla = createSlaService({ db, audit, companies, notify: notifyUsers });
  const slaJobs = createSlaJobs({ sla, log: app.log });
  // Integrations reach what administrators configure only through the SSRF guard (lib/outbound.ts).
  const outbound = { allowPrivate: config.outboundAllowPrivate };
  const classifier = createClassifierService({ db, configs, log: app.log, outbound });
  const mailings = createMailingsService({ db, audit, configs, config, log: app.log, mailer: deps.mailer });
  const reports = createReportsService({
    ...createReportsRepos(db),
    companies,
    db,
    audit,
    configs,
    config,
    log: app.log,
    mailer: deps.mailer,
    store: docstore,
  });
  const insights = createInsightsJobs({ analytics, classifier, mailings, reports, log: app.log });
  app.addHook('onClose', () => insights.stop());
  const transfer = createTransfer({
    db,
    pool: database.pool,
    audit,
    configs,
    dataDir: config.dataDir,
    importWriters: config.importWriters,
    secret: config.secret,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  // «Все N по фильтру» of the event lists (pg-boss job; main.ts attaches it).
  const bulk = createBulkJobs({ db, pool: database.pool, audit, log: app.log });
  // Domain snapshots (pg-boss job; main.ts attaches it): queued by the domains' `recheck` action.
  const snapshots = createSnapshotsService({ db, audit, configs, config, log: app.log, docs });
  app.addHook('onClose', () => snapshots.stop());
  // Discovery of lookalike domains (#17): runs (pg-boss job), schedule and CT monitor (main.ts attaches them).
  const discovery = createDiscovery({
    db,
    pool: database.pool,
    audit,
    configs,
    secret: config.secret,
    snapshots,
    log: app.log,
    outbound,
    companies,
  });
  app.addHook('onClose', () => discovery.stop());
  // Credential-leak hunts (#34): a range of a stored dump per pg-boss job (main.ts attaches them).
  const hunts = createHunts({
    db,
    pool: database.pool,
    store: docstore,
    secret: config.secret,
    dataDir: config.dataDir,
    log: app.log,
    audit,
    uploadLimit: () => transfer.imports.uploadLimit(),
  });
  // The watch of registered lookalikes (#31): rounds of observations (main.ts attaches the poller).
  const watch = createWatch({ db, audit, configs, log: app.log, outbound, options: config.watch });
  // The CT monitor hands the watch the certificates naming a watched domain («Выпущен сертификат» from CT).
  discovery.onCertificates(watch.ctCertificates);
  app.addHook('onClose', () => watch.stop());
  // The Telegram public-preview collector (#35): main.ts attaches its poller on ROLE=all|worker.
  const telegramCollector = createPreviewCollector({
    repo: createTelegramRepo(db),
    configs,
    fetch: createOutboundFetch(outbound),
    sink: filtrator,
    log: app.log,
  });
  app.addHook('onClose', () => telegramCollector.stop());
  // The Telegram account (MTProto) collector (#35): channels in mode «Аккаунт»; main.ts attaches it too.
  const telegramAccountCollector = createAccountCollector({
    repo: createTelegramRepo(db),
    sink: filtrator,
    mtproto,
    credentials: (id) => telegram.credentials(id),
    log: app.log,
    maxPerAccount: () => configs.get('telegram_account_channels'),
  });
  app.addHook('onClose', () => telegramAccountCollector.stop());
  // Takedown requests (#32): evidence, recipients by RDAP, mail, followed by the watch (main.ts attaches the follower).
  const takedown = createTakedown({
    db,
    audit,
    configs,
    delivery: createDelivery({ configs, config, log: app.log, timeoutMs: 90_000 }),
    store: docstore,
    log: app.log,
    outbound,
    mailFrom: config.takedownMailFrom,
    defaultMailFrom: config.mailFrom,
    hourlyLimit: config.takedownHourlyLimit,
    watch,
  });
  app.addHook('onClose', () => takedown.stop());
  // Integrations (#33): webhook endpoints and syslog/CEF outputs fed by the outbox (main.ts attaches the worker).
  const integrations = createIntegrations({
    db,
    audit,
    secret: config.secret,
    outbound,
    log: app.log,
    version: readBuildVersion(config.consoleDist),
  });
  app.addHook('onClose', () => integrations.stop());
  const bearer: BearerAuthenticator[] = [(token, req) => apiKeysSvc.authenticate(token, req.ip)];
  // Prometheus metrics (off unless METRICS_PORT/METRICS_TOKEN): before the routes, so the HTTP histogram sees them all.
  await registerMetrics(app, { settings: config.metrics, database });
  // Shedding before the access hook (a refused request costs no query); the key rate limit after it (needs the key).
  await registerLoadShedding(app, {
    database,
    maxEventLoopDelayMs: config.maxEventLoopDelayMs,
    maxPoolWaiting: config.dbPoolMaxWaiting,
  });
  // Route rules redirect only paths that are no console route (the build's table; none known → none refused).
  const consoleRoutes = consoleRouteTable(config.consoleDist);
  const routeRules = createRouteRulesService({
    db,
    audit,
    isConsoleRoute: (p) => Boolean(consoleRoutes?.some((r) => r.test(p))),
  });
  const routeTable = registerAccess(app, { auth, allowedOrigins: config.allowedOrigins, bearer, caches: [access, listCache] });
  registerKeyRateLimit(app, { counter: createKeyRateCounter(db), limit: config.apiKeyRateLimit });

  await app.register(
    async (api) => {
      const a = api as unknown as App;
      await systemRoutes(a, { database, openapi: () => app.swagger(), storage: storageProbe(docstore, config) });
      await authRoutes(a, { auth, config, keyIdentity: apiKeysSvc.identity });
      await configsRoutes(a, { configs });
      await whitelistRoutes(a, { whitelist });
      await telegramRoutes(a, { telegram });
      await filtratorRoutes(a, { filtrator });
      await identityRoutes(a, { auth, identity, config, avatarOk: (userId, docId) => docs.avatarOk(userId, docId) });
      await companiesRoutes(a, { companies: companiesSvc });
      await usersRoutes(a, { users: usersSvc });
      await apiKeysRoutes(a, { apiKeys: apiKeysSvc });
      await auditRoutes(a, { db });
      await analyticsRoutes(a, { analytics });
      await slaRoutes(a, { sla });
      await classifierRoutes(a, { classifier });
      await mailingsRoutes(a, { mailings });
      await reportsRoutes(a, { reports });
      await viewsRoutes(a, { views: createViewsService({ db }) });
      await routeRulesRoutes(a, { routeRules });
      const engine = await registerEventEngine(a, {
        database,
        config,
        audit,
        docs,
        whitelistKindFor: whitelist.kindForEvent,
        snapshots,
        docstore,
        bulk,
        listCache,
      });
      // The areas around every event: above the engine (tags, comments) and below it (documents).
      tagsRoutes(a, { db, audit });
      commentsRoutes(a, { comments: createCommentsService({ db, audit }) });
      await docsRoutes(a, { docs });
      notificationsRoutes(a, { notifications: createNotificationsService({ db }) });
      filtrator.useEvents(engine.events);
      await transfer.mount(a, engine);
      await discovery.mount(a, engine);
      await hunts.mount(a, engine);
      watch.mount(a);
      takedown.mount(a);
      integrations.mount(a);
      // STIX bundles of events and the TAXII 2.1 server (#33).
      await stixRoutes(a, {
        stix: createStixService({ db, refs: engine.refs, secret: config.secret, publicUrl: config.publicUrl }),
      });
    },
    { prefix: API_PREFIX },
  );

  await registerSpa(app, config.consoleDist, (p) => routeRules.lookup(p));
  await app.ready();
  return Object.assign(app, {
    routeTable,
    services: {
      transfer,
      bulk,
      auth,
      access,
      listCache,
      audit,
      configs,
      whitelist,
      telegram,
      filtrator,
      identity,
      mailer,
      limiter,
      companies: companiesSvc,
      users: usersSvc,
      apiKeys: apiKeysSvc,
      analytics,
      sla,
      slaJobs,
      classifier,
      mailings,
      reports,
      insights,
      snapshots,
      discovery,
      watch,
      telegramCollector,
      telegramAccountCollector,
      takedown,
      integrations,
      hunts,
    },
  });
}
export type BuiltApp = Awaited<ReturnType<typeof buildApp>>;
