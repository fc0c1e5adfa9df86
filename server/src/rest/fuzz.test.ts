import { describeRestFuzz } from '../test-support/rest-fuzz';

/**
 * In the normal suite: the contract fuzz of every REST operation (see
 * server/src/test-support/rest-fuzz.ts for the generators and the oracle), at a size that keeps this
 * file quick. `npm run test:reliability` runs the full size, at least 10 000 requests
 * (server/src/reliability/fuzz.reliability.ts).
 */
describeRestFuzz({
  validRuns: 25,
  invalidRuns: 35,
  heavy: { authLogin: 8, userCreate: 12, userUpdate: 15 },
  minRequests: 2_500,
  orderingRuns: 600,
});
