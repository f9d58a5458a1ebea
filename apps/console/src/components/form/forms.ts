import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import type { z } from 'zod';
import { errorMessage, getErrorBody } from '../../lib/http';

/**
 * The API's field errors (`data.fields` of a 400/409: {field: Russian message}) as antd form
 * fields. `map` renames API keys to form names (e.g. 'fields.domain' → ['fields', 'domain']).
 */
export function apiFieldErrors(error: unknown): Record<string, string> {
  const data = getErrorBody(error)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  const raw = 'fields' in data ? (data as { fields: unknown }).fields : data;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(
    Object.entries(raw as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/**
 * Puts the API's field errors on the form's fields it knows (`names`); returns the message to show
 * above the form when some error did not land on a field (or there were no field errors).
 */
export function applyApiErrors<T extends object>(
  form: FormInstance<T>,
  error: unknown,
  names: readonly string[],
  rename: (apiKey: string) => string | (string | number)[] = (k) => k,
): string | null {
  const fields = apiFieldErrors(error);
  const placed: { name: string | (string | number)[]; errors: string[] }[] = [];
  let unplaced = false;
  for (const [key, msg] of Object.entries(fields)) {
    const name = rename(key);
    const head = Array.isArray(name) ? name.join('.') : name;
    if (names.includes(head)) placed.push({ name, errors: [msg] });
    else unplaced = true;
  }
  if (placed.length) form.setFields(placed as never);
  return placed.length && !unplaced ? null : errorMessage(error);
}

/**
 * A form's request body checked with its contract schema: the parsed body, or undefined after the
 * issues were put on the fields they name (`fallbackField` for an issue about the whole body).
 */
export function parseForForm<T>(form: FormInstance, schema: z.ZodType<T>, body: unknown, fallbackField?: string): T | undefined {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  form.setFields(parsed.error.issues.map((i) => ({ name: String(i.path[0] ?? fallbackField), errors: [i.message] })) as never);
  return undefined;
}

/** An antd rule from a contract zod schema: the schema's own Russian message. Empty values are left to `required`. */
export function zodRule(schema: z.ZodType, opts: { skipEmpty?: boolean } = {}): Rule {
  const skipEmpty = opts.skipEmpty ?? true;
  return {
    validator: async (_rule, value: unknown) => {
      if (skipEmpty && (value === undefined || value === null || value === '')) return;
      const r = schema.safeParse(value);
      if (!r.success) throw new Error(r.error.issues[0]?.message ?? 'Неверное значение');
    },
  };
}

/** An antd rule from a predicate-style check returning an error message or null. */
export function checkRule(check: (value: string) => string | null): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const msg = check(String(value));
      if (msg) throw new Error(msg);
    },
  };
}
