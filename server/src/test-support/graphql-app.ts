import type { Kysely } from 'kysely';
import { buildApp, type App } from '../app';
import { loadConfig, type ServerConfig } from '../base/config';
import { openDatabase } from '../db/connect';
import { migrate } from '../db/migrate';
import type { Database } from '../db/schema';
import { seedDemo } from '../tooling/seed';

export const PASSWORD = 'Back#Office!Demo';
/** The app under test and its database, set up by {@link useGraphqlApp}. */
export const g = {} as { app: App; db: Kysely<Database> };
let close: () => Promise<void>;
export const extraApps: App[] = [];

interface GqlError {
  message: string;
  extensions?: { code?: string; field?: string };
}
interface GqlBody<T> {
  data?: T | null;
  errors?: GqlError[];
}

export async function makeApp(config: ServerConfig): Promise<App> {
  return buildApp({ db: g.db, config });
}

export async function gql<T>(
  target: App,
  query: string,
  options: {
    variables?: Record<string, unknown>;
    token?: string;
    tenant?: string;
    operationName?: string;
    accept?: string;
  } = {},
) {
  const response = await target.fastify.inject({
    method: 'POST',
    url: `/${options.tenant ?? 'backoffice'}/graphql`,
    headers: {
      'content-type': 'application/json',
      accept: options.accept ?? 'application/graphql-response+json, application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    payload: JSON.stringify({ query, variables: options.variables ?? {}, operationName: options.operationName }),
  });
  return {
    status: response.statusCode,
    body: response.json<GqlBody<T> & Record<string, unknown>>(),
    headers: response.headers,
  };
}

export const LOGIN = `mutation logIn($email: String!, $password: String!) {
  logIn(email: $email, password: $password) { token expires_in user { id email tenantName origin_backoffice role { name has_permission_routes } userInstances { id } } }
}`;
export const USERS =
  'query users { users { id name email isConnected role { name } userDepartment { id } userInstances { id instance { id } } } }';
export const USER_INFOS = 'query userInfos { userInfos { id email } }';
export const REFRESH = 'mutation refreshToken { refreshToken { token expires_in } }';

export interface LoginData {
  logIn: {
    token: string;
    expires_in: number;
    user: {
      id: number;
      email: string;
      tenantName: string;
      origin_backoffice: boolean;
      role: { name: string; has_permission_routes: string[] };
    };
  };
}

export async function tokenOf(target: App, email: string, password = PASSWORD, tenant = 'backoffice'): Promise<string> {
  const { status, body } = await gql<LoginData>(target, LOGIN, { variables: { email, password }, tenant });
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  return body.data?.logIn.token ?? '';
}

/** Registers the app (PGlite, demo seed) in the calling test file; apps made with `makeApp` go into `extraApps`. */
export function useGraphqlApp(): void {
  beforeAll(async () => {
    process.env.LOG_LEVEL = 'silent';
    const database = await openDatabase('pglite://memory');
    g.db = database.db;
    close = database.close;
    await migrate(g.db);
    await seedDemo(g.db);
    g.app = await makeApp(loadConfig({ databaseUrl: 'pglite://memory', seedDemo: true }));
  }, 120_000);

  afterAll(async () => {
    for (const extra of extraApps) await extra.fastify.close();
    await g.app.fastify.close();
    await close();
  });
}
