import {
  canonicalList,
  canonicalRole,
  canonicalUser,
  graphqlOutcome,
  HOME,
  PRINCIPAL_USER,
  restOutcome,
  TENANT_NAMES,
  type PrincipalName,
  type Twin,
} from './parity';
import type { Model } from './parity-step-data';
import { type Step, UNKNOWN_ID, WRONG_PASSWORD } from './parity-step-data';
import {
  type Observation,
  changeOwnPassword,
  currentRow,
  expectOutcome,
  otherSession,
  otherTenant,
  pathTenant,
  readOtherSession,
  resolveFields,
  signInOutcome,
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
      // The current password rides with the forms that carry an e-mail (REST UserUpdate, UserEmailOnly;
      // UserNameOnly has no such field): needed for a new e-mail of one's own, ignored otherwise.
      const current = step.form === 'name' ? undefined : model.currentPassword(step.who, step.current);
      const proof = current === undefined ? {} : { current_password: current };
      // The contract's three REST forms; GraphQL gets exactly the same arguments.
      const input =
        step.form === 'whole'
          ? { ...all, ...proof }
          : step.form === 'email'
            ? { email: all.email, ...proof }
            : { name: all.name };
      // One's own e-mail: another session of the user, signed in now, ends when it changes.
      const key = PRINCIPAL_USER[step.who];
      const own = key !== undefined && step.who !== 'revoked' && id === fixture.users[key].id;
      const row = own && step.form !== 'name' ? await currentRow(twin, id) : undefined;
      const observation: Observation = {};
      const home = TENANT_NAMES[HOME[step.who]];
      const other = row
        ? await otherSession(twin, row.email, model.passwordOf(step.who) ?? WRONG_PASSWORD, home, observation)
        : null;
      if (rest) {
        observation.update = restOutcome(await twin.rest(auth(step.who), 'PUT', `/api/users/${id}`, input), userValue);
      } else {
        const path = pathTenant(step.who, model.tenantOf(step.target, step.who));
        observation.update = graphqlOutcome(
          await twin.graphql(auth(step.who), path, 'updateUser', { id, ...input }),
          'updateUser',
          userValue,
        );
      }
      if (row) {
        // The rules on one's own e-mail (server/src/users/service.ts update), checked on each twin: a
        // new address only with the right current password; once it changed, the other session ended
        // and this one goes on; anything else (a refusal, the same address in other case, no e-mail
        // asked) ended nothing.
        const after = await currentRow(twin, id);
        const changed = after?.email !== row.email;
        if (changed && current !== model.passwordOf(step.who))
          throw new Error(
            `${twin.protocol} twin: one's own e-mail changed without the right current password: ${observation.update.wire}`,
          );
        if (changed) {
          observation.sessionRest = await whoAmI(twin, auth(step.who), 'rest', home);
          observation.sessionGraphql = await whoAmI(twin, auth(step.who), 'graphql', home);
          expectOutcome(twin, 'own new e-mail: the session that made it, through REST', observation.sessionRest, 'ok');
          expectOutcome(
            twin,
            'own new e-mail: the session that made it, through GraphQL',
            observation.sessionGraphql,
            'ok',
          );
        }
        if (other !== null)
          await readOtherSession(twin, other, home, observation, 'other', changed, 'own e-mail, another session');
      }
      return observation;
    }

    case 'delete': {
      const id = model.userId(step.target, step.who);
      if (rest)
        return { delete: restOutcome(await twin.rest(auth(step.who), 'DELETE', `/api/users/${id}`), () => true) };
      const path = pathTenant(step.who, model.tenantOf(step.target, step.who));
      return { delete: graphqlOutcome(await twin.graphql(auth(step.who), path, 'deleteUser', { id }), 'deleteUser') };
    }

    case 'password': {
      // One's own password changes only through GraphQL updateUserPassword, proven with the current one
      // (contracts/schema.graphql; REST has no way to it): both twins change it that way, and what it did
      // is read through each twin's own protocol, as for `block`.
      const key = PRINCIPAL_USER[step.who];
      const self = key ? fixture.users[key] : undefined;
      const tenant = TENANT_NAMES[HOME[step.who]];
      const before = auth(step.who);
      const observation: Observation = {};
      // The way that is closed (contracts/openapi.yaml userUpdate): one's own password in the whole
      // object, with the right current password even. 403 (400 first for a weak one: input before the
      // stored record), on both twins through REST, so agreeing shows nothing: it must be a refusal.
      const row = self ? await currentRow(twin, self.id) : undefined;
      const right = model.passwordOf(step.who) ?? WRONG_PASSWORD;
      const body = row
        ? {
            username: row.username,
            name: row.name,
            email: row.email,
            role_id: row.role_id,
            password: step.password,
            current_password: right,
          }
        : {
            username: 'nobody',
            name: 'Nobody',
            email: 'nobody@parity.test',
            role_id: fixture.roles.admin,
            password: step.password,
          };
      observation.ownRest = restOutcome(
        await twin.rest(before, 'PUT', `/api/users/${self?.id ?? fixture.users.aAdmin.id}`, body),
        userValue,
      );
      if (observation.ownRest.ok)
        throw new Error(`${twin.protocol} twin: PUT of one's own password was answered ${observation.ownRest.wire}`);
      // Another session of the same user, signed in now: a new password ends it; a refusal leaves it on.
      const other = self && row ? await otherSession(twin, row.email, right, tenant, observation) : null;
      const current = model.currentPassword(step.who, step.current);
      const { outcome: change, token: fresh } = await changeOwnPassword(twin, before, tenant, step.password, current);
      observation.change = change;
      if (change.ok && current !== right)
        throw new Error(`${twin.protocol} twin: a new password without the right current one: ${change.wire}`);
      // This session goes on with its new token (./parity-step-helpers.ts changeOwnPassword checked it is
      // of the same session), through both protocols; after a refusal, with the token it had.
      if (fresh) twin.auth[step.who] = `Bearer ${fresh}`;
      observation.sessionRest = await whoAmI(twin, fresh ?? before, 'rest', tenant);
      observation.sessionGraphql = await whoAmI(twin, fresh ?? before, 'graphql', tenant);
      if (change.ok) {
        expectOutcome(twin, 'own new password: the session that made it, through REST', observation.sessionRest, 'ok');
        expectOutcome(
          twin,
          'own new password: the session that made it, through GraphQL',
          observation.sessionGraphql,
          'ok',
        );
      }
      if (other !== null)
        await readOtherSession(twin, other, tenant, observation, 'other', change.ok, 'own password, another session');
      if (self && row) {
        // After a change: the new password signs in and the one before does not, through the twin's own
        // protocol. After a refusal: the password before still signs in.
        if (change.ok) {
          observation.newPassword = (await signInOutcome(twin, row.email, step.password, tenant)).outcome;
          if (right !== step.password)
            observation.oldPassword = (await signInOutcome(twin, row.email, right, tenant)).outcome;
        } else {
          observation.oldPassword = (await signInOutcome(twin, row.email, right, tenant)).outcome;
        }
      }
      return observation;
    }

    case 'setPassword': {
      // Another user's password: only REST's whole object sets it (contracts/openapi.yaml userUpdate;
      // GraphQL updateUser has no password), so both twins set it through REST; the target's sessions
      // and sign-ins are then read through each twin's own protocol. No way up: the caller holds every
      // permission the target holds (server/src/access/escalation.ts).
      const id = model.userId(step.target, step.who);
      const targetTenant = model.tenantOf(step.target, step.who);
      const tenant = TENANT_NAMES[targetTenant ?? HOME[step.who]];
      const row = id === UNKNOWN_ID ? undefined : await currentRow(twin, id);
      const before = model.passwords.get(id);
      const observation: Observation = {};
      const target =
        row && before !== undefined ? await otherSession(twin, row.email, before, tenant, observation, 'target') : null;
      const body = row
        ? { username: row.username, name: row.name, email: row.email, role_id: row.role_id, password: step.password }
        : {
            username: 'nobody',
            name: 'Nobody',
            email: 'nobody@parity.test',
            role_id: fixture.roles.operator,
            password: step.password,
          };
      const set = restOutcome(await twin.rest(auth(step.who), 'PUT', `/api/users/${id}`, body), userValue);
      observation.set = set;
      // Through REST on both twins, so the rules are stated here: never one's own this way; set by
      // someone else, every session of the user ends (server/src/users/service.ts update); refused, none.
      const key = PRINCIPAL_USER[step.who];
      const own = key !== undefined && step.who !== 'revoked' && id === fixture.users[key].id;
      if (own && set.ok) throw new Error(`${twin.protocol} twin: PUT of one's own password was answered ${set.wire}`);
      if (target !== null) await readOtherSession(twin, target, tenant, observation, 'target', set.ok, 'password set');
      if (row && set.ok)
        observation.targetNewPassword = (await signInOutcome(twin, row.email, step.password, tenant)).outcome;
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
      // Another session of the target, signed in now through the twin's own protocol (none when its
      // sign-in is refused: two-factor to enrol, blocked…). A change of its two-factor ends it, whoever
      // made it (the caller's own session goes on: server/src/users/service.ts updateSettings); a call
      // that changed nothing, or a refusal, ends nothing. Read through both protocols after the change.
      const targetTenant = TENANT_NAMES[model.tenantOf(step.target, step.who) ?? HOME[step.who]];
      const flags = async () =>
        id === UNKNOWN_ID
          ? undefined
          : twin.db
              .selectFrom('users')
              .select(['email', 'two_factor_enabled', 'two_factor_enrolment_required'])
              .where('id', '=', id)
              .executeTakeFirst();
      const before = await flags();
      const password = model.passwords.get(id);
      const observation: Observation = {};
      const target =
        before && password !== undefined
          ? await otherSession(twin, before.email, password, targetTenant, observation, 'target')
          : null;
      if (rest) {
        observation.twoFactor = restOutcome(
          await twin.rest(auth(step.who), 'PATCH', `/api/user-settings/${id}`, step.settings),
          settings,
        );
      } else {
        const path = pathTenant(step.who, model.tenantOf(step.target, step.who));
        observation.twoFactor = graphqlOutcome(
          await twin.graphql(auth(step.who), path, 'updateUserSettings', { user_id: id, ...step.settings }),
          'updateUserSettings',
          settings,
        );
      }
      if (target !== null && before) {
        const after = await flags();
        const changed =
          after?.two_factor_enabled !== before.two_factor_enabled ||
          after.two_factor_enrolment_required !== before.two_factor_enrolment_required;
        await readOtherSession(twin, target, targetTenant, observation, 'target', changed, 'two-factor change');
      }
      return observation;
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

    case 'page': {
      const tenant = step.tenant === 'own' ? HOME[step.who] : otherTenant(step.who);
      const { id: idRef, ...filter } = step.filter;
      const role = filter.role === undefined ? undefined : resolveFields(twins, tenant, { role: filter.role }).role_id;
      // Any user's id, the caller's tenant or not (another tenant's user is simply not in the page).
      const id = idRef === undefined ? undefined : 'zero' in idRef ? 0 : model.userId(idRef, step.who);
      // Order matters here (not a set): the page is compared as answered.
      const pageValue = (b: unknown) => {
        const body = b as { data: unknown[]; total: number; page: number; limit: number; last_page: number };
        return { ...body, data: body.data.map(canonicalUser) };
      };
      if (rest) {
        const params = new URLSearchParams();
        if (step.tenant === 'other') params.set('tenantName', TENANT_NAMES[tenant]);
        if (id !== undefined) params.set('id', String(id));
        if (filter.q !== undefined) params.set('q', filter.q);
        if (role !== undefined) params.set('role', String(role));
        if (filter.department !== undefined) params.set('department', filter.department);
        if (filter.blocked !== undefined) params.set('blocked', String(filter.blocked));
        if (filter.online !== undefined) params.set('online', String(filter.online));
        if (filter.twoFactor !== undefined) params.set('two_factor', String(filter.twoFactor));
        params.set('sort', step.sort);
        params.set('dir', step.dir);
        params.set('page', String(step.page));
        params.set('limit', String(step.limit));
        return {
          page: restOutcome(await twin.rest(auth(step.who), 'GET', `/api/users/page?${params.toString()}`), pageValue),
        };
      }
      const variables = {
        filter: { ...filter, ...(role === undefined ? {} : { role }), ...(id === undefined ? {} : { id }) },
        sort: { field: step.sort, direction: step.dir },
        page: step.page,
        limit: step.limit,
      };
      return {
        page: graphqlOutcome(
          await twin.graphql(auth(step.who), TENANT_NAMES[tenant], 'usersPage', variables),
          'usersPage',
          pageValue,
        ),
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
