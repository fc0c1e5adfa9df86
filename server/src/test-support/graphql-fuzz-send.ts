import { validateGraphqlData, type GraphqlOperationFile } from '../../../packages/conformance/src/kit.js';
import { isInputObjectType, Kind, type TypeNode } from 'graphql';
import { DOCUMENTED, mint, pools, run, schema } from './graphql-fuzz-state';
import { variablesValid } from './graphql-fuzz-cases';
import type { Case } from './graphql-fuzz-cases';

// ------------------------------------------------------------------------------------------------------
// The run
// ------------------------------------------------------------------------------------------------------

export const stats = {
  requests: 0,
  server5xx: 0,
  valid: 0,
  invalid: 0,
  ok: 0,
  documentedErrors: 0,
  tenantNotFound: 0,
  ownRoleRefused: 0,
};

/**
 * Whether a case would give the caller another role of its own: updateUser on the caller itself at its
 * own tenant's path, naming an existing role other than the one it has. The only refusal of no way up
 * (src/domain/escalation.ts) an administrador meets, answered FORBIDDEN (HTTP 403) once its input passed.
 */
async function ownRoleChange(operation: string, c: Case): Promise<boolean> {
  const { id, role_id: roleId } = c.variables;
  if (operation !== 'updateUser' || id !== run.caller.id || c.tenant !== run.caller.tenantName) return false;
  // Only a GraphQL Int is looked up: a broken case's -1e308 or 1.5 is refused 400 before any rule, and
  // the database would refuse it as an integer too.
  if (!isGraphqlInt(roleId) || roleId === run.callerRole) return false;
  return (await run.t.db.selectFrom('roles').select('id').where('id', '=', roleId).executeTakeFirst()) !== undefined;
}
function isGraphqlInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
}
/**
 * Whether a case asks for one's own two-factor off or one's own enrolment requirement: refused FORBIDDEN
 * (HTTP 403) whatever the caller holds (contracts/schema.graphql updateUserSettings,
 * server/src/access/self-service.ts), before its other variables are read.
 */
function ownTwoFactorChange(operation: string, c: Case): boolean {
  const { user_id: id, two_factor_enabled: enabled, two_factor_enrolment_required: required } = c.variables;
  return (
    operation === 'updateUserSettings' &&
    id === run.caller.id &&
    (enabled === false || (required !== undefined && required !== null))
  );
}
export const problems: string[] = [];

async function keepCallerIntact(): Promise<void> {
  const verified = await run.t.app.tokens.verify(run.token);
  const row = await run.t.db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['r.name', 'u.blocked', 'u.deleted_at'])
    .where('u.id', '=', run.caller.id)
    .executeTakeFirstOrThrow();
  if (verified.ok && row.name === 'administrador' && !row.blocked && !row.deleted_at) return;
  const admin = await run.t.db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', 'administrador')
    .executeTakeFirstOrThrow();
  await run.t.db
    .updateTable('users')
    .set({ role_id: admin.id, blocked: false, deleted_at: null })
    .where('id', '=', run.caller.id)
    .execute();
  run.token = await mint(run.caller);
}

export async function send(op: GraphqlOperationFile, c: Case): Promise<void> {
  // Operations that end or rotate the caller's session get one of their own. The password user may have
  // been deleted or blocked by an earlier fuzzed call (its id is in the pool): bring it back first, or
  // every later updateUserPassword answers 401 for a reason the case did not choose.
  // Its password goes back to the run's, so a right current password is right whatever changed it before.
  if (op.name === 'updateUserPassword')
    await run.t.db
      .updateTable('users')
      .set({ blocked: false, deleted_at: null, password_hash: run.passwordHash })
      .where('id', '=', run.passwordUser.id)
      .execute();
  const ownRole = (await ownRoleChange(op.name, c)) || ownTwoFactorChange(op.name, c);
  const bearer =
    op.name === 'updateUserPassword'
      ? await mint(run.passwordUser)
      : op.name === 'refreshToken'
        ? await mint(run.caller)
        : run.token;
  const response = await run.t.app.fastify.inject({
    method: 'POST',
    url: `/${c.tenant}/graphql`,
    headers: {
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
    },
    payload: JSON.stringify({ query: op.source, operationName: op.name, variables: c.variables }),
  });
  stats.requests += 1;
  const label = `${op.name} /${c.tenant}/graphql ${JSON.stringify(c.variables).slice(0, 200)}`;
  const status = response.statusCode;
  let body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: { code?: string; field?: string } }[];
  };
  try {
    body = response.json();
  } catch {
    problems.push(`not JSON: ${label} → ${status} ${response.body.slice(0, 160)}`);
    return;
  }
  if (status >= 500) {
    stats.server5xx += 1;
    problems.push(`5xx: ${label} → ${status} ${response.body.slice(0, 200)}`);
    return;
  }
  const valid = variablesValid(op, c.variables);
  if (valid) stats.valid += 1;
  else stats.invalid += 1;
  const codes = (body.errors ?? []).map((e) => e.extensions?.code ?? '(none)');
  if (status === 404 && codes.join() === 'NOT_FOUND' && !pools.live.has(c.tenant)) {
    stats.tenantNotFound += 1; // an unknown tenant in the path, whatever the variables
  } else if (!valid) {
    // One's own two-factor settings are refused before their variables are read (permission before input).
    const ownRefused =
      status === 403 &&
      ownTwoFactorChange(op.name, c) &&
      codes.length > 0 &&
      codes.every((code) => code === 'FORBIDDEN');
    if (!ownRefused && (status !== 400 || !body.errors?.length || body.data !== undefined))
      problems.push(`invalid accepted: ${label} → ${status} ${response.body.slice(0, 200)}`);
  } else if (status === 403 && ownRole && codes.length > 0 && codes.every((code) => code === 'FORBIDDEN')) {
    // No way up (contracts/schema.graphql updateUser): nobody changes its own role, an administrador included;
    // nor its own two-factor through updateUserSettings.
    stats.ownRoleRefused += 1;
  } else if (ownRole && status === 200 && !body.errors?.length) {
    problems.push(`own role changed: ${label} → ${response.body.slice(0, 200)}`);
  } else if (status !== 200) {
    problems.push(`valid refused: ${label} → ${status} ${response.body.slice(0, 240)}`);
  } else if (body.errors?.length) {
    // A refusal names a variable, or a field of a variable's input object (usersPage's `filter.q` is `q`,
    // as REST's query parameter is: contracts/schema.graphql UserFilter).
    const names = new Set(
      (op.operation.variableDefinitions ?? []).flatMap((d) => {
        const type = schema.getType(namedTypeOf(d.type));
        return [d.variable.name.value, ...(isInputObjectType(type) ? Object.keys(type.getFields()) : [])];
      }),
    );
    const documented = DOCUMENTED[op.name] ?? [];
    const bad = (body.errors ?? []).filter(
      (e) =>
        !documented.includes(e.extensions?.code ?? '') ||
        (['BAD_USER_INPUT', 'NOT_FOUND'].includes(e.extensions?.code ?? '') && !names.has(e.extensions?.field ?? '')),
    );
    if (bad.length) problems.push(`undocumented error: ${label} → ${JSON.stringify(bad).slice(0, 240)}`);
    else stats.documentedErrors += 1;
  } else {
    stats.ok += 1;
    const check = validateGraphqlData(op, body.data);
    if (check.length) problems.push(`data breaks the selection: ${label} → ${check.slice(0, 3).join('; ')}`);
  }
  if (['updateUser', 'deleteUser', 'disconnectUser'].includes(op.name)) await keepCallerIntact();
}

/** The named type under a variable's list and non-null wrappers. */
function namedTypeOf(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : namedTypeOf(type.type);
}
