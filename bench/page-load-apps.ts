import { readFileSync } from 'node:fs';
import { DEMO_PASSWORD } from '../server/src/tooling/seed';
import { makeTenants, tenantCreateBody, TENANT_COUNT } from './peers/tenants-data.mjs';
import { json, loginOn, withClient } from './lib/servers';
import { USERS, type AppKey } from './page-load-plan';

/** The apps the page-load bench (./page-load.ts) compares, and the data it gives the panel's server. */

export { APPS_ORDER, PEERS, THROTTLES, USERS } from './page-load-plan';
export type { AppKey } from './page-load-plan';

/** One app under test: where it signs in, what it is typed, and what its list's data rows are. */
export interface App {
  key: AppKey;
  loginUrl: string;
  email: string;
  password: string;
  selectors: { email: string; password: string; submit: string; rows: string };
  /** The panel's extra pages (users list, scrolling). */
  usersUrl?: string;
}

/** A list screen the registry maps to the coming-soon page has nothing to measure: it is skipped. */
export function missingScreens(): string[] {
  const registry = readFileSync('src/app/screens-registry.ts', 'utf8');
  return ['tenants', 'users'].filter((route) => new RegExp(`^\\s*${route}:\\s*comingSoon`, 'm').test(registry));
}

/** The same 100 tenants the peers bundle, created through the API (each newer than every seeded one). */
export async function createTenants(base: string): Promise<void> {
  const { token } = await loginOn(base);
  for (const tenant of makeTenants()) {
    await json(
      await fetch(`${base}/api/tenant`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(tenantCreateBody(tenant)),
      }),
    );
  }
}

/** 10,000 operators in the back-office tenant, for the panel's users list. */
export async function seedUsers(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query(
      `insert into users (tenant_id, role_id, name, username, email, password_hash)
       select t.id, r.id, 'Usuária Bench ' || g, 'bench.' || g, 'bench' || g || '@bench.local', a.password_hash
         from generate_series(1, $1::int) as g
         cross join (select id from tenants where name = 'backoffice') as t
         cross join (select id from roles where name = 'operador') as r
         cross join (select password_hash from users where email = 'admin@demo.local') as a`,
      [USERS],
    );
  });
}

/** The three apps: the panel on its real server, and the peers on their static servers. */
export function benchApps(base: string, raBase: string, refineBase: string): Record<AppKey, App> {
  const peerCredentials = { email: 'bench@example.com', password: 'anything' };
  return {
    ours: {
      key: 'ours',
      loginUrl: `${base}/backoffice/login?to=${encodeURIComponent(`/tenants?limit=${TENANT_COUNT}`)}`,
      email: 'admin@demo.local',
      password: DEMO_PASSWORD,
      // Data rows only: React Aria renders the table's empty/loading row with a rowheader too.
      selectors: {
        email: 'input[name="email"]',
        password: 'input[name="password"]',
        submit: 'button[type=submit]',
        rows: '[role=grid] [role=rowgroup]:not([data-empty]) [role=rowheader]',
      },
      usersUrl: `${base}/backoffice/users`,
    },
    'react-admin': {
      key: 'react-admin',
      loginUrl: `${raBase}/#/login`,
      ...peerCredentials,
      selectors: {
        email: 'input[name="email"]',
        password: 'input[name="password"]',
        submit: 'button[type=submit]',
        rows: 'tbody tr.RaDataTable-row',
      },
    },
    refine: {
      key: 'refine',
      loginUrl: `${refineBase}/login`,
      ...peerCredentials,
      selectors: {
        email: 'input#email',
        password: 'input#password',
        submit: 'button[type=submit]',
        rows: '.ant-table-tbody tr.ant-table-row',
      },
    },
  };
}
