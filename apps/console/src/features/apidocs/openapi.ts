/*
 * The subset of OpenAPI 3.1 the docs page reads, and helpers to group and resolve it. (The OpenAPI
 * document is a standard format, not one of the contract's shapes.)
 */

export type JsonSchema = { $ref?: string; [key: string]: unknown };

export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

export interface OpenApiMedia {
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, OpenApiMedia> };
  responses?: Record<string, { description?: string; content?: Record<string, OpenApiMedia> }>;
  security?: unknown[];
  deprecated?: boolean;
  [ext: `x-${string}`]: unknown;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;
  components?: { schemas?: Record<string, JsonSchema>; securitySchemes?: Record<string, unknown> };
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const METHOD_COLORS: Record<HttpMethod, string> = {
  get: 'green',
  post: 'blue',
  put: 'purple',
  patch: 'orange',
  delete: 'red',
  head: 'default',
  options: 'default',
};

/** Russian titles of the API areas (OpenAPI tags); an unknown tag is shown as is. */
const TAG_TITLES: Record<string, string> = {
  auth: 'Вход и сессии',
  profile: 'Профиль',
  users: 'Пользователи',
  companies: 'Компании',
  apikeys: 'API-ключи',
  events: 'События',
  modules: 'Модули',
  imports: 'Импорт',
  exports: 'Экспорт',
  reports: 'Отчёты',
  notifications: 'Уведомления',
  mailings: 'Рассылки',
  analytics: 'Аналитика',
  whitelist: 'Белые списки',
  allowlist: 'Разрешённые домены',
  tags: 'Теги',
  comments: 'Комментарии',
  docs: 'Файлы',
  leaks: 'Утечки',
  media: 'СМИ',
  telegram: 'Telegram',
  filtrator: 'Сообщения',
  messages: 'Сообщения',
  configs: 'Конфигурация',
  settings: 'Настройки',
  audit: 'Аудит',
  classifier: 'Классификатор (ML)',
  system: 'Система',
};

/** The order of the areas on the page: the ones a client needs first. */
const TAG_ORDER = Object.keys(TAG_TITLES);

export const tagTitle = (tag: string): string => TAG_TITLES[tag] ?? tag;

export interface Operation {
  key: string;
  method: HttpMethod;
  path: string;
  op: OpenApiOperation;
}

export interface OperationGroup {
  tag: string;
  title: string;
  operations: Operation[];
}

/** Operations grouped by their first tag (untagged → «Прочее»), groups in a stable, useful order. */
export function groupOperations(doc: OpenApiDocument): OperationGroup[] {
  const groups = new Map<string, Operation[]>();
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = ops?.[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'other';
      const list = groups.get(tag) ?? [];
      list.push({ key: `${method} ${path}`, method, path, op });
      groups.set(tag, list);
    }
  }
  const rank = (t: string) => {
    const i = TAG_ORDER.indexOf(t);
    return i < 0 ? TAG_ORDER.length : i;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([tag, operations]) => ({ tag, title: tag === 'other' ? 'Прочее' : tagTitle(tag), operations }));
}

/** Does the operation match a search text (path, summary, operationId, method)? */
export function matches(o: Operation, text: string): boolean {
  const q = text.trim().toLowerCase();
  if (!q) return true;
  return [o.path, o.method, o.op.summary, o.op.operationId, o.op.description].some((s) => s?.toLowerCase().includes(q));
}

/** The permission an operation declares (`x-permission`, `x-permissions`), if the document has it. */
export function permissionOf(op: OpenApiOperation): string | null {
  const p = op['x-permission'] ?? op['x-permissions'];
  if (typeof p === 'string') return p;
  if (Array.isArray(p)) return p.join(', ');
  return null;
}

/** Inlines `$ref`s to `#/components/…` (depth-limited; a cycle is left as the ref). */
export function resolveRefs(schema: unknown, doc: OpenApiDocument, depth = 0, seen: ReadonlySet<string> = new Set()): unknown {
  if (depth > 12 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => resolveRefs(s, doc, depth + 1, seen));
  const obj = schema as JsonSchema;
  if (typeof obj.$ref === 'string' && obj.$ref.startsWith('#/')) {
    if (seen.has(obj.$ref)) return obj;
    const target = obj.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((acc, part) => (acc && typeof acc === 'object' ? (acc as Record<string, unknown>)[part] : undefined), doc);
    if (target === undefined) return obj;
    return resolveRefs(target, doc, depth + 1, new Set([...seen, obj.$ref]));
  }
  return Object.fromEntries(
    Object.entries(obj)
      // ±2^53−1 bounds are zod's "any safe integer": noise for a reader.
      .filter(([k, v]) => !((k === 'minimum' || k === 'maximum') && Math.abs(Number(v)) === Number.MAX_SAFE_INTEGER))
      .map(([k, v]) => [k, resolveRefs(v, doc, depth + 1, seen)]),
  );
}

/** A short type label of a schema: 'string', 'integer', 'string[]', 'SUPER_ADMIN | ADMIN', 'object'. */
export function typeLabel(schema: JsonSchema | undefined): string {
  if (!schema) return '—';
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.map(String);
    return values.length > 6 ? `${values.slice(0, 6).join(' | ')} | …` : values.join(' | ');
  }
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const t = schema.type;
  if (t === 'array') return `${typeLabel(schema.items as JsonSchema | undefined)}[]`;
  if (Array.isArray(t)) return t.join(' | ');
  if (typeof t === 'string') return typeof schema.format === 'string' ? `${t} (${schema.format})` : t;
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alts = schema[k];
    if (Array.isArray(alts)) return alts.map((a) => typeLabel(a as JsonSchema)).join(' | ');
  }
  if (schema.$ref) return String(schema.$ref).split('/').pop() ?? 'object';
  return 'object';
}

/** Russian words for where a parameter goes. */
export const PARAM_IN: Record<OpenApiParameter['in'], string> = {
  path: 'путь',
  query: 'запрос',
  header: 'заголовок',
  cookie: 'cookie',
};
