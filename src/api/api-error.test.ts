import { ApiError, requestIdOf } from './api-error';
import { unwrap } from './rest-client';

describe('request id of a failed call', () => {
  it("is read from the answer's x-request-id by unwrap, and found through an error's cause", () => {
    const response = new Response('{}', { status: 500, headers: { 'x-request-id': 'req-7' } });
    let caught: unknown;
    try {
      unwrap({ error: { message: 'boom' }, response });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).requestId).toBe('req-7');
    expect(requestIdOf(new Error('screen failed', { cause: caught }))).toBe('req-7');
  });

  it('is null without the header or without a call', () => {
    expect(() => unwrap({ error: null, response: new Response('{}', { status: 502 }) })).toThrow(ApiError);
    try {
      unwrap({ error: null, response: new Response('{}', { status: 502 }) });
    } catch (error) {
      expect(requestIdOf(error)).toBeNull();
    }
    expect(requestIdOf(new Error('render failed'))).toBeNull();
    expect(requestIdOf('not an error')).toBeNull();
  });
});
