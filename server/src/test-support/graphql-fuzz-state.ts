import { buildSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import type { TestApp } from './app';
import type { TestUser } from './users';

export { TEST_PASSWORD } from './users';
import { SCHEMA_PATH } from '../graphql/index';

/** What the parts of the GraphQL fuzz run (./graphql-fuzz.ts) share: its size, the schema, its app and callers, the pools of values. */

export interface GraphqlFuzzSize {
  /** Requests per operation with valid and with broken variables. */
  validRuns: number;
  invalidRuns: number;
  /** Runs of the order-of-checks property (no token, a bad token, a caller without the permission). */
  orderingRuns: number;
}

/** `npm run test:reliability`. */
export const FULL_GRAPHQL_FUZZ: GraphqlFuzzSize = { validRuns: 90, invalidRuns: 70, orderingRuns: 2_000 };
export const schema = buildSchema(readFileSync(SCHEMA_PATH, 'utf8'));

/** Execution errors the schema documents per operation (contracts/schema.graphql descriptions). */
export const DOCUMENTED: Record<string, string[]> = {
  logIn: [
    'INVALID_CREDENTIALS',
    'TWO_FACTOR_REQUIRED',
    'INVALID_TWO_FACTOR_CODE',
    'TWO_FACTOR_ENROLMENT_REQUIRED',
    'TWO_FACTOR_ENROLMENT_EXPIRED',
    'BAD_USER_INPUT',
  ],
  newUser: ['BAD_USER_INPUT', 'NOT_FOUND', 'USER_LIMIT_REACHED'],
  updateUser: ['BAD_USER_INPUT', 'NOT_FOUND'],
  // BAD_USER_INPUT `password` or `current_password` (a wrong current password: the fuzzer's are mostly wrong).
  updateUserPassword: ['BAD_USER_INPUT'],
  deleteUser: ['BAD_USER_INPUT', 'NOT_FOUND'],
  disconnectUser: ['NOT_FOUND'],
  deleteUserInstance: ['NOT_FOUND'],
  updateUserSettings: ['BAD_USER_INPUT', 'NOT_FOUND'],
  userInstances: ['NOT_FOUND'],
  createDepartment: ['BAD_USER_INPUT'],
  updateDepartment: ['BAD_USER_INPUT', 'NOT_FOUND'],
  createConnection: ['BAD_USER_INPUT', 'NOT_FOUND'],
  updateConnection: ['BAD_USER_INPUT', 'NOT_FOUND'],
  auditRecords: ['BAD_USER_INPUT'],
  auditNames: ['BAD_USER_INPUT'],
  usersPage: ['BAD_USER_INPUT'],
};
// Every change that takes a `version` (contracts/schema.graphql, "no lost update") documents STALE: the
// fuzzer's versions are random, so most of them are stale.
for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
  if (field.args.some((arg) => arg.name === 'version')) (DOCUMENTED[field.name] ??= []).push('STALE');
}

/**
 * The run's app and callers, set up by {@link describeGraphqlFuzz}'s beforeAll: the caller (administrador,
 * its role `callerRole`), the user whose own password updateUserPassword changes, with the stored hash of
 * its password ({@link TEST_PASSWORD}) put back before each such call so the right current password stays
 * right.
 */
export const run = {} as {
  t: TestApp;
  caller: TestUser;
  callerRole: number;
  passwordUser: TestUser;
  passwordHash: string;
  token: string;
};
/** Callers the guard refuses before reading the body: a customer tenant's user on another tenant's path; staff without route `users`. */
export const refused = {
  outsider: undefined as unknown as TestUser,
  outsiderToken: '',
  operador: undefined as unknown as TestUser,
  operadorToken: '',
};
export const pools = { ids: [] as number[], tenants: [] as string[], live: new Set<string>() };

export async function mint(user: TestUser): Promise<string> {
  const { token_version } = await run.t.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', user.id)
    .executeTakeFirstOrThrow();
  return (await run.t.app.tokens.issue(user.id, token_version)).token;
}
