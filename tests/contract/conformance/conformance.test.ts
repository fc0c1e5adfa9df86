import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../../../server/src/test-support/app';
import { GRAPHQL_OPERATIONS, REST_OPERATION_IDS, formatResults, runConformance, validateGraphqlData, validateRestResponse, type Result } from './kit';

/** The conformance kit against the in-process reference server on a fresh in-memory database. */
let testApp: TestApp;
let baseUrl: string;
let results: Result[];

beforeAll(async () => {
  testApp = await startTestApp();
  await testApp.app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const address = testApp.app.fastify.server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${address.port}`;
  results = await runConformance({ baseUrl, email: 'admin@demo.local', password: 'Back#Office!Demo' });
}, 180_000);

afterAll(async () => {
  await testApp?.close();
});

describe('conformance kit against the reference server', () => {
  it('exercises every REST operation of the contract', () => {
    const seen = new Set(results.filter((r) => r.kind === 'rest').map((r) => r.operation));
    expect(REST_OPERATION_IDS.filter((id) => !seen.has(id))).toEqual([]);
  });

  it('exercises every GraphQL operations file', () => {
    const seen = new Set(results.filter((r) => r.kind === 'graphql').map((r) => r.operation));
    expect(GRAPHQL_OPERATIONS.map((op) => op.name).filter((name) => !seen.has(name))).toEqual([]);
  });

  it('checks the 401 table and soft-delete/restore', () => {
    const names = results.map((r) => r.operation);
    expect(names).toEqual(
      expect.arrayContaining(['401 no token (REST)', '401 garbage token (REST)', '401 token after logout (REST)', 'soft delete / restore']),
    );
  });

  it('finds no contract violation', () => {
    const failed = results.filter((r) => !r.ok);
    if (failed.length > 0) console.error(formatResults(failed));
    expect(failed.map((r) => `${r.operation}: ${r.problems.join(' | ')}`)).toEqual([]);
  });
});

describe('conformance kit validators', () => {
  const roles = GRAPHQL_OPERATIONS.find((op) => op.name === 'roles');
  const role = { id: 1, name: 'administrador', display_name: 'Administrador', has_permission_routes: ['users'] };

  it('accepts GraphQL data matching the selection', () => {
    expect(roles && validateGraphqlData(roles, { roles: [role] })).toEqual([]);
  });

  it('reports missing fields, nulls in non-null fields, wrong scalars and unselected fields', () => {
    if (!roles) throw new Error('contracts/operations/roles.query.graphql is missing');
    const { display_name: _omitted, ...withoutName } = role;
    expect(validateGraphqlData(roles, { roles: [withoutName] })).toEqual(['graphql: data.roles[0].display_name is missing']);
    expect(validateGraphqlData(roles, { roles: [{ ...role, name: null }] })).toEqual(['graphql: data.roles[0].name is null but String! is non-null']);
    expect(validateGraphqlData(roles, { roles: [{ ...role, id: '1' }] })).toEqual(['graphql: data.roles[0].id is "1", not a Int']);
    expect(validateGraphqlData(roles, { roles: null })).toEqual(['graphql: data.roles is null but [Role!]! is non-null']);
    expect(validateGraphqlData(roles, { roles: [], extra: 1 })).toEqual(['graphql: data.extra was not selected']);
  });

  it('reports REST bodies that break the schema and statuses the contract does not list', () => {
    expect(validateRestResponse('healthLive', 200, { status: 'ok' })).toEqual([]);
    expect(validateRestResponse('healthLive', 200, { status: 'fine' })).not.toEqual([]);
    expect(validateRestResponse('healthLive', 418, {})).toEqual(['the contract lists no 418 answer']);
  });
});
