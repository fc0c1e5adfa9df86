/**
 * A non-2xx answer (or a GraphQL error list) turned into one error type, so machines can branch on
 * `status` and read the contract's error body without knowing which client produced it.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The answer's `x-request-id` (server/src/plugins/security-headers.ts), for the 500 page to quote; null when absent. */
  requestId: string | null = null;

  constructor(
    readonly status: number,
    readonly body: unknown,
    message?: string,
  ) {
    super(message ?? `HTTP ${status}`);
  }
}

/** Notes the answer's request id on an error made from it, and returns the error (for `throw`). */
export function fromAnswer<E extends ApiError>(error: E, response: Response): E {
  error.requestId = response.headers.get('x-request-id');
  return error;
}

/** The request id of the failed call behind an error (itself or its `cause`), or null. */
export function requestIdOf(error: unknown): string | null {
  if (error instanceof ApiError) return error.requestId;
  if (error instanceof Error && error.cause !== undefined) return requestIdOf(error.cause);
  return null;
}

/** Field errors of the contract's 400 body, keyed by field (`body/email` → `email`). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 400) return {};
  const body = error.body as { errors?: unknown } | null;
  if (!body || !Array.isArray(body.errors)) return {};
  const out: Record<string, string> = {};
  for (const item of body.errors as unknown[]) {
    if (item && typeof item === 'object' && 'field' in item && 'message' in item) {
      const field = String(item.field).replace(/^(body|query|path|variables)\//, '');
      out[field] ??= String(item.message);
    }
  }
  return out;
}
