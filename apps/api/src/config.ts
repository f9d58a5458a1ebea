import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from './lib/repo-root';

const bool = z
  .union([z.boolean(), z.string()])
  .transform((v) => (typeof v === 'boolean' ? v : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())));

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  /** More origins whose pages may send state-changing requests with the console's cookie (comma-separated). */
  ALLOWED_ORIGINS: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Форпост <noreply@forpost.local>'),
  /** The sender of takedown requests to abuse desks (their replies come here); default MAIL_FROM. */
  TAKEDOWN_MAIL_FROM: z.string().optional(),
  /** Takedown messages to one abuse address per hour at most (a mistake cannot spam an abuse desk). */
  TAKEDOWN_RECIPIENT_HOURLY_LIMIT: z.coerce.number().int().min(1).max(1000).default(20),
  SECRET: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32).optional()),
  ADMIN_EMAIL: z.string().default('admin@forpost.local'),
  ADMIN_PASSWORD: z.string().optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Batches of one import written at once, each a transaction on its own connection (1 = one after another). */
  IMPORT_WRITERS: z.coerce.number().int().min(1).max(8).default(2),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CONSOLE_DIST: z.string().optional(),
  ACCESS_TTL_SECONDS: z.coerce.number().int().min(5).default(900),
  SESSION_IDLE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(12 * 3600),
  SESSION_ABSOLUTE_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(14 * 24 * 3600),
  COOKIE_SECURE: bool.optional(),
  LOCKOUT_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOCKOUT_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  /** Slow sign-in limits (signin-guard.ts): failures of one account from all addresses, per window… */
  LOCKOUT_ACCOUNT_MAX_FAILURES: z.coerce.number().int().min(1).default(50),
  /** …accounts failing from one address, per window… */
  LOCKOUT_ADDRESS_MAX_ACCOUNTS: z.coerce.number().int().min(1).default(20),
  /** …and that window (failures are kept for a day, hence the cap). */
  LOCKOUT_ACCOUNT_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  /** Browser for domain screenshots (the `snapshot_chromium_path` setting overrides it; default /usr/bin/chromium). */
  CHROMIUM_PATH: z.string().optional(),
  /**
   * Lets integrations (classifier, RDAP, CT logs, SMTP of the settings, DNS resolvers) and the snapshot
   * producer reach private/loopback/link-local addresses (lib/outbound.ts; tests and e2e only, never in production).
   */
  OUTBOUND_ALLOW_PRIVATE: bool.optional(),
  /** The former name of OUTBOUND_ALLOW_PRIVATE, still honoured (OUTBOUND_ALLOW_PRIVATE wins when both are set). */
  SNAPSHOT_ALLOW_PRIVATE: bool.optional(),
  /** Test resolution of snapshot hosts: `host=ip:port,host2=ip:port` (the SSRF guard still checks the address). */
  SNAPSHOT_HOST_MAP: z.string().optional(),
  /** The domain watch (#31), per worker: domains observed at once… */
  WATCH_CONCURRENCY: z.coerce.number().int().min(1).max(1024).default(64),
  /** …HTTP requests at once to one destination address… */
  WATCH_DESTINATION_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  /** …and HTTP requests per second to one destination address (fractions allowed: 0.5 = one in 2 s). */
  WATCH_DESTINATION_RATE: z.coerce.number().min(0.1).max(10_000).default(10),
  /** …and how often a worker looks for domains that are due (seconds). */
  WATCH_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Dashboard charts kept in memory per instance (≤ ~30 KB each; checked against the rollups on every request; 0 = off). */
  ANALYTICS_CACHE_ENTRIES: z.coerce.number().int().min(0).max(4096).default(256),
  /** How long one instance trusts what it read about a session or an API key (ms; invalidated by NOTIFY on any change; 0 = off). */
  ACCESS_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** How long one instance keeps an event list's page it answered (ms; invalidated by NOTIFY on any change of events, users, companies; 0 = off). */
  LIST_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Requests per minute per API key, counted in PostgreSQL across instances (0 = no limit; sessions are never limited). */
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(0).default(600),
  /** Load shedding: 503 once the mean event-loop delay over a second exceeds this (ms; 0 = off). */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  /** Load shedding: 503 while more requests than this wait for a database connection (0 = off). */
  DB_POOL_MAX_WAITING: z.coerce.number().int().min(0).default(20),
  /**
   * Every response is also encoded by its zod schema and must match the compiled writer's text byte
   * for byte (plugins/serializer.ts); on in the tests, off in production (it doubles the write).
   */
  RESPONSE_CHECK: bool.optional(),
  /** Prometheus metrics on their own listener (METRICS_HOST:METRICS_PORT); absent = not served there. */
  METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Prometheus metrics at /metrics on the main port, for `Authorization: Bearer <token>` only. */
  METRICS_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional()),
  /** Files in an S3-compatible bucket instead of DATA_DIR/files (needed once instances run on several machines). */
  S3_BUCKET: z.string().optional(),
  /** Path-style addresses (`host/bucket/key`): MinIO, Ceph RGW, SeaweedFS. */
  S3_FORCE_PATH_STYLE: bool.optional(),
  /** The AWS SDK's own variables: the S3 endpoint (the service-specific one wins), region and keys. */
  AWS_ENDPOINT_URL_S3: z.string().optional(),
  AWS_ENDPOINT_URL: z.string().optional(),
  AWS_REGION: z.string().optional(),
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  AWS_SESSION_TOKEN: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** Origins a cookie-carrying state-changing request may come from (CSRF): PUBLIC_URL's and ALLOWED_ORIGINS. */
  allowedOrigins: string[];
  dataDir: string;
  databaseUrl?: string;
  embeddedPgPort: number;
  smtpUrl?: string;
  mailFrom: string;
  /** TAKEDOWN_MAIL_FROM (null = the mail settings' sender). */
  takedownMailFrom: string | null;
  takedownHourlyLimit: number;
  secret: string;
  /** SECRET came from the environment (not generated in DATA_DIR): required with an external database. */
  secretFromEnv: boolean;
  adminEmail: string;
  adminPassword?: string;
  role: 'all' | 'api' | 'worker';
  /** API processes sharing the port (node:cluster, main.ts); the job worker is not multiplied. */
  webConcurrency: number;
  importWriters: number;
  trustProxy: boolean | string;
  logLevel: string;
  /** RESPONSE_CHECK (plugins/serializer.ts). */
  responseCheck: boolean;
  consoleDist: string;
  accessTtlSeconds: number;
  sessionIdleSeconds: number;
  sessionAbsoluteSeconds: number;
  cookieSecure: boolean;
  lockoutMaxFailures: number;
  lockoutWindowMinutes: number;
  lockoutAccountMaxFailures: number;
  lockoutAddressMaxAccounts: number;
  lockoutAccountWindowMinutes: number;
  chromiumPath?: string;
  /** OUTBOUND_ALLOW_PRIVATE (or SNAPSHOT_ALLOW_PRIVATE): the SSRF guard of lib/outbound.ts is off. */
  outboundAllowPrivate: boolean;
  snapshotHostMap: string;
  /** WATCH_* — the domain watch's limits per worker (modules/watch WatchOptions). */
  watch: { concurrency: number; perDestination: { concurrency: number; ratePerSecond: number }; tickSeconds: number };
  analyticsCacheEntries: number;
  accessCacheMs: number;
  listCacheMs: number;
  apiKeyRateLimit: number;
  maxEventLoopDelayMs: number;
  dbPoolMaxWaiting: number;
  /** Prometheus metrics (plugins/metrics.ts): off unless a port or a token is set. */
  metrics: MetricsSettings;
  /** The S3 bucket for stored files (S3_BUCKET set); absent = local disk under DATA_DIR/files. */
  s3?: S3Settings;
}

export interface MetricsSettings {
  /** Own listener for /metrics (METRICS_PORT; 0 = any free port). */
  port?: number;
  host: string;
  /** Bearer token for /metrics (METRICS_TOKEN): required on the main port and on the own listener. */
  token?: string;
}

interface S3Settings {
  bucket: string;
  endpoint?: string;
  region?: string;
  forcePathStyle: boolean;
  /** Absent = the SDK's default credential chain (environment, shared files, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** S3_BUCKET and the AWS SDK's variables → the store's settings; a message per mistake. */
function s3Settings(e: z.infer<typeof envSchema>, problems: string[]): S3Settings | undefined {
  const bucket = e.S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const endpoint = e.AWS_ENDPOINT_URL_S3 || e.AWS_ENDPOINT_URL || undefined;
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint))
    problems.push(
      `${e.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL'}: нужен адрес вида http(s)://хост[:порт]`,
    );
  const keyId = e.AWS_ACCESS_KEY_ID || undefined;
  const secretKey = e.AWS_SECRET_ACCESS_KEY || undefined;
  if (Boolean(keyId) !== Boolean(secretKey))
    problems.push('AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY: задаются вместе (или оба не заданы — тогда ключи ищет AWS SDK)');
  return {
    bucket,
    endpoint,
    // S3-compatible servers mostly ignore the region but the signature needs one.
    region: e.AWS_REGION || (endpoint ? 'us-east-1' : undefined),
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? false,
    credentials:
      keyId && secretKey
        ? { accessKeyId: keyId, secretAccessKey: secretKey, sessionToken: e.AWS_SESSION_TOKEN || undefined }
        : undefined,
  };
}

const repoRoot = REPO_ROOT;

/**
 * Reads the secret from DATA_DIR, creating it once (mode 600) when neither env nor file has it.
 * Processes starting at the same instant on one empty DATA_DIR agree: the secret is written whole to
 * a file of this process, then linked into place — exactly one link wins, the others read the winner.
 */
function loadSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, `${randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  try {
    linkSync(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
  return readFileSync(file, 'utf8').trim();
}

function parseTrustProxy(v?: string): boolean | string {
  if (!v) return false;
  if (v === 'true') return true;
  if (v === 'false') return false;
  // A hop count ("1") or a list of trusted addresses/CIDRs ("10.0.0.0/8,127.0.0.1").
  return v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Неверная конфигурация окружения:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const problems: string[] = [];
  const s3 = s3Settings(e, problems);
  if (problems.length) throw new Error(`Неверная конфигурация окружения:\n${problems.join('\n')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    allowedOrigins: allowedOrigins(publicUrl, e.PUBLIC_URL === undefined, e.ALLOWED_ORIGINS, problemsOrThrow),
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    takedownMailFrom: e.TAKEDOWN_MAIL_FROM?.trim() || null,
    takedownHourlyLimit: e.TAKEDOWN_RECIPIENT_HOURLY_LIMIT,
    secret: loadSecret(dataDir, e.SECRET),
    secretFromEnv: Boolean(e.SECRET),
    adminEmail: e.ADMIN_EMAIL.trim().toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD || undefined,
    role: e.ROLE,
    webConcurrency: e.WEB_CONCURRENCY,
    importWriters: e.IMPORT_WRITERS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    responseCheck: e.RESPONSE_CHECK ?? false,
    consoleDist: path.resolve(e.CONSOLE_DIST ?? path.join(repoRoot, 'apps/console/dist')),
    accessTtlSeconds: e.ACCESS_TTL_SECONDS,
    sessionIdleSeconds: e.SESSION_IDLE_SECONDS,
    sessionAbsoluteSeconds: e.SESSION_ABSOLUTE_SECONDS,
    cookieSecure: e.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    lockoutMaxFailures: e.LOCKOUT_MAX_FAILURES,
    lockoutWindowMinutes: e.LOCKOUT_WINDOW_MINUTES,
    lockoutAccountMaxFailures: e.LOCKOUT_ACCOUNT_MAX_FAILURES,
    lockoutAddressMaxAccounts: e.LOCKOUT_ADDRESS_MAX_ACCOUNTS,
    lockoutAccountWindowMinutes: e.LOCKOUT_ACCOUNT_WINDOW_MINUTES,
    chromiumPath: e.CHROMIUM_PATH || undefined,
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE ?? e.SNAPSHOT_ALLOW_PRIVATE ?? false,
    snapshotHostMap: e.SNAPSHOT_HOST_MAP ?? '',
    watch: {
      concurrency: e.WATCH_CONCURRENCY,
      perDestination: { concurrency: e.WATCH_DESTINATION_CONCURRENCY, ratePerSecond: e.WATCH_DESTINATION_RATE },
      tickSeconds: e.WATCH_TICK_SECONDS,
    },
    analyticsCacheEntries: e.ANALYTICS_CACHE_ENTRIES,
    accessCacheMs: e.ACCESS_CACHE_MS,
    listCacheMs: e.LIST_CACHE_MS,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    dbPoolMaxWaiting: e.DB_POOL_MAX_WAITING,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    s3,
  };
}

function problemsOrThrow(message: string): never {
  throw new Error(`Неверная конфигурация окружения:\n${message}`);
}

/**
 * The origins a browser's state-changing request may carry (issue #28: never the request's own Host,
 * which an attacker's page sets with DNS pointing at the server). PUBLIC_URL's origin; without
 * PUBLIC_URL (a local start on http://localhost:PORT) also its loopback twins 127.0.0.1 and [::1];
 * plus ALLOWED_ORIGINS, each an http(s) origin.
 */
export function allowedOrigins(
  publicUrl: string,
  defaulted: boolean,
  extra: string | undefined,
  fail: (m: string) => never,
): string[] {
  const base = new URL(publicUrl);
  const out = new Set([base.origin]);
  if (defaulted) for (const h of ['127.0.0.1', '[::1]']) out.add(`${base.protocol}//${h}${base.port ? `:${base.port}` : ''}`);
  for (const raw of (extra ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return fail(`ALLOWED_ORIGINS: «${raw}» — не адрес вида https://host[:порт]`);
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.pathname !== '/' || u.search || u.hash)
      return fail(`ALLOWED_ORIGINS: «${raw}» — нужен только источник вида https://host[:порт], без пути`);
    out.add(u.origin);
  }
  return [...out];
}
