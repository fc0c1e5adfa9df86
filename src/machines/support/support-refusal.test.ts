import { ApiError } from '../../api/api-error';
import { SUPPORT_CONFLICTS, supportRefusalKey } from './support-refusal';

describe('supportRefusalKey', () => {
  it.each(SUPPORT_CONFLICTS)('reads the 409 `%s` as its own message', (code) => {
    expect(supportRefusalKey(new ApiError(409, { message: 'x', error: code }))).toBe(`support.refusals.${code}`);
  });

  it('reads an unknown or absent 409 code as the generic conflict', () => {
    expect(supportRefusalKey(new ApiError(409, { message: 'x', error: 'something_new' }))).toBe('apiErrors.conflict');
    expect(supportRefusalKey(new ApiError(409, { message: 'x', field: 'email' }))).toBe('apiErrors.conflict');
    expect(supportRefusalKey(new ApiError(409, null))).toBe('apiErrors.conflict');
  });

  it('tells mail being off apart from the database being down', () => {
    expect(supportRefusalKey(new ApiError(503, { status: 'mail_disabled', message: 'x' }))).toBe(
      'support.refusals.mail_disabled',
    );
    expect(supportRefusalKey(new ApiError(503, { status: 'unavailable', message: 'x' }))).toBe('apiErrors.unavailable');
  });

  it("reads a 403 by the server's reason, as every screen does", () => {
    expect(
      supportRefusalKey(
        new ApiError(403, { message: 'Forbidden', reason: 'this user holds permissions you do not hold' }),
      ),
    ).toBe('access.actOnLacks');
    expect(supportRefusalKey(new ApiError(403, { message: 'Forbidden' }))).toBe('apiErrors.forbidden');
  });

  it("uses the action's own 404 key when it has one", () => {
    expect(supportRefusalKey(new ApiError(404, null), 'support.refusals.sessionGone')).toBe(
      'support.refusals.sessionGone',
    );
    expect(supportRefusalKey(new ApiError(404, null))).toBe('apiErrors.notFound');
  });
});
