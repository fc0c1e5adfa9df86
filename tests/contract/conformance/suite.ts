import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import {
  GRAPHQL_OPERATIONS,
  REST_OPERATION_IDS,
  formatResults,
  runConformance,
  type Result,
} from '../../../packages/conformance/src/kit.js';

/**
 * The conformance kit against the in-process reference server on a fresh database: `pglite://memory`
 * or a `postgres://…` server (a schema of its own). Same checks on both engines.
 */
export function describeConformance(
  label: string,
  databaseUrl: () => Promise<{ url: string; stop(): Promise<void> }>,
): void {
  let testApp: TestApp | undefined;
  let stopDatabase: (() => Promise<void>) | undefined;
  let results: Result[] = [];

  beforeAll(async () => {
    const database = await databaseUrl();
    stopDatabase = () => database.stop();
    testApp = await startTestApp({ databaseUrl: database.url });
    await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
    const address = testApp.app.fastify.server.address() as AddressInfo;
    results = await runConformance({
      baseUrl: `http://127.0.0.1:${address.port}`,
      email: 'admin@demo.local',
      password: 'Back#Office!Demo',
    });
  }, 180_000);

  afterAll(async () => {
    await testApp?.close();
    await stopDatabase?.();
  });

  describe(`conformance kit against the reference server on ${label}`, () => {
    it('exercises every REST operation of the contract', () => {
      // A CSV check (`<operation> (text/csv)`) exercises its operation: an export answers CSV only.
      const seen = new Set(
        results.filter((r) => r.kind === 'rest').map((r) => r.operation.replace(/ \(text\/csv\)$/, '')),
      );
      expect(REST_OPERATION_IDS.filter((id) => !seen.has(id))).toEqual([]);
    });

    it('exercises every GraphQL operations file', () => {
      const seen = new Set(results.filter((r) => r.kind === 'graphql').map((r) => r.operation));
      expect(GRAPHQL_OPERATIONS.map((op) => op.name).filter((name) => !seen.has(name))).toEqual([]);
    });

    it('checks the 401 table and soft-delete/restore', () => {
      const names = results.map((r) => r.operation);
      expect(names).toEqual(
        expect.arrayContaining([
          '401 no token (REST)',
          '401 garbage token (REST)',
          '401 token after logout (REST)',
          'soft delete / restore',
        ]),
      );
    });

    it('checks the credential rules: own password refused, the current password asked, other sessions ended', () => {
      const names = results.map((r) => r.operation);
      expect(names).toEqual(
        expect.arrayContaining([
          'userUpdate (own password: 403)',
          'userUpdate (own e-mail without the current password)',
          'userUpdate (own e-mail with the current password)',
          '401 another session after an own e-mail change (REST)',
          'updateUserPassword (wrong current password)',
          'authUserInfo (token answered by updateUserPassword)',
          '401 another session after a password change (REST)',
        ]),
      );
    });

    it('checks the socket protocol (contracts/socket.md)', () => {
      const socket = results.filter((r) => r.kind === 'socket');
      expect(socket.map((r) => r.operation)).toEqual(
        expect.arrayContaining([
          'socket handshake with a ticket',
          'socket ping answered with pong',
          'socket ticket used twice: 4401',
          'socket InstanceUpdated to the tenant (instanceCreate)',
          'socket sign-out closes that session only: 4401',
          'socket frames: base64 of UTF-8 JSON envelopes',
        ]),
      );
    });

    it('finds no contract violation', () => {
      const failed = results.filter((r) => !r.ok);
      if (failed.length > 0) console.error(formatResults(failed));
      expect(failed.map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
    });
  });
}
