import {
  GRAPHQL_OPERATIONS,
  validateGraphqlData,
  validateRestResponse,
} from '../../../packages/conformance/src/kit.js';
import { describeConformance } from './suite';

/** The kit against the in-process reference server on a fresh in-memory PGlite. */
describeConformance('PGlite', async () => ({ url: 'pglite://memory', stop: async () => undefined }));

describe('conformance kit validators', () => {
  const roles = GRAPHQL_OPERATIONS.find((op) => op.name === 'roles');
  const role = { id: 1, name: 'administrador', display_name: 'Administrador', has_permission_routes: ['users'] };

  it('accepts GraphQL data matching the selection', () => {
    expect(roles && validateGraphqlData(roles, { roles: [role] })).toEqual([]);
  });

  it('reports missing fields, nulls in non-null fields, wrong scalars and unselected fields', () => {
    if (!roles) throw new Error('contracts/operations/roles.query.graphql is missing');
    const { display_name: _omitted, ...withoutName } = role;
    expect(validateGraphqlData(roles, { roles: [withoutName] })).toEqual([
      'graphql: data.roles[0].display_name is missing',
    ]);
    expect(validateGraphqlData(roles, { roles: [{ ...role, name: null }] })).toEqual([
      'graphql: data.roles[0].name is null but String! is non-null',
    ]);
    expect(validateGraphqlData(roles, { roles: [{ ...role, id: '1' }] })).toEqual([
      'graphql: data.roles[0].id is "1", not a Int',
    ]);
    expect(validateGraphqlData(roles, { roles: null })).toEqual([
      'graphql: data.roles is null but [Role!]! is non-null',
    ]);
    expect(validateGraphqlData(roles, { roles: [], extra: 1 })).toEqual(['graphql: data.extra was not selected']);
  });

  it('reports REST bodies that break the schema and statuses the contract does not list', () => {
    expect(validateRestResponse('healthLive', 200, { status: 'ok' })).toEqual([]);
    expect(validateRestResponse('healthLive', 200, { status: 'fine' })).not.toEqual([]);
    expect(validateRestResponse('healthLive', 418, {})).toEqual(['the contract lists no 418 answer']);
  });
});
