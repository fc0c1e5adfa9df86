import { ApiError } from '../../api/api-error';
import { GraphqlError } from '../../api/graphql-client';
import { actionError, reasonKeyOf, refusedFields } from './request-error';

describe('request errors as i18n keys', () => {
  it('names the reason by GraphQL code, HTTP status, network failure or abort', () => {
    const abort = new Error('aborted');
    abort.name = 'AbortError';
    expect(reasonKeyOf(abort)).toBe('apiErrors.cancelled');
    expect(reasonKeyOf(new GraphqlError(200, [{ message: 'x', extensions: { code: 'USER_LIMIT_REACHED' } }]))).toBe(
      'apiErrors.userLimit',
    );
    expect(reasonKeyOf(new GraphqlError(500, [{ message: 'x', extensions: { code: 'INTERNAL_SERVER_ERROR' } }]))).toBe(
      'apiErrors.server',
    );
    expect(reasonKeyOf(new ApiError(409, null))).toBe('apiErrors.conflict');
    expect(reasonKeyOf(new ApiError(429, null))).toBe('apiErrors.tooManyRequests');
    expect(reasonKeyOf(new ApiError(502, null))).toBe('apiErrors.server');
    expect(reasonKeyOf(new ApiError(418, null))).toBe('apiErrors.unknown');
    expect(reasonKeyOf(new TypeError('fetch failed'))).toBe('apiErrors.network');
    expect(reasonKeyOf('??')).toBe('apiErrors.unknown');
    expect(actionError('users.errors.delete', new ApiError(404, null))).toEqual({
      key: 'users.errors.delete',
      reason: 'apiErrors.notFound',
    });
  });

  it('maps refused fields from REST 400, REST 409 and GraphQL errors', () => {
    const rest400 = new ApiError(400, {
      message: 'Validation failed',
      errors: [
        { field: 'body/email', message: 'bad' },
        { field: 'query/tenantName', message: 'bad' },
      ],
    });
    expect(refusedFields(rest400)).toEqual({ email: 'apiErrors.fieldInvalid', tenantName: 'apiErrors.fieldInvalid' });
    expect(refusedFields(new ApiError(409, { message: 'exists', field: 'name' }))).toEqual({
      name: 'apiErrors.fieldTaken',
    });
    expect(refusedFields(new ApiError(409, { message: 'exists' }))).toEqual({});
    const gql = new GraphqlError(200, [
      { message: 'bad', extensions: { code: 'BAD_USER_INPUT', field: 'username' } },
      { message: 'missing', extensions: { code: 'NOT_FOUND', field: 'role_id' } },
      { message: 'no field', extensions: { code: 'BAD_USER_INPUT' } },
    ]);
    expect(refusedFields(gql)).toEqual({ username: 'apiErrors.fieldInvalid', role_id: 'apiErrors.fieldNotFound' });
    expect(refusedFields(new Error('x'))).toEqual({});
  });
});
