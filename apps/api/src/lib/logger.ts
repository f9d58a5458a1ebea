/**
 * The part of the Fastify (pino) logger the API's services, jobs and database code use. A piece
 * that needs less asks for less (`Pick<Logger, 'warn'>`), so a test can pass `{ warn() {} }`.
 */
export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}
