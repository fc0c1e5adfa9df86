import { FIXTURE_PASSWORD, graphqlOutcome, restOutcome, TENANT_NAMES, type TenantKey, type Twin } from './parity';
import type { Model } from './parity-step-data';
import { type Step, UNKNOWN_ID, WRONG_PASSWORD } from './parity-step-data';
import {
  type Observation,
  changeOwnPassword,
  emailVariant,
  sessionsOf,
  signInOutcome,
  tokenOf,
  whoAmI,
} from './parity-step-helpers';

/** Runs a sign-in or session step on one twin; null for any other step. */
export async function runSessionStep(step: Step, twin: Twin, model: Model): Promise<Observation | null> {
  const { twins } = model;
  const { fixture } = twins;

  switch (step.op) {
    case 'signIn': {
      let email: string;
      let tenant: TenantKey = 'a';
      let own = FIXTURE_PASSWORD;
      if ('fixture' in step.target) {
        const user = fixture.users[step.target.fixture];
        email = user.email;
        tenant = user.tenant;
        own = model.passwords.get(user.id) ?? user.password;
      } else if ('created' in step.target) {
        const created =
          model.created.length === 0 ? undefined : model.created[step.target.created % model.created.length];
        email = created?.email ?? 'nobody@parity.test';
        tenant = created?.tenant ?? 'a';
        own = created ? (model.passwords.get(created.id) ?? created.password) : FIXTURE_PASSWORD;
      } else {
        email = step.target.unknown;
      }
      if ('fixture' in step.target || 'created' in step.target) {
        const id =
          'fixture' in step.target
            ? fixture.users[step.target.fixture].id
            : model.userId({ created: step.target.created }, 'aAdmin');
        const row =
          id === UNKNOWN_ID
            ? undefined
            : await twin.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirst();
        if (row) email = row.email;
      }
      const password =
        step.password === 'right'
          ? own
          : step.password === 'wrong'
            ? WRONG_PASSWORD
            : step.password === 'other-users'
              ? fixture.users.aOp.password + '?'
              : step.password;
      const observation: Observation = {};
      for (let i = 0; i < step.times; i++)
        observation[`attempt${i}`] = (
          await signInOutcome(twin, emailVariant(email, step.email), password, TENANT_NAMES[tenant])
        ).outcome;
      return observation;
    }

    case 'session': {
      const user = fixture.users[step.user];
      const { outcome, token } = await signInOutcome(
        twin,
        user.email,
        model.passwords.get(user.id) ?? user.password,
        TENANT_NAMES[user.tenant],
      );
      sessionsOf(twin).set(step.user, { current: token, previous: null });
      return { session: outcome };
    }

    case 'refresh': {
      // Only GraphQL refreshes (contracts/schema.graphql refreshToken), whichever protocol signed in.
      const session = sessionsOf(twin).get(step.user);
      const token = step.token === 'current' ? session?.current : session?.previous;
      const answer = await twin.graphql(
        token ? `Bearer ${token}` : undefined,
        TENANT_NAMES[fixture.users[step.user].tenant],
        'refreshToken',
      );
      const outcome = graphqlOutcome(answer, 'refreshToken', (d) => ({
        expires_in: (d as { expires_in: number }).expires_in,
      }));
      const next = tokenOf(answer, 'refreshToken');
      if (session && next) sessionsOf(twin).set(step.user, { current: next, previous: token ?? null });
      return { refresh: outcome };
    }

    case 'use': {
      const session = sessionsOf(twin).get(step.user);
      const token = step.token === 'current' ? session?.current : session?.previous;
      return { use: await whoAmI(twin, token, step.via, TENANT_NAMES[fixture.users[step.user].tenant]) };
    }

    case 'logout': {
      // Only REST signs out (the session's family); both twins sign out through REST.
      const session = sessionsOf(twin).get(step.user);
      const user = fixture.users[step.user];
      const token = session?.current;
      return {
        logout: restOutcome(
          await twin.rest(token ? `Bearer ${token}` : undefined, 'POST', '/api/auth/logout', {
            data: { email: user.email },
            ip: null,
          }),
        ),
      };
    }

    case 'selfPassword': {
      // aAdmin's own password through its refresh-case session, the only way (GraphQL updateUserPassword,
      // on both twins): on success the answer is a new token of the SAME session (its family and refresh
      // window), which becomes the session's current one and the one it had its previous one; every other
      // session of aAdmin ends. The next steps read both through either protocol.
      const session = sessionsOf(twin).get('aAdmin');
      const token = session?.current;
      const { outcome, token: fresh } = await changeOwnPassword(
        twin,
        token ? `Bearer ${token}` : undefined,
        TENANT_NAMES.a,
        step.password,
        model.currentPassword('aAdmin', step.current),
      );
      if (session && fresh) sessionsOf(twin).set('aAdmin', { current: fresh, previous: token ?? null });
      return { selfPassword: outcome };
    }
    default:
      return null;
  }
}
