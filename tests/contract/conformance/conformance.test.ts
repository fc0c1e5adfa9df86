import { describeConformance } from './suite';

/** The kit against the in-process reference server on a fresh in-memory PGlite. */
describeConformance('PGlite', async () => ({ url: 'pglite://memory', stop: async () => undefined }));
