import { describeRestFuzz, FULL_REST_FUZZ } from '../test-support/rest-fuzz';
import { describeGraphqlFuzz, FULL_GRAPHQL_FUZZ } from '../test-support/graphql-fuzz';

/**
 * The contract fuzz at full size: at least 10 000 generated REST requests over every operation, and the
 * GraphQL operations, each run printing its request count and its 5xx count (which must be 0).
 */
describe('REST', () => describeRestFuzz(FULL_REST_FUZZ));
describe('GraphQL', () => describeGraphqlFuzz(FULL_GRAPHQL_FUZZ));
