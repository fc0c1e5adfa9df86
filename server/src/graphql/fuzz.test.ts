import { describeGraphqlFuzz } from '../test-support/graphql-fuzz';

/**
 * In the normal suite: the contract fuzz of every GraphQL operation (generators and
 * oracle in server/src/test-support/graphql-fuzz.ts) at a quick size; `npm run test:reliability` runs
 * the full size (server/src/reliability/fuzz.reliability.ts).
 */
describeGraphqlFuzz({ validRuns: 25, invalidRuns: 20, orderingRuns: 400 });
