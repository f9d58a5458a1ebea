import { API_MSG, STATUS_MESSAGES } from '@forpost/contract/errors';
import { isEchoSafe } from '@forpost/contract/validation';

/** An error whose Russian message is safe to show to the user. */
export class ApiError extends Error {
  constructor(
    public readonly statusCode: number,
    message: string,
    public readonly data?: unknown,
    public readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string = API_MSG.validation, fields?: Record<string, string>) =>
  new ApiError(400, message, fields ? { fields } : undefined);
export const unauthorized = (message: string = API_MSG.unauthorized) => new ApiError(401, message);
export const forbidden = (message: string = API_MSG.forbidden) => new ApiError(403, message);
export const notFound = (message: string = API_MSG.notFound) => new ApiError(404, message);
export const conflict = (message: string, fields?: Record<string, string>) =>
  new ApiError(409, message, fields ? { fields } : undefined);
export const tooManyRequests = (message: string = API_MSG.tooManyRequests, retryAfterSeconds?: number) =>
  new ApiError(
    429,
    message,
    retryAfterSeconds ? { retry_after: retryAfterSeconds } : undefined,
    retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : undefined,
  );

export const statusMessage = (code: number) => STATUS_MESSAGES[code] ?? (code >= 500 ? 'Internal Server Error' : 'Error');

/**
 * A field name that is safe to send back in `data.fields`: the client's own key when it is short,
 * printable text, otherwise «…» — an error never echoes a long or hostile key (NUL, lone surrogates).
 */
export function fieldName(path: readonly PropertyKey[]): string {
  const safe = path.map((p) => {
    const s = String(p);
    return isEchoSafe(s) ? s : '…';
  });
  return safe.join('.') || '_';
}
