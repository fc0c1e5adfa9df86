import type { Insertable, Kysely } from 'kysely';
import { newTotpSecret } from '../auth/totp';
import { cnpjCheckDigits, formatCnpj, isValidCnpj } from '../../../src/domain/cnpj';
import {
  ADMIN_ROLE,
  FEATURE_OPTIONS,
  OPERATOR_ROLE,
  PLAN_LIMITS,
  ensureBackofficeTenant,
  ensureRbac,
} from '../db/catalog';
import type { ConnectionStatus, Database, Plan, UsersTable } from '../db/schema';
import {
  CUSTOMER_TENANTS,
  DEPARTMENTS,
  FIRST_NAMES,
  INSTANCE_NAMES,
  LAST_NAMES,
  POOLS,
  TEMPLATES,
  asciiSlug,
  type Rng,
} from '../db/seed-random';

const DAY = 86_400_000;

/** What the activity seed needs to know about a tenant it fills. */
export interface SeededTenant {
  id: number;
  name: string;
  plan: Plan;
  createdAt: Date;
  deletedAt: Date | null;
  /** Attendants: users who are not blocked. */
  userIds: number[];
  instanceIds: number[];
  /** Relative volume of activity (starter < professional < enterprise). */
  scale: number;
}

export interface OrgSeedOptions {
  now: Date;
  rng: Rng;
  backofficeTenant: string;
  /** argon2id hashes: one per back-office demo login and one shared by the customer users. */
  hashes: { admin: string; operator: string; customer: string };
}

/** The demo back-office logins (password `Back#Office!Demo`). */
export const DEMO_LOGINS = [
  { email: 'admin@demo.local', name: 'Ana Administradora', username: 'ana.administradora', role: ADMIN_ROLE },
  { email: 'operador@demo.local', name: 'Olívia Operadora', username: 'olivia.operadora', role: OPERATOR_ROLE },
] as const;

export const DEMO_PASSWORD = 'Back#Office!Demo';

const CNPJ_CHARACTERS = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

/** A head office's CNPJ (branch `0001`): a numeric root, or an alphanumeric one as issued since July 2026. */
function randomCnpj(rng: Rng, alphanumeric = false): string {
  for (;;) {
    const root = alphanumeric
      ? Array.from({ length: 8 }, () => rng.pick(CNPJ_CHARACTERS)).join('')
      : String(rng.int(10_000_000, 99_999_999));
    const base = `${root}0001`;
    const cnpj = formatCnpj(`${base}${cnpjCheckDigits(base)}`);
    if (isValidCnpj(cnpj)) return cnpj;
  }
}

function featuresFor(plan: Plan, rng: Rng): Set<string> {
  const byPlan: Record<Plan, readonly string[]> = {
    starter: ['chat', 'reports'],
    professional: ['chat', 'reports', 'campaigns', 'analytics', 'blacklist'],
    enterprise: FEATURE_OPTIONS,
  };
  const enabled = new Set(byPlan[plan]);
  // A little variety: one option flipped on some tenants.
  if (rng.chance(0.4)) {
    const option = rng.pick(FEATURE_OPTIONS);
    if (enabled.has(option)) enabled.delete(option);
    else enabled.add(option);
  }
  return enabled;
}

/**
 * Tenants with features, RBAC, departments, users, instances, connections and user-instance links.
 * Tenant ids follow creation order, so id DESC is also newest first.
 */
export async function seedOrganisation(trx: Kysely<Database>, options: OrgSeedOptions): Promise<SeededTenant[]> {
  const { now, rng, hashes } = options;
  const roleIds = await ensureRbac(trx);
  const adminRole = roleIds.get(ADMIN_ROLE);
  const operatorRole = roleIds.get(OPERATOR_ROLE);
  if (adminRole === undefined || operatorRole === undefined) throw new Error('built-in roles missing after ensureRbac');

  const tenants: SeededTenant[] = [];
  const backofficeCreated = new Date(now.getTime() - 730 * DAY);
  const backofficeId = await ensureBackofficeTenant(trx, options.backofficeTenant, backofficeCreated);
  tenants.push({
    id: backofficeId,
    name: options.backofficeTenant,
    plan: 'enterprise',
    createdAt: backofficeCreated,
    deletedAt: null,
    userIds: [],
    instanceIds: [],
    scale: 0.8,
  });

  const deletedAgo = [45, 20];
  for (const [index, spec] of CUSTOMER_TENANTS.entries()) {
    const plan = rng.weighted<Plan>([
      ['starter', 4],
      ['professional', 4],
      ['enterprise', 2],
    ]);
    const createdAt = new Date(now.getTime() - (700 - index * 40) * DAY - rng.int(0, 86_399) * 1000);
    const deletedAt = spec.deleted ? new Date(now.getTime() - (deletedAgo.pop() ?? 30) * DAY) : null;
    const limits = PLAN_LIMITS[plan];
    const { id } = await trx
      .insertInto('tenants')
      .values({
        name: spec.name,
        cnpj: spec.cnpj ?? randomCnpj(rng, spec.alphanumeric),
        template: rng.pick(TEMPLATES),
        pool: rng.pick(POOLS),
        plan,
        user_limit: limits.userLimit,
        ticket_limit: limits.ticketLimit,
        created_at: createdAt,
        deleted_at: deletedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const scale = { starter: 0.6, professional: 1, enterprise: 1.6 }[plan] * (0.8 + rng.float() * 0.4);
    tenants.push({ id, name: spec.name, plan, createdAt, deletedAt, userIds: [], instanceIds: [], scale });
    const enabled = featuresFor(plan, rng);
    await trx
      .insertInto('tenant_features')
      .values(
        FEATURE_OPTIONS.map((option) => ({
          tenant_id: id,
          option,
          enabled: enabled.has(option),
          updated_at: createdAt,
        })),
      )
      .execute();
  }

  const usedEmails = new Set<string>();
  for (const tenant of tenants) {
    const isBackoffice = tenant.id === backofficeId;
    const departmentNames = isBackoffice ? ['Suporte', 'Financeiro'] : rng.subset(DEPARTMENTS, 2).slice(0, 4);
    const departments = await trx
      .insertInto('departments')
      .values(
        departmentNames.map((name) => ({ tenant_id: tenant.id, name, activated: isBackoffice || rng.chance(0.9) })),
      )
      .returning('id')
      .execute();
    const departmentIds = departments.map((d) => d.id);

    const instanceNames = isBackoffice
      ? ['WhatsApp Suporte', 'WhatsApp Comercial']
      : INSTANCE_NAMES.slice(0, rng.int(1, 3));
    const instances = await trx
      .insertInto('instances')
      .values(
        instanceNames.map((name) => {
          const synced = rng.chance(0.8);
          const messages = rng.int(1_000, 60_000);
          return {
            tenant_id: tenant.id,
            name,
            activated: rng.chance(0.9),
            is_official: name.includes('Oficial'),
            is_unlimited: rng.chance(0.25),
            status: synced ? ('done' as const) : ('idle' as const),
            sync_progress: synced ? 100 : 0,
            synced_messages: synced ? messages : 0,
            total_messages: synced ? messages : null,
            created_at: new Date(tenant.createdAt.getTime() + rng.int(1, 20) * DAY),
          };
        }),
      )
      .returning('id')
      .execute();
    tenant.instanceIds = instances.map((i) => i.id);
    await trx
      .insertInto('connections')
      .values(
        tenant.instanceIds.map((instanceId) => {
          const status = rng.weighted<ConnectionStatus>([
            ['connected', 70],
            ['disconnected', 15],
            ['qrcode', 10],
            ['connecting', 5],
          ]);
          const lastSeenAgo = status === 'connected' ? rng.int(1, 30) * 60_000 : rng.int(2, 72) * 3_600_000;
          return {
            tenant_id: tenant.id,
            instance_id: instanceId,
            name: 'Principal',
            phone:
              status === 'qrcode' ? null : `+55${String(rng.int(11, 99))}9${String(rng.int(10_000_000, 99_999_999))}`,
            status,
            last_seen_at: status === 'qrcode' ? null : new Date(now.getTime() - lastSeenAgo),
          };
        }),
      )
      .execute();

    const users: Insertable<UsersTable>[] = [];
    if (isBackoffice) {
      for (const login of DEMO_LOGINS) {
        usedEmails.add(login.email);
        users.push({
          tenant_id: tenant.id,
          role_id: login.role === ADMIN_ROLE ? adminRole : operatorRole,
          department_id: departmentIds[0] ?? null,
          name: login.name,
          username: login.username,
          email: login.email,
          password_hash: login.role === ADMIN_ROLE ? hashes.admin : hashes.operator,
          origin_backoffice: true,
          created_at: tenant.createdAt,
        });
      }
    } else {
      const count = rng.int(3, 8);
      for (let i = 0; i < count; i++) {
        const first = rng.pick(FIRST_NAMES);
        const last = rng.pick(LAST_NAMES);
        let username = `${asciiSlug(first)}.${asciiSlug(last)}`;
        for (let n = 2; usedEmails.has(`${username}@${tenant.name}.demo.local`); n++)
          username = `${asciiSlug(first)}.${asciiSlug(last)}${String(n)}`;
        const email = `${username}@${tenant.name}.demo.local`;
        usedEmails.add(email);
        // Drawn in the same order as the columns always were, so the seed stays the same data.
        const departmentId = rng.chance(0.9) ? rng.pick(departmentIds) : null;
        const blocked = rng.chance(0.07);
        // Some customer users have two-factor on, which means an enrolled secret (nobody holds it: an
        // administrator resets it through PATCH /api/user-settings/{id}).
        const twoFactor = rng.chance(0.2);
        users.push({
          tenant_id: tenant.id,
          role_id: operatorRole,
          department_id: departmentId,
          name: `${first} ${last}`,
          username,
          email,
          password_hash: hashes.customer,
          blocked,
          two_factor_enabled: twoFactor,
          two_factor_secret: twoFactor ? newTotpSecret() : null,
          two_factor_enrolled_at: twoFactor ? new Date(tenant.createdAt.getTime() + DAY) : null,
          is_connected: tenant.deletedAt === null && rng.chance(0.3),
          origin_backoffice: false,
          created_at: new Date(tenant.createdAt.getTime() + rng.int(1, 30) * DAY),
        });
      }
    }
    const inserted = await trx.insertInto('users').values(users).returning(['id', 'blocked']).execute();
    tenant.userIds = inserted.filter((u) => !u.blocked).map((u) => u.id);
    const links = inserted.flatMap((u) =>
      rng.subset(tenant.instanceIds, 1).map((instanceId) => ({ user_id: u.id, instance_id: instanceId })),
    );
    if (links.length > 0) await trx.insertInto('user_instances').values(links).execute();
  }
  return tenants;
}
