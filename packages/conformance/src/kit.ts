import { GRAPHQL_OPERATIONS, REST_OPERATION_IDS } from './kit-contract.js';
import { asRecord, conformanceClient, isoDay } from './kit-client.js';
import type { ConformanceClient, ConformanceOptions, Result } from './kit-client.js';
import {
  instancesAndConnections,
  permissionsAndRoles,
  sheetsAndDashboards,
  signIn,
  throwawayTenant,
  unauthorizedTable,
} from './kit-rest-steps.js';
import type { RunContext, RunTenants } from './kit-rest-steps.js';
import { savedViews } from './kit-view-steps.js';
import { webhookEndpoints } from './kit-webhook-endpoint-steps.js';
import { webhooks } from './kit-webhook-steps.js';
import { socketChecks } from './checks-socket.js';
import { cleanUp, noFixtures } from './kit-fixtures.js';
import { liveMachines } from './kit-machines.js';
import { deleteUserAndLogOut, graphqlOperations, restUsers, softDeleteAndRestore } from './kit-user-steps.js';
import { negativeCases } from './checks-negative.js';
import { tokenProtocol } from './checks-tokens.js';

/**
 * Conformance kit: drives ANY server that claims to implement the contracts (REST `contracts/openapi.yaml`,
 * GraphQL `contracts/schema.graphql` + `contracts/operations/`, the socket `contracts/socket.md`) over HTTP
 * and checks every answer against them. It imports nothing from the reference server: it discovers ids and
 * names from the server itself and only mutates records it creates (unique names), all of which it
 * removes at the end, whatever failed (./kit-fixtures.ts). docs/conformance.md.
 */

export {
  conformanceClient,
  type ConformanceClient,
  type ConformanceOptions,
  type Profile,
  type Result,
} from './kit-client.js';
export {
  GRAPHQL_OPERATIONS,
  REST_OPERATION_IDS,
  isExtension,
  validateRestResponse,
  type GraphqlOperationFile,
} from './kit-contract.js';
export { validateGraphqlData } from './kit-graphql-data.js';

/** What the groups of one run hand to each other. */
export interface RunState {
  me?: Record<string, unknown>;
  tenants?: RunTenants;
  roleId?: number | undefined;
  userId?: number | undefined;
}

/** A group of checks; `needs` run first (and report too) when only this group is asked for. */
export interface Group {
  name: string;
  description: string;
  needs: string[];
  /** Left out of a run that names no groups; runs when `only` names it. */
  optIn?: boolean;
  run(c: ConformanceClient, run: RunContext, state: RunState): Promise<void>;
}

const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} is missing: a group it needs did not run or failed`);
  return value;
};

/** Every group, in the order a whole run takes them. */
export const GROUPS: Group[] = [
  {
    name: 'unauthorized',
    description: 'the 401 table: no token, a malformed token',
    needs: [],
    run: (c) => unauthorizedTable(c),
  },
  {
    name: 'tenants',
    description: 'throwaway tenants (a customer, one to edit): create, list, update, plan, features',
    needs: [],
    run: async (c, run, state) => {
      state.tenants = await throwawayTenant(c, run);
    },
  },
  {
    name: 'instances',
    description: 'instances and connections of the throwaway tenant',
    needs: ['tenants'],
    run: (c, run, state) => instancesAndConnections(c, run, need(state.tenants, 'the throwaway tenant')),
  },
  {
    name: 'reports',
    description: 'sheets (JSON and CSV) and dashboards',
    needs: ['tenants'],
    run: (c, run, state) => sheetsAndDashboards(c, run, need(state.tenants, 'the throwaway tenant')),
  },
  {
    name: 'webhooks',
    description:
      'campaign-status webhooks: generation refused without an endpoint, then a run, its history, redelivery',
    needs: ['tenants'],
    run: (c, run, state) => webhooks(c, run, need(state.tenants, 'the throwaway tenant')),
  },
  {
    name: 'roles',
    description: 'permissions and roles',
    needs: [],
    run: async (c, run, state) => {
      state.roleId = await permissionsAndRoles(c, run);
    },
  },
  {
    name: 'users',
    description: 'users over REST, with the credential rules',
    needs: ['roles', 'tenants'],
    run: async (c, run, state) => {
      const me = need(state.me, 'the signed-in user');
      state.userId = await restUsers(c, run, me, state.roleId, need(state.tenants, 'the throwaway tenants'));
    },
  },
  {
    name: 'views',
    description: "saved views of a list: the caller's own, default, name conflict, hidden columns, delete",
    needs: [],
    run: (c, run) => savedViews(c, run),
  },
  {
    name: 'webhook-endpoints',
    description:
      "a tenant's webhook endpoints: secret once, duplicate and private address refused, pause, rotate, delete",
    needs: ['tenants'],
    run: (c, run, state) => webhookEndpoints(c, run, need(state.tenants, 'the throwaway tenant')),
  },
  {
    name: 'graphql',
    description: 'every GraphQL operations file',
    needs: ['roles', 'tenants'],
    run: (c, run, state) => graphqlOperations(c, run, state.roleId, need(state.tenants, 'the throwaway tenants')),
  },
  {
    name: 'socket',
    description: 'the socket protocol (contracts/socket.md): handshake, close codes, frames, ping, events, revocation',
    needs: ['tenants'],
    run: (c, run, state) =>
      socketChecks(c, run, need(state.me, 'the signed-in user'), need(state.tenants, 'the throwaway tenant')),
  },
  {
    name: 'machines',
    description: "the SPA's session, socket and feature-bulk machines along their model paths (--only)",
    needs: ['tenants'],
    // About 120 paths (24 sign-ins, 6 sockets, 93 feature-editor walks): 6 to 10 s on the reference server,
    // twice the rest of a run, so a run asks for it by name and the default run (and every broken-server
    // variant) does not pay for it.
    optIn: true,
    run: (c, _run, state) =>
      liveMachines(c, need(state.me, 'the signed-in user'), need(state.tenants, 'the throwaway tenant').tenantName),
  },
  {
    name: 'soft-delete',
    description: 'soft delete and restore of the throwaway tenant',
    needs: ['tenants'],
    run: (c, _run, state) => softDeleteAndRestore(c, need(state.tenants, 'the throwaway tenant')),
  },
  {
    name: 'negative',
    description: '400, 401, 403 matrix, 404, 409, the order 401 → 403 → 400, REST and GraphQL agreeing',
    needs: [],
    run: (c, run, state) => negativeCases(c, run, need(state.me, 'the signed-in user')),
  },
  {
    name: 'tokens',
    description: 'the token protocol: refresh, single-use rotation and its grace, reuse detection, sign-out',
    needs: [],
    run: (c) => tokenProtocol(c),
  },
  {
    name: 'logout',
    description: 'the REST user deleted, then sign-out and its 401',
    needs: [],
    run: (c, _run, state) => deleteUserAndLogOut(c, state.userId),
  },
];

export interface RunOptions extends ConformanceOptions {
  /** Groups to run (with what they need); all when empty or absent. */
  only?: string[];
  /** Groups not to run (nor the groups that need them). */
  skip?: string[];
  /**
   * Leave what the run created on the server, to look at after a failure (`--keep`): no clean-up, and a
   * result lists what stayed. The purge operations are then not exercised.
   */
  keep?: boolean;
}

/**
 * The groups a run takes, in order: `only` with what they need (every group but the opt-in ones when
 * `only` is empty), minus `skip` and what needs it.
 */
export function selectGroups(only: string[] = [], skip: string[] = []): Group[] {
  const known = new Set(GROUPS.map((g) => g.name));
  for (const name of [...only, ...skip])
    if (!known.has(name)) throw new Error(`no group ${name} (groups: ${[...known].join(', ')})`);
  const wanted = new Set<string>();
  const add = (name: string): void => {
    if (wanted.has(name)) return;
    wanted.add(name);
    for (const dependency of GROUPS.find((g) => g.name === name)?.needs ?? []) add(dependency);
  };
  for (const name of only.length > 0 ? only : GROUPS.filter((g) => g.optIn !== true).map((g) => g.name)) add(name);
  const skipped = new Set(skip);
  let grew = true;
  while (grew) {
    grew = false;
    for (const group of GROUPS)
      if (!skipped.has(group.name) && group.needs.some((n) => skipped.has(n))) {
        skipped.add(group.name);
        grew = true;
      }
  }
  return GROUPS.filter((g) => wanted.has(g.name) && !skipped.has(g.name));
}

/**
 * Runs the chosen groups against the server at `options.baseUrl`; one result per check. A whole run
 * (no `only`, no `skip`) also fails every operation of the profile it did not reach.
 */
export async function runConformance(options: RunOptions): Promise<Result[]> {
  const groups = selectGroups(options.only, options.skip);
  const c = conformanceClient(options);
  const today = new Date();
  const run: RunContext = {
    stamp: `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`,
    finishAt: isoDay(today),
    startAt: isoDay(new Date(today.getTime() - 29 * 86_400_000)),
    fixtures: noFixtures(),
  };
  c.position.group = 'sign-in';
  const me = await signIn(c);
  if (me) {
    const role = asRecord(me.role).id;
    if (typeof role === 'number') run.ownRoleId = role;
    if (typeof me.isConnected === 'boolean') run.ownConnected = me.isConnected;
    const state: RunState = { me };
    try {
      for (const group of groups) {
        if (options.interrupt?.aborted) {
          c.check('interrupted', 'rest', 0, [`the run was interrupted before the group ${group.name}`]);
          break;
        }
        c.position.group = group.name;
        try {
          await group.run(c, run, state);
        } catch (error) {
          c.check(`${group.name} (group)`, 'rest', 0, [`the group stopped: ${(error as Error).message}`]);
        }
      }
    } finally {
      // Whatever ran or stopped: remove what the run created (a group may have signed the caller out).
      c.position.group = 'cleanup';
      const signedIn = c.session.token;
      const { tenants, users, roles } = run.fixtures;
      if (options.keep)
        c.check(
          `cleanup skipped (--keep): left tenants ${tenants.map((t) => t.name ?? `#${t.id}`).join(', ') || 'none'}; users ${users.join(', ') || 'none'}; roles ${roles.join(', ') || 'none'}`,
          'rest',
          0,
          [],
        );
      else
        try {
          const fresh = await c.loginToken();
          if (fresh) c.session.token = fresh;
          await cleanUp(c, run.fixtures);
        } catch (error) {
          c.check('cleanup', 'rest', 0, [`the cleanup stopped: ${(error as Error).message}`]);
        } finally {
          c.session.token = signedIn;
        }
    }
  }
  const whole = (options.only ?? []).length === 0 && (options.skip ?? []).length === 0;
  // Without a sign-in nothing else ran: the one failed sign-in says so, not a list of every operation.
  return whole && me && !options.interrupt?.aborted ? finish(c) : c.results;
}

/** Every operation of the profile the run did not reach is a failed check of its own. */
function finish(c: ConformanceClient): Result[] {
  // A CSV check (kit-client.ts `csv`, labelled `<operation> (text/csv)`) exercises its operation too: an
  // export answers CSV only.
  const seen = new Set(c.results.map((r) => r.operation.replace(/ \(text\/csv\)$/, '')));
  c.position.group = 'coverage';
  for (const id of REST_OPERATION_IDS)
    if (c.inProfile(id) && !seen.has(id)) c.check(id, 'rest', 0, ['not exercised by the conformance kit']);
  for (const op of GRAPHQL_OPERATIONS)
    if (c.inProfile(op.name) && !seen.has(op.name))
      c.check(op.name, 'graphql', 0, ['not exercised by the conformance kit']);
  return c.results;
}

export { formatResults, toJson, toJunit } from './report.js';
