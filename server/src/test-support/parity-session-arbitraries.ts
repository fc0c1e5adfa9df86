import fc from 'fast-check';
import type { FixtureUserKey, PrincipalName } from './parity';
import type {
  CurrentPassword,
  SessionUser,
  SignInEmail,
  SignInPassword,
  SignInTarget,
  Step,
  UserRef,
} from './parity-step-data';
import { MAX_BAD_FIELDS, createFieldsArb, passwordArb, updateFieldsArb } from './parity-values';
import {
  anyPrincipalArb,
  badValueUpdate,
  departmentsStep,
  formArb,
  listStep,
  rolesStep,
  selfEditStep,
  sparingTargetArb,
  unprivilegedUpdate,
  userRefArb,
} from './parity-step-arbitraries';

/** Arbitraries of the sign-in, password and session steps, and of the ordering cases that mix every step kind. */

/** Sign-in targets: active, blocked, deleted, two-factor, the demo administrator (a real argon2id hash), created users, unknown addresses. */
export const signInTargetArb: fc.Arbitrary<SignInTarget> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc
      .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aBlocked', 'aGone', 'aTwoFactor', 'bOp', 'boSpare')
      .map<SignInTarget>((fixture) => ({ fixture })),
  },
  // These two cost a full argon2id verification each (a real hash; a dummy one for unknown addresses).
  { weight: 1, arbitrary: fc.constant<SignInTarget>({ fixture: 'boAdmin' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<SignInTarget>({ unknown: 'nobody@parity.test' }, { unknown: 'Nobody@Parity.Test' }),
  },
);
export const signInStep = (emails: fc.Arbitrary<string>, passwords: fc.Arbitrary<string>): fc.Arbitrary<Step> =>
  fc.record({
    op: fc.constant('signIn' as const),
    target: signInTargetArb,
    email: emails,
    password: passwords,
    times: fc.integer({ min: 1, max: 3 }),
  });
/** The address as stored, in upper or mixed case, with surrounding space, or malformed ("%s" is the address); passwords right, wrong, empty, too long. */
export const signInEmailForms: fc.Arbitrary<SignInEmail | string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<SignInEmail | string>('exact', 'exact', 'upper', 'mixed') },
  { weight: 1, arbitrary: fc.constantFrom(' %s', '%s ', '\t%s', 'x%s@', '%s\u0000') },
);
export const signInPasswords: fc.Arbitrary<SignInPassword | string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<SignInPassword | string>('right', 'right', 'wrong', 'other-users') },
  { weight: 1, arbitrary: fc.constantFrom('', 'Ab1#'.repeat(32) + 'Z') },
);

/** The current password sent with a change of one's own credentials: mostly the right one. */
export const currentArb: fc.Arbitrary<CurrentPassword> = fc.constantFrom<CurrentPassword>(
  'right',
  'right',
  'right',
  'wrong',
  'missing',
);

/** One's own new password: any signed-in user may (operators and the manager too), or nobody. */
export const passwordStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('password' as const),
  who: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<PrincipalName>('aAdmin', 'aAdmin', 'bAdmin', 'aManager', 'aOp') },
    { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('boAdmin', 'boOp') },
    { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('anon', 'malformed', 'revoked') },
  ),
  password: passwordArb,
  current: currentArb,
});

/** Another user's new password, by a caller who may (administrators, the manager on operators) or may not. */
export const setPasswordStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('setPassword' as const),
  who: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<PrincipalName>('aAdmin', 'boAdmin', 'aManager', 'aManager') },
    { weight: 2, arbitrary: fc.constantFrom<PrincipalName>('bAdmin', 'aOp', 'boOp') },
    { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('anon', 'revoked') },
  ),
  target: fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aAdmin', 'aManager', 'bOp')
        .map<UserRef>((fixture) => ({ fixture })),
    },
    { weight: 1, arbitrary: fc.nat(2).map<UserRef>((created) => ({ created })) },
    { weight: 1, arbitrary: fc.constantFrom<UserRef>({ self: true }, { unknown: true }, { fixture: 'aGone' }) },
  ),
  password: passwordArb,
});

const sessionUserArb = fc.constantFrom<SessionUser>('aAdmin', 'aAdmin', 'aOp', 'aPlain');
export const sessionStep: fc.Arbitrary<Step> = fc.record({ op: fc.constant('session' as const), user: sessionUserArb });
export const refreshSteps: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: sessionStep },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('refresh' as const),
      user: sessionUserArb,
      token: fc.constantFrom<'current' | 'previous'>('current', 'current', 'previous'),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('use' as const),
      user: sessionUserArb,
      via: fc.constantFrom<'rest' | 'graphql'>('rest', 'graphql'),
      token: fc.constantFrom<'current' | 'previous'>('current', 'current', 'previous'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('block' as const),
      who: fc.constant<PrincipalName>('boAdmin'),
      target: fc.constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aAdmin').map<UserRef>((fixture) => ({ fixture })),
      blocked: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('delete' as const),
      who: fc.constant<PrincipalName>('boAdmin'),
      target: fc.constantFrom<FixtureUserKey>('aOp', 'aPlain').map<UserRef>((fixture) => ({ fixture })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('selfPassword' as const),
      password: fc.constantFrom('Nova#Senha-71', 'Nova#Senha-71', 'Xy#12345'),
      current: fc.constantFrom<CurrentPassword>('right', 'right', 'wrong'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('logout' as const), user: sessionUserArb }) },
);

/** Every step kind an ordering case may use: principals of every sort, inputs good or bad. */
export const orderingStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('create' as const), who: anyPrincipalArb, fields: createFieldsArb }),
  fc.record({
    op: fc.constant('update' as const),
    who: anyPrincipalArb,
    target: userRefArb,
    form: formArb,
    fields: updateFieldsArb(MAX_BAD_FIELDS),
    current: currentArb,
  }),
  unprivilegedUpdate(fc.constantFrom<PrincipalName>('aOp', 'boOp', 'anon', 'malformed', 'revoked')),
  badValueUpdate,
  selfEditStep,
  fc.record({ op: fc.constant('delete' as const), who: anyPrincipalArb, target: sparingTargetArb }),
  fc.record({
    op: fc.constant('password' as const),
    who: fc.constantFrom<PrincipalName>('boAdmin', 'aAdmin', 'bAdmin', 'aOp', 'anon', 'malformed', 'revoked'),
    password: passwordArb,
    current: currentArb,
  }),
  setPasswordStep,
  listStep,
  rolesStep,
  departmentsStep,
);

/** A case: a short sequence of steps. */
export const sequence = (step: fc.Arbitrary<Step>, maxLength = 4) => fc.array(step, { minLength: 1, maxLength });
