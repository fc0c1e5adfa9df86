/**
 * Test fixtures for the users machine (src/machines/users/users.machine.ts): the REST shape of a
 * row, user 2 (online), and a started machine over a fake server that pages users 1 and 2.
 */
import { createActor } from 'xstate';
import type { components } from '../../generated/openapi';
import type { UserRow } from '../users/users-actors';
import { usersMachine, type UsersEvent, type UsersOutcome } from '../users/users.machine';
import { fakeServer, gqlData, operationOf, type SeenRequest } from './fake-fetch';
import type { Subject } from '../../domain/escalation';
import { roleRows, userRow } from './user-fixtures';
import { usersPageOf } from './users-page';

/** The departments GraphQL `departments` lists in these tests. */
export const departmentRows = [
  { id: 1, name: 'Atendimento', activated: true },
  { id: 2, name: 'Vendas', activated: true },
];

type RestUser = components['schemas']['User'];
/** `row` as the REST API answers it. */
export const restUser = (row: UserRow): RestUser => ({
  ...row,
  version: 1,
  role: { ...row.role, version: 1, has_permission_routes: [] },
  userDepartment: row.userDepartment && { ...row.userDepartment, version: 1 },
  userInstances: row.userInstances.map((link) => ({ ...link, instance: { ...link.instance, version: 1 } })),
  tenantName: 'backoffice',
  origin_backoffice: false,
});

/** User 2, online: the row the contract tests act on. */
export const two = userRow(2, { isConnected: true });

/**
 * A started users machine over a fake server that pages `rows` (default users 1 and {@link two}) through
 * GraphQL `usersPage` as the server does (users-page.ts), the {@link roleRows} through `roles` and the
 * {@link departmentRows} through `departments`; `respond` answers every other request (it throws on
 * one left unanswered). `subject`: the signed-in user (default: not known, nothing refused locally).
 * `searchDelayMs` is 0 unless given.
 */
export function startUsers(
  respond: (request: SeenRequest) => Response | Promise<Response> | undefined = () => undefined,
  subject: Subject | null = null,
  {
    rows = [userRow(1), two],
    searchDelayMs = 0,
    awaitStart = false,
  }: { rows?: UserRow[]; searchDelayMs?: number; awaitStart?: boolean } = {},
) {
  const fake = fakeServer((request) => {
    const answer = respond(request);
    if (answer) return answer;
    const op = operationOf(request);
    if (op?.name === 'usersPage') return gqlData(usersPageOf(rows, op.variables));
    if (op?.name === 'roles') return gqlData({ roles: roleRows });
    if (op?.name === 'departments') return gqlData({ departments: departmentRows });
    throw new Error(`unexpected ${request.method} ${request.path} ${op?.name ?? ''}`);
  });
  const actor = createActor(usersMachine, {
    input: { execute: fake.execute, rest: fake.rest, presenceIntervalMs: 0, searchDelayMs, subject, awaitStart },
  }).start();
  const outcomes: UsersOutcome[] = [];
  actor.on('outcome', (outcome) => outcomes.push(outcome));
  const send = (event: UsersEvent) => actor.send(event);
  return { fake, actor, send, outcomes, ctx: () => actor.getSnapshot().context };
}
