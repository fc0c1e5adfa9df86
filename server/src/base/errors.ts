/** Seconds a client is asked to wait (`Retry-After`) after a 503 of a database outage (server/src/db/unavailable.ts). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * Errors a handler throws to answer with one of the contract's bodies (contracts/openapi.yaml
 * components/responses). The app's error handler turns them into replies.
 */
export type UnauthorizedBody =
  | { status: 'Authorization Token not found' | 'Token is Invalid' | 'Token is Expired' | 'Unauthorized' }
  | { error: 'Token has expired' };

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body['message'] === 'string' ? body['message'] : `HTTP ${statusCode}`);
  }
}

export const unauthorized = (body: UnauthorizedBody) => new HttpError(401, body);
export const forbidden = (required: readonly string[] = []) =>
  new HttpError(403, { message: 'Forbidden', required_permission: [...required] });
export const notFound = (what = 'Not found') => new HttpError(404, { message: what });
export const conflict = (message: string, field?: string) =>
  new HttpError(409, field ? { message, field } : { message });
export const badRequest = (field: string, message: string) =>
  new HttpError(400, { message: 'Validation failed', errors: [{ field, message }] });
export const tooManyRequests = (retryAfter: number) =>
  new HttpError(
    429,
    { message: 'Too many failed attempts', retry_after: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
/** 503 of contracts/openapi.yaml `ServiceUnavailable`, with `Retry-After`. */
export const unavailable = (message = 'Database unavailable', retryAfter = DATABASE_RETRY_AFTER_SECONDS) =>
  new HttpError(503, { status: 'unavailable', message }, { 'Retry-After': String(retryAfter) });
