import {
  canonicalList,
  canonicalRole,
  canonicalUser,
  graphqlOutcome,
  HOME,
  PRINCIPAL_USER,
  restOutcome,
  TENANT_NAMES,
  type Outcome,
  type PrincipalName,
  type Twin,
} from './parity';
import type { Model } from './parity-step-data';
import { type Step } from './parity-step-data';
import {
  type Observation,
  currentRow,
  otherTenant,
  pathTenant,
  resolveFields,
  signInOutcome,
  tokenOf,
  userList,
  userValue,
  whoAmI,
} from './parity-step-helpers';

/** Runs a step on users, roles or departments on one twin; null for any other step. */
export async function runUsersStep(step: Step, twin: Twin, model: Model): Promise<Observation | null> {
  const { twins } = model;
  const { fixture } = twins;
  const rest = twin.protocol === 'rest';
  const auth = (who: PrincipalName) => twin.auth[who];

  switch (step.op) {
    case 'create': {
      const tenant = HOME[step.who];
      const input = resolveFields(twins, tenant, step.fields);
      if (rest) return { create: restOutcome(await twin.rest(auth(step.who), 'POST', '/api/users', input), userValue) };
      return {
        create: graphqlOutcome(
          await twin.graphql(auth(step.who), TENANT_NAMES[tenant], 'newUser', input),
          'newUser',
          userValue,
        ),
      };
    }

    case 'update': {
      const id = model.userId(step.target, step.who);
      const tenant = model.tenantOf(step.target, step.who) ?? HOME[step.who];
      const all = resolveFields(twins, tenant, step.fields);
      // The contract's three REST forms; GraphQL gets exactly the same arguments.
      const input = step.form === 'whole' ? all : step.form === 'email' ? { email: all.email } : { name: all.name };
      if (rest)
        return { update: restOutcome(await twin.rest(auth(step.who), 'PUT', `/api/users/${id}`, input), userValue) };
      const path = pathTenant(step.who, model.tenantOf(step.target, step.who));
      return {
        update: graphqlOutcome(
          await twin.graphql(auth(step.who), path, 'updateUser', { id, ...input }),
          'updateUser',
          userValue,
        ),
      };
    }

    case 'delete': {
      const id = model.userId(step.target, step.who);
      if (rest)
        return { delete: restOutcome(await twin.rest(auth(step.who), 'DELETE', `/api/users/${id}`), () => true) };
      const path = pathTenant(step.who, model.tenantOf(step.target, step.who));
      return { delete: graphqlOutcome(await twin.graphql(auth(step.who), path, 'deleteUser', { id }), 'deleteUser') };
    }

    case 'password': {
      // REST: the whole object with `password` on oneself (needs `users`); GraphQL: updateUserPassword.
      const key = PRINCIPAL_USER[step.who];
      const self = key ? fixture.users[key] : undefined;
      const tenant = TENANT_NAMES[HOME[step.who]];
      const before = auth(step.who);
      const row = self ? await currentRow(twin, self.id) : undefined;
      // A principal whose role no longer holds `users` (an earlier step demoted it) has no REST way to its
      // own password: the whole object needs `users` (contracts/openapi.yaml userUpdate), while GraphQL
      // updateUserPassword is any signed-in user's (contracts/schema.graphql). Both twins then change it
      // the only way the product offers, and the effects are still read through each twin's protocol.
      const restWay = rest && (row === undefined || row.role_id === fixture.roles.admin);
      let change: Outcome;
      if (restWay) {
        const body = row
          ? { username: row.username, name: row.name, email: row.email, role_id: row.role_id, password: step.password }
          : {
              username: 'nobody',
              name: 'Nobody',
              email: 'nobody@parity.test',
              role_id: fixture.roles.admin,
              password: step.password,
            };
        change = restOutcome(
          await twin.rest(before, 'PUT', `/api/users/${self?.id ?? fixture.users.aAdmin.id}`, body),
          userValue,
        );
      } else {
        const answer = await twin.graphql(before, tenant, 'updateUserPassword', { password: step.password });
        change = graphqlOutcome(answer, 'updateUserPassword', (d) => canonicalUser((d as { user: unknown }).user));
        const fresh = tokenOf(answer, 'updateUserPassword');
        if (fresh) {
          // GraphQL's answer carries a fresh session; REST's PUT carries none, so it is left out of the rows compared.
          const fam = JSON.parse(Buffer.from(fresh.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
            fam: string;
          };
          twin.ignoredFamilies.add(fam.fam);
        }
      }
      const observation: Observation = { change };
      // The old token, through both protocols.
      observation.oldTokenRest = await whoAmI(twin, before, 'rest', tenant);
      observation.oldTokenGraphql = await whoAmI(twin, before, 'graphql', tenant);
      if (self) {
        // After a change: the new password signs in and the one before does not, through the twin's own
        // protocol, and the principal goes on with the session the new password gave. After a refusal:
        // the password before still signs in.
        const previous = model.passwords.get(self.id) ?? self.password;
        if (change.ok) {
          const fresh = await signInOutcome(twin, self.email, step.password, tenant);
          observation.newPassword = fresh.outcome;
          if (previous !== step.password)
            observation.oldPassword = (await signInOutcome(twin, self.email, previous, tenant)).outcome;
          if (fresh.token) twin.auth[step.who] = `Bearer ${fresh.token}`;
        } else {
          observation.oldPassword = (await signInOutcome(twin, self.email, previous, tenant)).outcome;
        }
      }
      return observation;
    }

    case 'block': {
      // Only REST blocks (contracts/schema.graphql User.blocked): both twins block through REST; the
      // effect is then read through each twin's own protocol (sign-in, users list).
      const id = model.userId(step.target, step.who);
      return {
        block: restOutcome(
          await twin.rest(auth(step.who), 'PATCH', `/api/users/${id}`, { blocked: step.blocked }),
          userValue,
        ),
      };
    }

    case 'twoFactor': {
      const id = model.userId(step.target, step.who);
      const settings = (body: unknown) => body;
      if (rest)
        return {
          twoFactor: restOutcome(
            await twin.rest(auth(step.who), 'PATCH', `/api/user-settings/${id}`, step.settings),
            settings,
          ),
        };
      const path = pathTenant(step.who, model.tenantOf(step.target, step.who));
      return {
        twoFactor: graphqlOutcome(
          await twin.graphql(auth(step.who), path, 'updateUserSettings', { user_id: id, ...step.settings }),
          'updateUserSettings',
          settings,
        ),
      };
    }

    case 'setLimit': {
      // REST only (tenants are managed through REST): the same call on both twins.
      const tenant = fixture.tenants[step.tenant];
      const row = await twin.db
        .selectFrom('tenants')
        .select(['plan', 'ticket_limit'])
        .where('id', '=', tenant.id)
        .executeTakeFirstOrThrow();
      const { n } = await twin.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('tenant_id', '=', tenant.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      const body = { id: tenant.id, plan: row.plan, user: Number(n) + step.headroom, ticket: row.ticket_limit };
      return {
        setLimit: restOutcome(
          await twin.rest(auth('boAdmin'), 'POST', '/api/tenant/set-plan', body),
          (b) => (b as { userLimit: number }).userLimit,
        ),
      };
    }

    case 'list': {
      const tenant = step.tenant === 'own' ? HOME[step.who] : otherTenant(step.who);
      if (rest) {
        const url = step.tenant === 'own' ? '/api/users' : `/api/users?tenantName=${TENANT_NAMES[tenant]}`;
        return { list: restOutcome(await twin.rest(auth(step.who), 'GET', url), userList) };
      }
      return {
        list: graphqlOutcome(await twin.graphql(auth(step.who), TENANT_NAMES[tenant], 'users'), 'users', userList),
      };
    }

    case 'roles': {
      const roles = (b: unknown) => canonicalList(b, canonicalRole);
      if (rest) return { roles: restOutcome(await twin.rest(auth(step.who), 'GET', '/api/roles'), roles) };
      return {
        roles: graphqlOutcome(
          await twin.graphql(auth(step.who), TENANT_NAMES[HOME[step.who]], 'roles'),
          'roles',
          roles,
        ),
      };
    }

    case 'departments': {
      const tenant = step.tenant === 'own' ? HOME[step.who] : otherTenant(step.who);
      const list = (b: unknown) => canonicalList(b);
      if (rest) {
        const url = step.tenant === 'own' ? '/api/departments' : `/api/departments?tenantName=${TENANT_NAMES[tenant]}`;
        return { departments: restOutcome(await twin.rest(auth(step.who), 'GET', url), list) };
      }
      return {
        departments: graphqlOutcome(
          await twin.graphql(auth(step.who), TENANT_NAMES[tenant], 'departments'),
          'departments',
          list,
        ),
      };
    }

    default:
      return null;
  }
}
