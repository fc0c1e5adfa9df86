import { sql, type Kysely } from 'kysely';
import { isDeepStrictEqual } from 'node:util';
import type { App } from '../app';
import type { Database } from '../db/schema';
import type { PrincipalName } from './parity-fixture';
import { DOCS, isRecord } from './parity-outcomes';
import type { Answer, GraphqlField, Protocol } from './parity-outcomes';

// ------------------------------------------------------------------------------------------------------
// Twins
// ------------------------------------------------------------------------------------------------------

interface UserState {
  row: unknown[];
  hash: string;
}

export interface State {
  users: Map<number, UserState>;
  links: unknown[];
  tenants: unknown[];
  attempts: unknown[];
  families: [string, number, boolean][];
  /** Departments and connections (id, scope, name, activated), by id. */
  records: unknown[];
}

export class Twin {
  /** The Authorization header of each principal on this twin, as of now in the case. */
  auth: Record<PrincipalName, string | undefined>;
  /** Last compared state (per case). */
  state: State | undefined;
  /** Whether a step since the last reset may have written. */
  dirty = true;
  private baselineAttempt = 0;
  private baselineAuth: Record<PrincipalName, string | undefined> | undefined;

  constructor(
    readonly protocol: Protocol,
    readonly app: App,
    readonly db: Kysely<Database>,
    private readonly closeDatabase: () => Promise<void>,
  ) {
    this.auth = {
      boAdmin: undefined,
      boOp: undefined,
      aAdmin: undefined,
      aManager: undefined,
      aOp: undefined,
      bAdmin: undefined,
      anon: undefined,
      malformed: 'Bearer not.a.jwt',
      revoked: undefined,
    };
  }

  async rest(
    authorization: string | undefined,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (authorization) headers.authorization = authorization;
    const response = await this.app.fastify.inject({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
    return { status: response.statusCode, body: parse(response.body) };
  }

  async graphql(
    authorization: string | undefined,
    tenant: string,
    field: GraphqlField,
    variables: Record<string, unknown> = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
    };
    if (authorization) headers.authorization = authorization;
    const response = await this.app.fastify.inject({
      method: 'POST',
      url: `/${encodeURIComponent(tenant)}/graphql`,
      headers,
      payload: JSON.stringify({ query: DOCS[field], operationName: field, variables }),
    });
    return { status: response.statusCode, body: parse(response.body) };
  }

  /** Signs in through this twin's own protocol; the token, or null with the answer. */
  async signIn(email: string, password: string, tenant: string): Promise<{ token: string | null; answer: Answer }> {
    if (this.protocol === 'rest') {
      const answer = await this.rest(undefined, 'POST', '/api/auth/login', { email, password, ip: null });
      const token = answer.status === 200 && isRecord(answer.body) ? String(answer.body.access_token) : null;
      return { token, answer };
    }
    const answer = await this.graphql(undefined, tenant, 'logIn', { email, password });
    const data =
      isRecord(answer.body) && isRecord(answer.body.data) && isRecord(answer.body.data.logIn)
        ? answer.body.data.logIn
        : null;
    return { token: data ? String(data.token) : null, answer };
  }

  /**
   * Records the baseline that `reset` returns to: the principals' tokens here, and in the database a
   * table `parity_baseline` (the rows the cases may change, as JSON, and the ids the sequences had)
   * with a function `parity_reset()` that puts them back in one call. Test scaffolding only, in the
   * twin's throwaway database (an in-memory PGlite, or a schema dropped at the end).
   */
  async recordBaseline(): Promise<void> {
    const columns = await sql<{
      column_name: string;
    }>`select column_name from information_schema.columns where table_name = 'users' and table_schema = current_schema() and is_generated = 'NEVER' order by ordinal_position`.execute(
      this.db,
    );
    const set = columns.rows
      .map((c) => c.column_name)
      .filter((c) => c !== 'id' && /^[a-z_][a-z0-9_]*$/.test(c))
      .map((c) => `"${c}" = s."${c}"`)
      .join(', ');
    await sql`create table parity_baseline (name text primary key, value json not null)`.execute(this.db);
    await sql`insert into parity_baseline (name, value)
      select 'users', coalesce((select json_agg(u) from users u), '[]'::json)
      union all select 'links', coalesce((select json_agg(l) from user_instances l), '[]'::json)
      union all select 'families', coalesce((select json_agg(f) from token_families f), '[]'::json)
      union all select 'tenants', coalesce((select json_agg(t) from (select id, plan, user_limit, ticket_limit from tenants) t), '[]'::json)
      union all select 'departments', coalesce((select json_agg(d) from (select id, name, activated from departments) d), '[]'::json)
      union all select 'connections', coalesce((select json_agg(c) from (select id, name, activated from connections) c), '[]'::json)
      union all select 'max', json_build_object('user', (select coalesce(max(id), 0) from users), 'link', (select coalesce(max(id), 0) from user_instances),
        'attempt', (select coalesce(max(id), 0) from login_attempts), 'department', (select coalesce(max(id), 0) from departments),
        'connection', (select coalesce(max(id), 0) from connections))`.execute(this.db);
    await sql
      .raw(
        `create function parity_reset() returns void language plpgsql as $parity$
      declare
        max_user bigint := (select (value->>'user')::bigint from parity_baseline where name = 'max');
        max_link bigint := (select (value->>'link')::bigint from parity_baseline where name = 'max');
        max_attempt bigint := (select (value->>'attempt')::bigint from parity_baseline where name = 'max');
        max_department bigint := (select (value->>'department')::bigint from parity_baseline where name = 'max');
        max_connection bigint := (select (value->>'connection')::bigint from parity_baseline where name = 'max');
      begin
        delete from users where id > max_user;
        -- Two users may have swapped e-mails or usernames during the case: free them first, or the
        -- unique indexes would refuse the restore row by row.
        update users u set email = 'parity.reset.' || u.id || '@reset.invalid', username = 'parity.reset.' || u.id
          from json_populate_recordset(null::users, (select value from parity_baseline where name = 'users')) s
          where u.id = s.id and u is distinct from s;
        update users u set ${set}
          from json_populate_recordset(null::users, (select value from parity_baseline where name = 'users')) s
          where u.id = s.id and u is distinct from s;
        delete from user_instances where id > max_link;
        insert into user_instances select s.* from json_populate_recordset(null::user_instances, (select value from parity_baseline where name = 'links')) s
          where not exists (select 1 from user_instances l where l.id = s.id);
        delete from token_families f where not exists (
          select 1 from json_populate_recordset(null::token_families, (select value from parity_baseline where name = 'families')) s where s.id = f.id);
        update token_families f set current_jti = s.current_jti, previous_jti = s.previous_jti, previous_valid_until = s.previous_valid_until,
            revoked_at = s.revoked_at, refreshed_at = s.refreshed_at
          from json_populate_recordset(null::token_families, (select value from parity_baseline where name = 'families')) s
          where f.id = s.id and f is distinct from s;
        delete from login_attempts where id > max_attempt;
        update tenants t set plan = s.plan, user_limit = s.user_limit, ticket_limit = s.ticket_limit
          from json_to_recordset((select value from parity_baseline where name = 'tenants')) as s(id int, plan text, user_limit int, ticket_limit int)
          where t.id = s.id and (t.plan, t.user_limit, t.ticket_limit) is distinct from (s.plan, s.user_limit, s.ticket_limit);
        -- Departments and connections: new ones go, renamed ones (freed of their names first, as the
        -- unique indexes would refuse a swap row by row) get their names and flags back.
        update users set department_id = null where department_id > max_department;
        delete from departments where id > max_department;
        delete from connections where id > max_connection;
        update departments d set name = 'parity.reset.' || d.id
          from json_to_recordset((select value from parity_baseline where name = 'departments')) as s(id int, name text, activated boolean)
          where d.id = s.id and (d.name, d.activated) is distinct from (s.name, s.activated);
        update departments d set name = s.name, activated = s.activated
          from json_to_recordset((select value from parity_baseline where name = 'departments')) as s(id int, name text, activated boolean)
          where d.id = s.id and (d.name, d.activated) is distinct from (s.name, s.activated);
        update connections c set name = 'parity.reset.' || c.id
          from json_to_recordset((select value from parity_baseline where name = 'connections')) as s(id int, name text, activated boolean)
          where c.id = s.id and (c.name, c.activated) is distinct from (s.name, s.activated);
        update connections c set name = s.name, activated = s.activated
          from json_to_recordset((select value from parity_baseline where name = 'connections')) as s(id int, name text, activated boolean)
          where c.id = s.id and (c.name, c.activated) is distinct from (s.name, s.activated);
        perform setval(pg_get_serial_sequence('departments', 'id'), greatest(max_department, 1), max_department > 0);
        perform setval(pg_get_serial_sequence('connections', 'id'), greatest(max_connection, 1), max_connection > 0);
        perform setval(pg_get_serial_sequence('users', 'id'), greatest(max_user, 1), max_user > 0);
        perform setval(pg_get_serial_sequence('user_instances', 'id'), greatest(max_link, 1), max_link > 0);
        perform setval(pg_get_serial_sequence('login_attempts', 'id'), greatest(max_attempt, 1), max_attempt > 0);
      end
      $parity$`,
      )
      .execute(this.db);
    const max = await sql<{ value: { attempt: number } }>`select value from parity_baseline where name = 'max'`.execute(
      this.db,
    );
    this.baselineAttempt = Number(max.rows[0]?.value.attempt ?? 0);
    this.baselineAuth = { ...this.auth };
  }

  /**
   * Back to the baseline: rows the cases touch, the sequences behind their ids, the principals' tokens.
   * The database part is skipped when no step since the last reset could have written (`dirty`).
   */
  async reset(): Promise<void> {
    const auth = this.baselineAuth;
    if (!auth) throw new Error('recordBaseline() first');
    if (this.dirty || !this.state) {
      await sql`select parity_reset()`.execute(this.db);
      this.state = await this.readState();
      this.dirty = false;
    }
    this.auth = { ...auth };
  }

  /** The rows the cases may change, timestamps left out; password hashes kept apart (compared by verification). */
  async readState(): Promise<State> {
    const base = this.baselineAttempt;
    const result = await sql<{
      state: {
        users: unknown[][];
        links: unknown[];
        tenants: unknown[];
        attempts: unknown[];
        families: [string, number, boolean][];
        records: unknown[];
      };
    }>`
      select json_build_object(
        'users', (select coalesce(json_agg(json_build_array(id, tenant_id, role_id, department_id, name, username, email, image, blocked, two_factor_enabled, two_factor_enrolment_required,
                    is_connected, origin_backoffice, token_version, deleted_at is not null, email_reserved, last_sign_in_at is not null, password_hash) order by id), '[]'::json) from users),
        'links', (select coalesce(json_agg(json_build_array(id, user_id, instance_id) order by id), '[]'::json) from user_instances),
        'tenants', (select coalesce(json_agg(json_build_array(id, plan, user_limit, ticket_limit) order by id), '[]'::json) from tenants),
        'attempts', (select coalesce(json_agg(json_build_array(id, email, ip, remote_address, user_id, success, reason, lifted_at is not null) order by id), '[]'::json) from login_attempts where id > ${base}),
        'families', (select coalesce(json_agg(json_build_array(id, user_id, revoked_at is not null) order by id), '[]'::json) from token_families),
        'records', json_build_array(
          (select coalesce(json_agg(json_build_array(id, tenant_id, name, activated) order by id), '[]'::json) from departments),
          (select coalesce(json_agg(json_build_array(id, tenant_id, instance_id, name, activated, status) order by id), '[]'::json) from connections))
      ) as state`.execute(this.db);
    const state = result.rows[0]?.state;
    if (!state) throw new Error('no state');
    const users = new Map<number, UserState>();
    for (const row of state.users)
      users.set(Number(row[0]), { row: row.slice(0, -1), hash: String(row[row.length - 1]) });
    return {
      users,
      links: state.links,
      tenants: state.tenants,
      attempts: state.attempts,
      families: state.families,
      records: state.records,
    };
  }

  async close(): Promise<void> {
    await this.app.fastify.close();
    await this.closeDatabase();
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Live and revoked token families per user (family ids are random: only their counts can agree). */
function familyCounts(families: [string, number, boolean][]): Record<string, [number, number]> {
  const counts: Record<string, [number, number]> = {};
  for (const [, userId, revoked] of families) {
    const entry = (counts[String(userId)] ??= [0, 0]);
    entry[revoked ? 1 : 0] += 1;
  }
  return counts;
}

/** Where two states differ, or null. */
export function stateDiff(rest: State, graphql: State): string | null {
  const restIds = [...rest.users.keys()];
  const graphqlIds = [...graphql.users.keys()];
  if (!isDeepStrictEqual(restIds, graphqlIds))
    return `user ids differ: REST-only ${restIds.filter((id) => !graphql.users.has(id)).join(',')}; GraphQL-only ${graphqlIds.filter((id) => !rest.users.has(id)).join(',')}`;
  for (const [id, r] of rest.users) {
    const g = graphql.users.get(id);
    if (!g || !isDeepStrictEqual(r.row, g.row))
      return `users row ${id} differs:\n    REST:    ${JSON.stringify(r.row)}\n    GraphQL: ${JSON.stringify(g?.row)}`;
  }
  if (!isDeepStrictEqual(rest.links, graphql.links))
    return `user_instances differ:\n    REST:    ${JSON.stringify(rest.links)}\n    GraphQL: ${JSON.stringify(graphql.links)}`;
  if (!isDeepStrictEqual(rest.tenants, graphql.tenants)) return 'tenants (plan, limits) differ';
  if (!isDeepStrictEqual(rest.records, graphql.records))
    return `departments or connections differ:\n    REST:    ${JSON.stringify(rest.records)}\n    GraphQL: ${JSON.stringify(graphql.records)}`;
  if (!isDeepStrictEqual(rest.attempts, graphql.attempts))
    return `login_attempts differ:\n    REST:    ${JSON.stringify(rest.attempts)}\n    GraphQL: ${JSON.stringify(graphql.attempts)}`;
  const rf = familyCounts(rest.families);
  const gf = familyCounts(graphql.families);
  if (!isDeepStrictEqual(rf, gf))
    return `token families (live, revoked) per user differ:\n    REST:    ${JSON.stringify(rf)}\n    GraphQL: ${JSON.stringify(gf)}`;
  return null;
}
