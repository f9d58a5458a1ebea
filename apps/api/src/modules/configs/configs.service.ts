import {
  CONFIG_KEYS,
  CONFIG_MSG,
  CONFIG_REGISTRY,
  type ConfigGroup,
  type ConfigItem,
  type ConfigKey,
  type ConfigValue,
  type ConfigValues,
  isConfigKey,
  validateConfigValue,
} from '@forpost/contract/configs';
import type pg from 'pg';
import type { Config } from '../../config';
import { type ChangeListener, connectionOf, createChangeListener } from '../../db/change-listener';
import type { Db } from '../../db/client';
import type { Audit } from '../../lib/audit';
import type { Caller } from '../../lib/caller';
import { badRequest, conflict, notFound } from '../../lib/errors';
import { errInfo, type Logger } from '../../lib/logger';
import { settingReachesForbidden } from '../../lib/outbound';
import { createSecretBox } from '../../lib/secretbox';
import { iso } from '../../lib/serialize';
import { CONFIGS_CHANNEL, type ConfigsRepo, createConfigsRepo, type StoredConfig } from './configs.repo';

/** How long a cached value is trusted even without a notification (a safety net; NOTIFY is the real signal). */
const CONFIG_CACHE_TTL_MS = 60_000;
const HIDDEN = '[скрыто]';

/** Defaults taken from the environment (the registry's own default applies to the rest). */
function envDefaults(config: Config): Partial<ConfigValues> {
  return {
    smtp_url: config.smtpUrl ?? '',
    mail_from: config.mailFrom,
    session_idle_minutes: Math.max(1, Math.round(config.sessionIdleSeconds / 60)),
    session_absolute_hours: Math.max(1, Math.round(config.sessionAbsoluteSeconds / 3600)),
    access_token_ttl_seconds: config.accessTtlSeconds,
    lockout_max_failures: config.lockoutMaxFailures,
    lockout_window_minutes: config.lockoutWindowMinutes,
  };
}

export interface ConfigsServiceDeps {
  db: Db;
  /** The application's pool: its connection settings open the one LISTEN connection. */
  pool: pg.Pool;
  config: Config;
  audit: Audit;
  log: Pick<Logger, 'warn'>;
  repo?: ConfigsRepo;
  ttlMs?: number;
}

/**
 * System settings. `get(key)` is what other modules call: typed, cached per instance, and
 * invalidated on every instance through PostgreSQL LISTEN/NOTIFY when any instance changes a value.
 * While the LISTEN connection is down nothing is cached (every `get` reads the database).
 */
export function createConfigsService(deps: ConfigsServiceDeps) {
  const { db, audit, log } = deps;
  const repo = deps.repo ?? createConfigsRepo(db);
  const ttlMs = deps.ttlMs ?? CONFIG_CACHE_TTL_MS;
  const box = createSecretBox(deps.config.secret, 'configs');
  const fromEnv = envDefaults(deps.config);
  const subscribers = new Set<(key: string) => void>();

  const defaultOf = <K extends ConfigKey>(key: K): ConfigValue<K> =>
    (fromEnv[key] ?? CONFIG_REGISTRY[key].default) as ConfigValue<K>;
  const isSecret = (key: ConfigKey) => 'secret' in CONFIG_REGISTRY[key] && CONFIG_REGISTRY[key].secret === true;

  let cache: { values: Map<ConfigKey, unknown>; at: number } | null = null;
  let generation = 0;
  let loading: Promise<Map<ConfigKey, unknown>> | null = null;

  function invalidate(key = '') {
    generation++;
    cache = null;
    loading = null; // a read already in flight may predate the change: the next get starts afresh
    for (const fn of subscribers) {
      try {
        fn(key);
      } catch (err) {
        log.warn({ err: errInfo(err) }, 'config subscriber failed');
      }
    }
  }

  const listener: ChangeListener = createChangeListener({
    connection: connectionOf(deps.pool),
    channel: CONFIGS_CHANNEL,
    onChange: (key) => invalidate(key),
    onReset: () => invalidate(),
    log,
  });

  /** The stored value, decoded and checked; undefined if none or if it no longer fits its type. */
  function decode(row: Pick<StoredConfig, 'key' | 'value'>): unknown {
    if (!isConfigKey(row.key)) return undefined;
    let raw = row.value;
    if (isSecret(row.key)) {
      try {
        raw = box.open(String(raw));
      } catch {
        log.warn({ key: row.key }, 'stored secret setting cannot be decrypted (SECRET changed?); using the default');
        return undefined;
      }
    }
    const v = validateConfigValue(row.key, raw);
    if (!v.ok) {
      log.warn({ key: row.key }, 'stored setting does not fit its type any more; using the default');
      return undefined;
    }
    return v.value;
  }

  async function load(): Promise<Map<ConfigKey, unknown>> {
    const listening = await listener.ensure();
    const gen = generation;
    const rows = await repo.list();
    const values = new Map<ConfigKey, unknown>();
    for (const r of rows) {
      const v = decode(r);
      if (v !== undefined && isConfigKey(r.key)) values.set(r.key, v);
    }
    // A change that arrived while we were reading makes this snapshot suspect: do not keep it.
    if (listening && listener.ready && gen === generation) cache = { values, at: Date.now() };
    return values;
  }

  async function values(): Promise<Map<ConfigKey, unknown>> {
    if (cache && Date.now() - cache.at < ttlMs) return cache.values;
    if (loading) return loading;
    const p: Promise<Map<ConfigKey, unknown>> = load().finally(() => {
      if (loading === p) loading = null;
    });
    loading = p;
    return p;
  }

  function toItem(key: ConfigKey, row: StoredConfig | undefined): ConfigItem {
    const d = CONFIG_REGISTRY[key];
    const secret = isSecret(key);
    const stored = row ? decode(row) : undefined;
    const value = stored !== undefined ? stored : defaultOf(key);
    return {
      key,
      title: d.title,
      description: d.description,
      group: d.group,
      type: d.type,
      unit: ('unit' in d ? d.unit : undefined) ?? null,
      min: ('min' in d ? d.min : undefined) ?? null,
      max: ('max' in d ? d.max : undefined) ?? null,
      is_secret: secret,
      value: secret ? null : (value as ConfigItem['value']),
      default: secret ? null : (defaultOf(key) as ConfigItem['default']),
      has_value: row !== undefined,
      updated_at: iso(row?.updatedAt),
      updated_by: row?.updatedBy != null && row.updatedByName != null ? { id: row.updatedBy, name: row.updatedByName } : null,
    };
  }

  function keyOf(id: string): ConfigKey {
    if (!isConfigKey(id)) throw notFound('Настройка не найдена');
    return id;
  }

  function checked<K extends ConfigKey>(key: K, value: unknown): ConfigValue<K> {
    const v = validateConfigValue(key, value);
    if (!v.ok) throw badRequest(v.message, { value: v.message });
    // An integration's address in a private network: a stolen administrator session must not aim the
    // server at the cloud metadata service or internal hosts (names are checked again when connecting).
    if (!deps.config.outboundAllowPrivate && settingReachesForbidden(key, v.value))
      throw badRequest(CONFIG_MSG.privateAddress, { value: CONFIG_MSG.privateAddress });
    return v.value;
  }

  const encode = (key: ConfigKey, value: unknown) => (isSecret(key) ? box.seal(String(value)) : value);
  const shown = (key: ConfigKey, value: unknown) => (isSecret(key) ? HIDDEN : value);

  return {
    /** The effective value of a setting: stored, else the environment's, else the built-in default. */
    async get<K extends ConfigKey>(key: K): Promise<ConfigValue<K>> {
      const v = (await values()).get(key);
      return (v === undefined ? defaultOf(key) : v) as ConfigValue<K>;
    },
    /** Every setting at once (one cache read). */
    async getAll(): Promise<ConfigValues> {
      const v = await values();
      return Object.fromEntries(CONFIG_KEYS.map((k) => [k, v.has(k) ? v.get(k) : defaultOf(k)])) as ConfigValues;
    },
    /** Called with the changed key ('' = possibly all) whenever this instance learns of a change. */
    subscribe(fn: (key: string) => void): () => void {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    /** Drops this instance's cache (the next `get` reads the database). */
    invalidate: () => invalidate(),
    async close() {
      await listener.close();
    },

    /* --- administration (routes) --- */

    async list(q: { group?: ConfigGroup } = {}) {
      const rows = new Map((await repo.list()).map((r) => [r.key, r]));
      const items = CONFIG_KEYS.filter((k) => !q.group || CONFIG_REGISTRY[k].group === q.group).map((k) =>
        toItem(k, rows.get(k)),
      );
      return { items, total: items.length, page: 1, page_size: Math.max(items.length, 1) };
    },

    async item(id: string): Promise<ConfigItem> {
      const key = keyOf(id);
      return toItem(key, await repo.find(key));
    },

    async create({ actor }: Pick<Caller, 'actor'>, body: { key: ConfigKey; value: unknown }): Promise<ConfigItem> {
      const key = keyOf(body.key);
      const value = checked(key, body.value);
      await db.transaction(async (tx) => {
        if (!(await repo.insert(key, encode(key, value), actor.userId ?? null, tx))) {
          throw conflict(CONFIG_MSG.alreadySet, { key: CONFIG_MSG.alreadySet });
        }
        await audit.record(
          actor,
          { action: 'config.create', entity: 'config', entityId: key, after: { value: shown(key, value) } },
          tx,
        );
        await repo.notify(key, tx);
      });
      invalidate(key);
      return toItem(key, await repo.find(key));
    },

    async update({ actor }: Pick<Caller, 'actor'>, id: string, raw: unknown): Promise<ConfigItem> {
      const key = keyOf(id);
      const value = checked(key, raw);
      await db.transaction(async (tx) => {
        const before = await repo.find(key, tx);
        await repo.upsert(key, encode(key, value), actor.userId ?? null, tx);
        await audit.record(
          actor,
          {
            action: 'config.update',
            entity: 'config',
            entityId: key,
            before: { value: before ? shown(key, decode(before) ?? null) : null },
            after: { value: shown(key, value) },
          },
          tx,
        );
        await repo.notify(key, tx);
      });
      invalidate(key);
      return toItem(key, await repo.find(key));
    },

    /** Removes the stored value: the setting returns to its default. */
    async remove({ actor }: Pick<Caller, 'actor'>, id: string): Promise<void> {
      const key = keyOf(id);
      await db.transaction(async (tx) => {
        const before = await repo.find(key, tx);
        if (!before || !(await repo.remove(key, tx))) throw notFound(CONFIG_MSG.notSet);
        await audit.record(
          actor,
          { action: 'config.reset', entity: 'config', entityId: key, before: { value: shown(key, decode(before) ?? null) } },
          tx,
        );
        await repo.notify(key, tx);
      });
      invalidate(key);
    },
  };
}
export type ConfigsService = ReturnType<typeof createConfigsService>;
