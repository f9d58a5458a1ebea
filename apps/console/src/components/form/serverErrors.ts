import { getErrorBody } from '../../lib/http';

/**
 * Field errors of a failed request, for `form.setFields`: the API sends them as
 * `data.fields = {field: message}` (also accepted: a flat `data = {field: message}`).
 */
export function serverFieldErrors(error: unknown, known?: readonly string[]): { name: string; errors: string[] }[] {
  const data = getErrorBody(error)?.data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const rec = data as Record<string, unknown>;
  const fields =
    rec.fields && typeof rec.fields === 'object' && !Array.isArray(rec.fields) ? (rec.fields as Record<string, unknown>) : rec;
  return Object.entries(fields)
    .filter(([name, v]) => typeof v === 'string' && (!known || known.includes(name)))
    .map(([name, v]) => ({ name, errors: [v as string] }));
}
