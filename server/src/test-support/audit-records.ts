import type { Kysely } from 'kysely';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import { startTestApp, type TestApp } from './app';

/**
 * What the audit-record tests of users and sessions share (server/src/audit/records-b*.test.ts): the app
 * on PGlite or PostgreSQL, requests through both protocols from a known address, each with the request
 * id the server gave it (sent back as X-Request-Id; a client's own is not kept: server/src/app.ts
 * requestIdOf), and the records written since a mark.
 */

export const ADDRESS = '198.51.100.23';

export function startRecordsApp(databaseUrl?: string, config: Partial<ServerConfig> = {}): Promise<TestApp> {
  return startTestApp({ ...(databaseUrl ? { databaseUrl } : {}), seed: { days: 1 }, config });
}

/** The id the server gave a request, as it sent it back. */
function requestIdOf(response: { headers: Record<string, unknown> }): string {
  const id = response.headers['x-request-id'];
  if (typeof id !== 'string' || id === '') throw new Error('the answer carries no X-Request-Id');
  return id;
}

export interface Sent {
  status: number;
  body: Record<string, unknown>;
  requestId: string;
}

/** A REST call with a bearer token (or none). */
export async function rest(
  t: TestApp,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: { token?: string | null; body?: unknown; address?: string } = {},
): Promise<Sent> {
  const response = await t.app.fastify.inject({
    method,
    url,
    remoteAddress: options.address ?? ADDRESS,
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
  return {
    status: response.statusCode,
    body: response.json<Record<string, unknown>>(),
    requestId: requestIdOf(response),
  };
}

/** A GraphQL call on `/{tenant}/graphql`. */
export async function graphql(
  t: TestApp,
  query: string,
  options: { token?: string | null; variables?: Record<string, unknown>; tenant?: string; address?: string } = {},
): Promise<
  Sent & { data: Record<string, unknown> | null; errors: { extensions?: { code?: string; field?: string } }[] }
> {
  const response = await t.app.fastify.inject({
    method: 'POST',
    url: `/${options.tenant ?? 'backoffice'}/graphql`,
    remoteAddress: options.address ?? ADDRESS,
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    payload: JSON.stringify({ query, variables: options.variables ?? {} }),
  });
  const body = response.json<Record<string, unknown>>();
  return {
    status: response.statusCode,
    body,
    requestId: requestIdOf(response),
    data: (body.data as Record<string, unknown> | null | undefined) ?? null,
    errors: (body.errors as { extensions?: { code?: string; field?: string } }[] | undefined) ?? [],
  };
}

/** A token of a user by REST sign-in. */
export async function signIn(t: TestApp, email: string, password: string): Promise<string> {
  const answer = await rest(t, 'POST', '/api/auth/login', { body: { email, password, ip: null } });
  if (answer.status !== 200)
    throw new Error(`sign-in ${email}: ${String(answer.status)} ${JSON.stringify(answer.body)}`);
  return answer.body.access_token as string;
}

/** The id of the newest record (0 when none): records after it are the ones a step wrote. */
export async function auditMark(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export function auditSince(db: Kysely<Database>, mark: number) {
  return db.selectFrom('audit_log').selectAll().where('id', '>', mark).orderBy('id').execute();
}

export type AuditRow = Awaited<ReturnType<typeof auditSince>>[number];

/** A record's changes as `{field: [before, after]}`. */
export function changesMap(row: AuditRow): Record<string, [string | null, string | null]> {
  const changes = (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as {
    field: string;
    before: string | null;
    after: string | null;
  }[];
  return Object.fromEntries(changes.map((c) => [c.field, [c.before, c.after]]));
}

/** Every record as one text, to look for what must never be in it. */
export async function wholeLogText(db: Kysely<Database>): Promise<string> {
  return JSON.stringify(await db.selectFrom('audit_log').selectAll().execute());
}
