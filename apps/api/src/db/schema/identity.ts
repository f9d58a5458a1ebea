import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  inet,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    legalName: text('legal_name'),
    inn: text('inn'),
    ogrn: text('ogrn'),
    contactName: text('contact_name'),
    contactEmail: text('contact_email'),
    contactPhone: text('contact_phone'),
    modules: text('modules').array().notNull().default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('companies_name_lower_uq').on(sql`lower(${t.name})`)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['SUPER_ADMIN', 'ADMIN', 'ANALYST', 'VIEWER', 'COMPANY_USER'] }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    is2faEnabled: boolean('is_2fa_enabled').notNull().default(false),
    totpSecret: text('totp_secret'),
    totpLastStep: integer('totp_last_step'),
    allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
    avatarDocId: integer('avatar_doc_id'),
    pendingActivation: boolean('pending_activation').notNull().default(false),
    passwordChangedAt: ts('password_changed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`)],
);

export const companyMembers = pgTable(
  'company_members',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['COMPANY_ADMIN', 'COMPANY_ANALYST', 'COMPANY_VIEWER'] }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.companyId] }), index('company_members_company_idx').on(t.companyId)],
);

/** One row per signed-in device. Access tokens are HMAC-signed and name the session; refresh tokens rotate. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshHash: text('refresh_hash').notNull(),
    prevRefreshHash: text('prev_refresh_hash'),
    rotatedAt: ts('rotated_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    idleExpiresAt: ts('idle_expires_at').notNull(),
    absoluteExpiresAt: ts('absolute_expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedReason: text('revoked_reason'),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    uniqueIndex('sessions_refresh_uq').on(t.refreshHash),
    index('sessions_prev_refresh_idx').on(t.prevRefreshHash),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull().defaultNow(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorKeyId: integer('actor_key_id'),
    action: text('action').notNull(),
    entity: text('entity'),
    entityId: text('entity_id'),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    ip: inet('ip'),
    userAgent: text('user_agent'),
    before: jsonb('before'),
    after: jsonb('after'),
    meta: jsonb('meta'),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_actor_idx').on(t.actorUserId),
    index('audit_log_company_idx').on(t.companyId),
    index('audit_log_entity_idx').on(t.entity, t.entityId),
  ],
);

/** Product keys: issued for a company, shown once, stored hashed; activating one makes the user a member. */
export const productKeys = pgTable(
  'product_keys',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    companyRole: text('company_role', { enum: ['COMPANY_ADMIN', 'COMPANY_ANALYST', 'COMPANY_VIEWER'] })
      .notNull()
      .default('COMPANY_VIEWER'),
    modules: text('modules').array().notNull().default(sql`'{}'::text[]`),
    validFrom: ts('valid_from').notNull().defaultNow(),
    validUntil: ts('valid_until'),
    maxActivations: integer('max_activations').notNull().default(1),
    activations: integer('activations').notNull().default(0),
    comment: text('comment'),
    revokedAt: ts('revoked_at'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('product_keys_hash_uq').on(t.keyHash),
    index('product_keys_company_idx').on(t.companyId),
    index('product_keys_created_by_idx').on(t.createdBy),
  ],
);

export const productKeyActivations = pgTable(
  'product_key_activations',
  {
    id: serial('id').primaryKey(),
    keyId: integer('key_id')
      .notNull()
      .references(() => productKeys.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('pka_key_idx').on(t.keyId), uniqueIndex('pka_user_key_uq').on(t.userId, t.keyId)],
);

/** API keys: company-scoped, roles per module (read/write) or collector; secret shown once, stored hashed. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ownerUserId: integer('owner_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    secretHash: text('secret_hash').notNull(),
    prefix: text('prefix').notNull(),
    roles: jsonb('roles').$type<{ module: string; access: 'read' | 'write' }[]>().notNull().default([]),
    collector: boolean('collector').notNull().default(false),
    allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
    expiresAt: ts('expires_at'),
    isActive: boolean('is_active').notNull().default(true),
    lastUsedAt: ts('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    rotatedAt: ts('rotated_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('api_keys_secret_uq').on(t.secretHash),
    index('api_keys_company_idx').on(t.companyId),
    index('api_keys_owner_idx').on(t.ownerUserId),
  ],
);

/** TOTP recovery codes, hashed, each usable once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** Password reset / invitation tokens: random, hashed, single-use, short-lived; a newer one kills older ones. */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    purpose: text('purpose', { enum: ['reset', 'invite'] })
      .notNull()
      .default('reset'),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_tokens_hash_uq').on(t.tokenHash), index('password_tokens_user_idx').on(t.userId)],
);

/** Failed attempts for brute-force limits, shared by every server instance. */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    scope: text('scope').notNull(),
    subject: text('subject').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('auth_failures_lookup_idx').on(t.scope, t.subject, t.at)],
);

/**
 * Requests per API key per fixed one-minute window (the per-key rate limit), shared by every
 * server instance; windows older than the previous one are pruned by the counter itself.
 */
export const apiKeyRateWindows = pgTable(
  'api_key_rate_windows',
  {
    keyId: integer('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    windowStart: ts('window_start').notNull(),
    n: integer('n').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] }), index('api_key_rate_windows_start_idx').on(t.windowStart)],
);
