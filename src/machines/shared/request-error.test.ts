import { ApiError } from '../../api/api-error';
import { GraphqlError } from '../../api/graphql-client';
import { actionError, conflictCodeOf, reasonKeyOf, refusedFields } from './request-error';

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

  it.each([
    ['webhook_endpoint_taken', 'webhooks.refusals.endpointTaken'],
    ['webhook_endpoint_limit', 'webhooks.refusals.endpointLimit'],
    ['webhook_endpoint_paused', 'webhooks.refusals.endpointPaused'],
    ['webhook_endpoint_deleted', 'webhooks.refusals.endpointDeleted'],
    ['webhook_no_endpoint', 'webhooks.refusals.noEndpoint'],
    ['webhook_delivery_in_progress', 'webhooks.refusals.deliveryInProgress'],
    ['email_taken', 'apiErrors.conflict'],
  ])('reads a 409 `%s` by its code', (code, key) => {
    expect(reasonKeyOf(new ApiError(409, { message: 'no', error: code }))).toBe(key);
    expect(conflictCodeOf(new ApiError(409, { message: 'no', error: code }))).toBe(code);
  });

  it('a 409 without a code, or another status with one, reads as before', () => {
    expect(conflictCodeOf(new ApiError(409, { message: 'no' }))).toBeNull();
    expect(conflictCodeOf(new ApiError(400, { error: 'webhook_endpoint_taken' }))).toBeNull();
    expect(reasonKeyOf(new ApiError(400, { error: 'webhook_endpoint_taken' }))).toBe('apiErrors.validation');
  });

  it('reads a 403 by its reason (REST `reason`, GraphQL FORBIDDEN message), else the generic refusal', () => {
    const rest = (reason?: string) =>
      new ApiError(403, { message: 'Forbidden', required_permission: [], ...(reason ? { reason } : {}) });
    expect(reasonKeyOf(rest('only back-office staff may do this'))).toBe('access.staffOnly');
    expect(reasonKeyOf(rest('this user holds permissions you do not hold: tenants, users'))).toBe('access.actOnLacks');
    expect(reasonKeyOf(rest("you cannot change your own role's permissions"))).toBe('access.ownRolePermissions');
    expect(reasonKeyOf(rest('you cannot change your own role; another administrator must'))).toBe('access.ownRole');
    expect(reasonKeyOf(rest('only back-office staff may make an instance official or unlimited'))).toBe(
      'access.staffBillingFlags',
    );
    // No reason, or one this panel does not know: the generic refusal, never the server's English text.
    expect(reasonKeyOf(rest())).toBe('apiErrors.forbidden');
    expect(reasonKeyOf(rest('some reason added later'))).toBe('apiErrors.forbidden');
    expect(reasonKeyOf(new ApiError(403, null))).toBe('apiErrors.forbidden');
    const graphql = (message: string) => new GraphqlError(403, [{ message, extensions: { code: 'FORBIDDEN' } }]);
    expect(
      reasonKeyOf(
        graphql('Forbidden: needs route permission `users`: only an administrador may change an administrador'),
      ),
    ).toBe('access.actOnAdministrador');
    expect(reasonKeyOf(graphql('Forbidden: the role grants permissions you do not hold: tenants'))).toBe(
      'access.grantLacks',
    );
    expect(reasonKeyOf(graphql('Forbidden: needs route permission `users`'))).toBe('apiErrors.forbidden');
    expect(
      actionError('users.errors.save', graphql('Forbidden: only an administrador may make another user administrador')),
    ).toEqual({
      key: 'users.errors.save',
      reason: 'access.grantAdministrador',
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
