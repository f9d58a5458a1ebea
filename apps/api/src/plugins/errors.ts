import { API_MSG } from '@forpost/contract/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { isDbUnavailable } from '../db/client';
import { ApiError, fieldName, statusMessage } from '../lib/errors';
import { errInfo } from '../lib/logger';

function send(reply: import('fastify').FastifyReply, code: number, message: string, data?: unknown) {
  const body: Record<string, unknown> = { statusCode: code, statusMessage: statusMessage(code), message };
  if (data !== undefined) body.data = data;
  return reply.code(code).type('application/json; charset=utf-8').send(body);
}

/** A validation item as fastify-type-provider-zod makes it: `keyword` = zod's issue code, `params` = the rest of the issue. */
type ZodIssueLike = {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { keys?: string[]; issue?: { code?: string; keys?: string[]; path?: PropertyKey[]; message?: string } };
};
const UNKNOWN_FIELD = 'Неизвестное поле';

/** Fastify/zod validation output → {field: Russian message}; nothing the client sent is echoed but short, safe keys. */
function fieldsOf(validation: ZodIssueLike[], context?: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const v of validation) {
    const issue = v.params?.issue;
    const issuePath = issue?.path ?? (v.instancePath ?? '').replace(/^\//, '').split('/').filter(Boolean);
    // Unknown keys: each becomes its own field (named only when short and printable, see fieldName).
    if ((issue?.code ?? v.keyword) === 'unrecognized_keys') {
      // zod's message names the keys only when they are safe to name (contract zod-setup).
      for (const k of issue?.keys ?? v.params?.keys ?? []) fields[fieldName([...issuePath, k])] ??= v.message ?? UNKNOWN_FIELD;
      continue;
    }
    const key = issuePath.length ? fieldName(issuePath) : context || '_';
    fields[key] ??= issue?.message ?? v.message ?? API_MSG.validation;
  }
  return fields;
}

/** Multipart bodies the parser (busboy, @fastify/multipart) could not read: no boundary, cut short, malformed. */
const MULTIPART_CODES = new Set([
  'FST_INVALID_MULTIPART_CONTENT_TYPE',
  'FST_MP_PREMATURE_CLOSE',
  'FST_PROTO_VIOLATION',
  'FST_INVALID_JSON_FIELD_ERROR',
]);
const BUSBOY_MESSAGES = new Set([
  'Multipart: Boundary not found',
  'Unexpected end of multipart data',
  'Unexpected end of form',
  'Malformed part header',
  'Unsupported Content-Type.',
]);
function isMultipartError(err: { code?: string; message?: string }): boolean {
  return MULTIPART_CODES.has(err.code ?? '') || BUSBOY_MESSAGES.has(err.message ?? '');
}

/** The SQLSTATE of a PostgreSQL error, also when a query builder wrapped it (`cause`). */
function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 3; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { validationContext?: string }, req, reply) => {
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      return send(reply, err.statusCode, err.message, err.data);
    }
    if (hasZodFastifySchemaValidationErrors(err) || err.validation) {
      const fields = fieldsOf((err.validation ?? []) as ZodIssueLike[], err.validationContext);
      const first = Object.entries(fields)[0];
      const message = first && Object.keys(fields).length === 1 ? first[1] : API_MSG.validation;
      return send(reply, 400, message, { fields });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err: { message: err.message, issues: err.cause?.issues } }, 'response does not match its schema');
      return send(reply, 500, API_MSG.generic);
    }
    if (isMultipartError(err)) return send(reply, 400, API_MSG.badMultipart);
    // Safety net behind the id rule (contract `idRule`): a number a column can't hold is no such object.
    if (sqlState(err) === '22003') {
      req.log.warn({ err: errInfo(err) }, 'numeric value out of range');
      return send(reply, 404, API_MSG.notFound);
    }
    if (isDbUnavailable(err)) {
      req.log.warn({ err: errInfo(err) }, 'database unavailable');
      return send(reply, 503, API_MSG.unavailable);
    }
    const code = err.statusCode ?? 500;
    if (code >= 400 && code < 500) {
      const byCode: Record<string, string> = {
        FST_ERR_CTP_INVALID_JSON_BODY: API_MSG.badJson,
        FST_ERR_CTP_EMPTY_JSON_BODY: API_MSG.badJson,
        FST_ERR_CTP_BODY_TOO_LARGE: API_MSG.tooLarge,
        FST_ERR_CTP_INVALID_MEDIA_TYPE: API_MSG.unsupportedMedia,
        FST_ERR_CTP_INVALID_CONTENT_LENGTH: API_MSG.badJson,
        FST_REQ_FILE_TOO_LARGE: API_MSG.tooLarge,
        FST_PARTS_LIMIT: API_MSG.tooLarge,
        FST_FILES_LIMIT: API_MSG.tooLarge,
        FST_ERR_RATE_LIMIT: API_MSG.tooManyRequests,
      };
      let message = byCode[err.code] ?? (code === 413 ? API_MSG.tooLarge : code === 404 ? API_MSG.notFound : API_MSG.validation);
      if (err instanceof SyntaxError || /prototype|constructor/i.test(err.message)) message = API_MSG.badJson;
      return send(reply, code, message);
    }
    req.log.error({ err: errInfo(err), stack: err.stack }, 'unhandled error');
    return send(reply, 500, API_MSG.generic);
  });
}

export function sendNotFound(reply: import('fastify').FastifyReply) {
  return send(reply, 404, API_MSG.routeNotFound);
}
