import type { Kysely } from 'kysely';
import { cnpjCheckDigits, formatCnpj } from '../../../src/domain/cnpj';
import { ADMIN_ROLE, holdsEveryRoute, PERMISSION_ROUTES, type PermissionRoute } from '../../../src/domain/route-access';
import type { Database, Plan } from './schema';

export { ADMIN_ROLE, PERMISSION_ROUTES, type PermissionRoute };

export type PermissionCategory = 'gestao' | 'dashboard' | 'relatorios';

/**
 * One permission per checked route, with its pt-BR label (in the glossary's words, docs/product.md)
 * and role-editor group. Typed by the route table, so adding a checked route to `src/domain/paths.ts`
 * fails the build until it is labelled here. A label changed here reaches databases seeded before only
 * through a migration (server/src/db/migrations/0026-permission-names.ts): `ensureRbac` leaves existing rows alone.
 */
export const PERMISSION_CATALOG: Readonly<
  Record<PermissionRoute, { displayName: string; category: PermissionCategory }>
> = {
  users: { displayName: 'Usuários', category: 'gestao' },
  tenants: { displayName: 'Empresas', category: 'gestao' },
  'roles-list': { displayName: 'Funções: listar', category: 'gestao' },
  'roles-edit': { displayName: 'Funções: editar permissões', category: 'gestao' },
  audit: { displayName: 'Auditoria', category: 'gestao' },
  'dashboard-analytics': { displayName: 'Painel analítico', category: 'dashboard' },
  'dashboard-control-panel': { displayName: 'Painel de controle', category: 'dashboard' },
  'dashboard-maria-panel': { displayName: 'Painel Maria', category: 'dashboard' },
  'dashboard-produtivity-report': { displayName: 'Relatório de produtividade', category: 'relatorios' },
  'dashboard-report': { displayName: 'Relatório de falhas de login', category: 'relatorios' },
  'dashboard-report-smart': { displayName: 'Relatório inteligente', category: 'relatorios' },
};

export const OPERATOR_ROLE = 'operador';

/** The built-in roles and the permissions each gets when it is first created. */
export const DEFAULT_ROLES: Readonly<Record<string, { displayName: string; routes: readonly PermissionRoute[] }>> = {
  // Its rows are kept whole for readers of the table; what it holds is src/domain/route-access.ts holdsEveryRoute.
  [ADMIN_ROLE]: { displayName: 'Administrador', routes: PERMISSION_ROUTES },
  // Dashboards and reports only: no users, roles or tenants.
  [OPERATOR_ROLE]: {
    displayName: 'Operador',
    routes: [
      'dashboard-analytics',
      'dashboard-control-panel',
      'dashboard-maria-panel',
      'dashboard-produtivity-report',
      'dashboard-report',
      'dashboard-report-smart',
    ],
  },
};

/** Feature options seeded by the migration, in display order. */
export const FEATURE_OPTIONS = [
  'campaigns',
  'chat',
  'chatbot',
  'analytics',
  'webhooks',
  'blacklist',
  'reports',
] as const;

export const PLAN_LIMITS: Readonly<Record<Plan, { userLimit: number; ticketLimit: number }>> = {
  starter: { userLimit: 5, ticketLimit: 1000 },
  professional: { userLimit: 25, ticketLimit: 10000 },
  enterprise: { userLimit: 200, ticketLimit: 100000 },
};

/** The back-office tenant's CNPJ: a fixed, valid number (11.222.333/0001-81). */
export const BACKOFFICE_CNPJ = formatCnpj(`112223330001${cnpjCheckDigits('112223330001')}`);

/**
 * Creates the permissions and built-in roles that are missing. Existing rows are left as they are
 * (an administrator may have edited them); a role created here gets its default permissions, and
 * administrador always holds every permission.
 *
 * @returns role ids by name
 */
export async function ensureRbac(db: Kysely<Database>): Promise<Map<string, number>> {
  await db
    .insertInto('permissions')
    .values(
      PERMISSION_ROUTES.map((route) => ({
        route_name: route,
        display_name: PERMISSION_CATALOG[route].displayName,
        category: PERMISSION_CATALOG[route].category,
      })),
    )
    .onConflict((oc) => oc.column('route_name').doNothing())
    .execute();
  const created = await db
    .insertInto('roles')
    .values(Object.entries(DEFAULT_ROLES).map(([name, role]) => ({ name, display_name: role.displayName })))
    .onConflict((oc) => oc.column('name').doNothing())
    .returning('name')
    .execute();
  const roles = await db
    .selectFrom('roles')
    .select(['id', 'name'])
    .where('name', 'in', Object.keys(DEFAULT_ROLES))
    .execute();
  const permissions = await db.selectFrom('permissions').select(['id', 'route_name']).execute();
  const permissionId = new Map(permissions.map((p) => [p.route_name, p.id]));
  const fresh = new Set(created.map((r) => r.name));
  const links: { role_id: number; permission_id: number }[] = [];
  for (const role of roles) {
    if (!holdsEveryRoute(role.name) && !fresh.has(role.name)) continue;
    for (const route of DEFAULT_ROLES[role.name]?.routes ?? []) {
      const id = permissionId.get(route);
      if (id !== undefined) links.push({ role_id: role.id, permission_id: id });
    }
  }
  if (links.length > 0) {
    await db
      .insertInto('role_permissions')
      .values(links)
      .onConflict((oc) => oc.columns(['role_id', 'permission_id']).doNothing())
      .execute();
  }
  return new Map(roles.map((r) => [r.name, r.id]));
}

/**
 * Creates the back-office tenant (staff home) if missing, with every feature on.
 *
 * @returns its id
 */
export async function ensureBackofficeTenant(db: Kysely<Database>, name: string, createdAt?: Date): Promise<number> {
  const existing = await db.selectFrom('tenants').select('id').where('name', '=', name).executeTakeFirst();
  if (existing) return existing.id;
  const limits = PLAN_LIMITS.enterprise;
  const { id } = await db
    .insertInto('tenants')
    .values({
      name,
      cnpj: BACKOFFICE_CNPJ,
      template: 'backoffice',
      pool: 'default',
      plan: 'enterprise',
      user_limit: limits.userLimit,
      ticket_limit: limits.ticketLimit,
      ...(createdAt ? { created_at: createdAt } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('tenant_features')
    .values(FEATURE_OPTIONS.map((option) => ({ tenant_id: id, option, enabled: true })))
    .onConflict((oc) => oc.columns(['tenant_id', 'option']).doNothing())
    .execute();
  return id;
}
