import { defineParitySuite } from '../test-support/parity-suite';

/**
 * REST ↔ GraphQL differential suite on PGlite (server/src/test-support/parity-suite.ts): two in-memory
 * twins, one driven through contracts/openapi.yaml, the other through contracts/schema.graphql.
 */
defineParitySuite('pglite', async () => ({ url: 'pglite://memory', stop: async () => undefined }));
