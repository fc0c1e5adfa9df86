import type { LightMyRequestResponse } from 'fastify';
import { issuedBearer, startTestApp, type TestApp } from './app';
import { startThrowawayPostgres, type ThrowawayPostgres } from './postgres';

/**
 * What the reviewers' suites (server/src/security/lists-attack*.test.ts) share: the app on the embedded
 * database or on a throwaway PostgreSQL, the demo administrador's bearer, requests answered as
 * status, body and headers, and bare tenants with unique CNPJs.
 */

export type Answer = { status: number; body: Record<string, unknown>; headers: Record<string, unknown> };

export function answerOf(response: LightMyRequestResponse): Answer {
  let body: Record<string, unknown>;
  try {
    body = response.json<Record<string, unknown>>();
  } catch {
    body = { text: response.body };
  }
  return { status: response.statusCode, body, headers: response.headers };
}

export type Send = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  headers: { authorization: string },
  payload?: unknown,
) => Promise<Answer>;

export interface AttackApp {
  t: TestApp;
  /** The demo's back-office administrador (admin@demo.local). */
  staff: { authorization: string };
  send: Send;
  /** A tenant with only its required columns, its CNPJ unique within the app (check digits unchecked). */
  createTenant(name: string, userLimit?: number): Promise<{ id: number; name: string }>;
  stop(): Promise<void>;
}

/** Starts the app (on PostgreSQL when `postgres`), seeded with one day of demo activity. */
export async function startAttackApp(postgres: boolean): Promise<AttackApp> {
  let cluster: ThrowawayPostgres | undefined;
  if (postgres) cluster = await startThrowawayPostgres();
  const t = await startTestApp({ seed: { days: 1 }, ...(cluster ? { databaseUrl: cluster.url } : {}) });
  const admin = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'admin@demo.local')
    .executeTakeFirstOrThrow();
  const staff = await issuedBearer(t, admin.id);
  let tenants = 0;
  return {
    t,
    staff,
    send: (method, url, headers, payload) =>
      t.app.fastify
        .inject({
          method,
          url,
          headers,
          ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
        })
        .then(answerOf),
    async createTenant(name, userLimit = 50) {
      tenants += 1;
      const digits = String(10_000_000 + tenants);
      return t.db
        .insertInto('tenants')
        .values({
          name,
          cnpj: `${digits.slice(0, 2)}.${digits.slice(2, 5)}.${digits.slice(5, 8)}/0001-00`,
          template: 't',
          pool: 'p',
          plan: 'starter',
          user_limit: userLimit,
          ticket_limit: 10,
        })
        .returning(['id', 'name'])
        .executeTakeFirstOrThrow();
    },
    async stop() {
      await t.close();
      await cluster?.stop();
    },
  };
}
