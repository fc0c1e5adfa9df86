import { isDatabaseUnavailable } from './unavailable';

/** Which failures are an outage (503, retry) and which are bugs or bad input (never hidden as 503). */
describe('isDatabaseUnavailable', () => {
  it.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    [
      'admin shutdown (pg_ctl stop)',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    ],
    ['starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['too many connections', Object.assign(new Error('sorry, too many clients already'), { code: '53300' })],
    ['connection exception class 08', Object.assign(new Error('connection failure'), { code: '08006' })],
    ['driver: terminated', new Error('Connection terminated unexpectedly')],
    ['driver: connect timeout', new Error('timeout exceeded when trying to connect')],
    ['wrapped in cause', new Error('query failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })],
    [
      'wrapped as originalError (GraphQL)',
      Object.assign(new Error('wrapped'), { originalError: Object.assign(new Error('x'), { code: '57P01' }) }),
    ],
    [
      'inside an AggregateError',
      new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })], 'all attempts failed'),
    ],
  ])('%s → unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['syntax error', Object.assign(new Error('syntax error at or near'), { code: '42601' })],
    ['check violation', Object.assign(new Error('violates check constraint'), { code: '23514' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('%s → not unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
