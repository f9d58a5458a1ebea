/**
 * The part of the Fastify (pino) logger the API's services, jobs and database code use. A piece
 * that needs less asks for less (`Pick<Logger, 'warn'>`), so a test can pass `{ warn() {} }`.
 */
export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/**
 * What a log line may say about an error: its message, code and cause, never the values a failed
 * query carried. Drizzle's query error puts the parameters into its message («params: …») and onto
 * the error — a sealed session, a password hash or an API key would reach the log with them — so
 * the message is cut at «params:» and the parameters are left out; the database's own reason (the
 * cause, e.g. «deadlock detected», code 40P01) is what the reader needs and is kept.
 */
export function errInfo(e: unknown): { message: string; code?: string; cause?: { message: string; code?: string } } {
  const err = e instanceof Error ? e : new Error(String(e));
  const message = withoutParams(err.message);
  const code = (err as { code?: unknown }).code;
  const out: { message: string; code?: string; cause?: { message: string; code?: string } } = { message };
  if (typeof code === 'string') out.code = code;
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const causeCode = (cause as { code?: unknown }).code;
    out.cause = { message: withoutParams(cause.message) };
    if (typeof causeCode === 'string') out.cause.code = causeCode;
  }
  return out;
}

function withoutParams(message: string): string {
  const i = message.indexOf('\nparams:');
  return i < 0 ? message : message.slice(0, i);
}
