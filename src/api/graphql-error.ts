import { ApiError } from './api-error';

/** One GraphQL error as the server sends it. */
export interface GraphqlErrorItem {
  message: string;
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

/** A GraphQL answer that carried `errors`; `status` mirrors `extensions.http.status` or the HTTP status. */
export class GraphqlError extends ApiError {
  constructor(
    status: number,
    readonly errors: readonly GraphqlErrorItem[],
  ) {
    super(status, { errors }, errors[0]?.message ?? 'GraphQL error');
  }

  /** The first error's `extensions.code` (FORBIDDEN, BAD_USER_INPUT, …). */
  get code(): string | undefined {
    const code = this.errors[0]?.extensions?.['code'];
    return typeof code === 'string' ? code : undefined;
  }
}
