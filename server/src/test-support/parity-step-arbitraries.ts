import fc from 'fast-check';
import type { FixtureUserKey, PrincipalName, TenantKey } from './parity';
import type {
  CurrentPassword,
  RoleRef,
  SignInEmail,
  SignInPassword,
  SignInTarget,
  Step,
  UserRef,
} from './parity-step-data';
import { MAX_BAD_FIELDS, createFieldsArb, departmentArb, updateFieldsArb } from './parity-values';

/** Callers: mostly the ones who may, sometimes ones who may not, or nobody. */
export const managerArb: fc.Arbitrary<PrincipalName> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom<PrincipalName>('boAdmin', 'aAdmin', 'aAdmin', 'bAdmin') },
  // Holds `users` without being administrador: no way up refuses it what administrators may do.
  { weight: 3, arbitrary: fc.constant<PrincipalName>('aManager') },
  { weight: 2, arbitrary: fc.constantFrom<PrincipalName>('aOp', 'boOp') },
  { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('anon', 'malformed', 'revoked') },
);

export const anyPrincipalArb: fc.Arbitrary<PrincipalName> = fc.constantFrom<PrincipalName>(
  'boAdmin',
  'boOp',
  'aAdmin',
  'aManager',
  'aOp',
  'bAdmin',
  'anon',
  'malformed',
  'revoked',
);

export const userRefArb: fc.Arbitrary<UserRef> = fc.oneof(
  { weight: 4, arbitrary: fc.nat(5).map<UserRef>((created) => ({ created })) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aBlocked', 'aTwoFactor', 'boSpare', 'bOp', 'aAdmin', 'aManager')
      .map<UserRef>((fixture) => ({ fixture })),
  },
  { weight: 1, arbitrary: fc.constantFrom<UserRef>({ self: true }, { unknown: true }, { fixture: 'aGone' }) },
);

export const createStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('create' as const),
  who: managerArb,
  fields: createFieldsArb,
});
/** A create by an administrator with a valid value set: cases need users to act on. */
export const plainCreateStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('create' as const),
  who: fc.constantFrom<PrincipalName>('aAdmin', 'boAdmin', 'bAdmin'),
  fields: fc.record({
    username: fc.constantFrom('nova', 'nina.x', 'noa_9', 'nilo-1'),
    name: fc.constantFrom('Nova Pessoa', '  Nina  ', 'Noá 😀'),
    email: fc.constantFrom('nova@parity.test', 'nina@parity.test', 'noa@parity.test', 'Nilo@Parity.Test'),
    password: fc.constantFrom('Nova#Senha-71', 'Outra$Senha-72'),
    role: fc.constantFrom<RoleRef>('operator', 'admin', 'manager'),
    department: departmentArb,
    instances: fc.record({ own: fc.uniqueArray(fc.nat(3), { maxLength: 2 }) }),
  }),
});
export const formArb = fc.constantFrom<'whole' | 'email' | 'name'>('whole', 'whole', 'email', 'name');

/**
 * Targets each administrator can see (its own tenant; back-office staff: every tenant), other than
 * itself. The update cases never delete these, so an update with a bad value always finds its target.
 */
const VISIBLE: Readonly<Record<'boAdmin' | 'aAdmin' | 'bAdmin', readonly FixtureUserKey[]>> = {
  boAdmin: ['aOp', 'aPlain', 'aBlocked', 'aTwoFactor', 'boSpare', 'bOp'],
  aAdmin: ['aOp', 'aPlain', 'aBlocked', 'aTwoFactor'],
  bAdmin: ['bOp'],
};

/** An administrator changing a user it can see, with bad values among the good ones. */
export const badValueUpdate: fc.Arbitrary<Step> = fc
  .constantFrom<'boAdmin' | 'aAdmin' | 'bAdmin'>('boAdmin', 'aAdmin', 'aAdmin', 'bAdmin')
  .chain((who) =>
    fc.record({
      op: fc.constant('update' as const),
      who: fc.constant<PrincipalName>(who),
      target: fc.constantFrom(...VISIBLE[who]).map<UserRef>((fixture) => ({ fixture })),
      form: formArb,
      fields: updateFieldsArb(MAX_BAD_FIELDS),
    }),
  );

/** Callers without `users` (operators) and without a usable token, on any target, good and bad values alike: 403 or 401 first. */
export const unprivilegedUpdate = (who: fc.Arbitrary<PrincipalName>): fc.Arbitrary<Step> =>
  fc.record({
    op: fc.constant('update' as const),
    who,
    target: userRefArb,
    form: formArb,
    fields: updateFieldsArb(MAX_BAD_FIELDS),
  });

/** The current password an update sends (none mostly: only a new e-mail of one's own needs it). */
const selfCurrentArb: fc.Arbitrary<CurrentPassword> = fc.constantFrom<CurrentPassword>('missing', 'right', 'wrong');

/** Updates: any caller on any target (created users, fixtures, itself, deleted or unknown ids), good and bad values. */
export const updateStep: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        op: fc.constant('update' as const),
        who: fc.oneof(
          { weight: 3, arbitrary: managerArb },
          { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('aOp', 'boOp') },
        ),
        target: userRefArb,
        form: formArb,
        fields: updateFieldsArb(MAX_BAD_FIELDS),
        current: selfCurrentArb,
      },
      { requiredKeys: ['op', 'who', 'target', 'form', 'fields'] },
    ),
  },
  { weight: 3, arbitrary: badValueUpdate },
  { weight: 1, arbitrary: unprivilegedUpdate(fc.constantFrom<PrincipalName>('aOp', 'boOp')) },
);

/**
 * A caller editing its own record: operators lack `users`, so only their own name and e-mail (REST's
 * one-field forms); the whole object names the role, 403 without `users` whatever the values, and 403
 * for anyone giving itself another role (no way up). A new e-mail of one's own needs the current password.
 */
export const selfEditStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('update' as const),
  who: fc.constantFrom<PrincipalName>('aOp', 'aOp', 'boOp', 'aAdmin', 'aManager'),
  target: fc.constant<UserRef>({ self: true }),
  form: fc.constantFrom<'whole' | 'email' | 'name'>('whole', 'email', 'email', 'name'),
  fields: updateFieldsArb(MAX_BAD_FIELDS),
  current: fc.constantFrom<CurrentPassword>('right', 'right', 'right', 'wrong', 'missing'),
});

export const deleteStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('delete' as const),
  who: managerArb,
  target: userRefArb,
});
/** Targets of deletes in cases that also update with bad values: never a user of VISIBLE. */
export const sparingTargetArb: fc.Arbitrary<UserRef> = fc.oneof(
  { weight: 3, arbitrary: fc.nat(5).map<UserRef>((created) => ({ created })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<UserRef>(
      { self: true },
      { unknown: true },
      { fixture: 'aGone' },
      { fixture: 'aAdmin' },
      { fixture: 'bAdmin' },
    ),
  },
);
export const deleteStepSparingVisible: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('delete' as const),
  who: managerArb,
  target: sparingTargetArb,
});
export const setLimitStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('setLimit' as const),
  tenant: fc.constantFrom<TenantKey>('a', 'a', 'backoffice'),
  headroom: fc.nat(2),
});
/** Users a block case blocks and signs in: fixture users with their own passwords, users it created, itself. */
const blockTargetArb: fc.Arbitrary<UserRef> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aBlocked', 'bOp', 'boSpare')
      .map<UserRef>((fixture) => ({ fixture })),
  },
  { weight: 1, arbitrary: fc.nat(2).map<UserRef>((created) => ({ created })) },
  { weight: 1, arbitrary: fc.constantFrom<UserRef>({ self: true }, { unknown: true }, { fixture: 'aGone' }) },
);
export const blockStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('block' as const),
  who: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<PrincipalName>('aAdmin', 'boAdmin') },
    { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('bAdmin', 'aOp') },
  ),
  target: blockTargetArb,
  blocked: fc.constantFrom(true, true, false),
});
/** An administrator (or someone who may not) resets or requires two-factor of the users a block case signs in. */
export const twoFactorStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('twoFactor' as const),
  who: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom<PrincipalName>('aAdmin', 'boAdmin') },
    { weight: 1, arbitrary: fc.constantFrom<PrincipalName>('bAdmin', 'aOp') },
  ),
  target: blockTargetArb,
  settings: fc.oneof(
    { weight: 4, arbitrary: fc.constant({ two_factor_enrolment_required: true }) },
    { weight: 1, arbitrary: fc.constant({ two_factor_enrolment_required: false }) },
    { weight: 1, arbitrary: fc.constant({ two_factor_enabled: false }) },
    { weight: 1, arbitrary: fc.constant({ two_factor_enabled: true }) },
  ),
});
/** A two-factor change of a user, then that user signing in (the right password mostly). */
export const twoFactorThenSignIn: fc.Arbitrary<Step[]> = fc
  .tuple(twoFactorStep, fc.constantFrom<SignInPassword>('right', 'right', 'wrong'))
  .map(([change, password]) => {
    const target = change.op === 'twoFactor' ? change.target : { fixture: 'aOp' as const };
    const signIn: SignInTarget =
      'fixture' in target
        ? { fixture: target.fixture }
        : 'created' in target
          ? { created: target.created }
          : { fixture: 'aOp' };
    return [change, { op: 'signIn', target: signIn, email: 'exact', password, times: 1 }];
  });
/** Sign-in of the users a block case blocks, right or wrong password. */
export const blockSignInStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('signIn' as const),
  target: fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .constantFrom<FixtureUserKey>('aOp', 'aPlain', 'aBlocked', 'bOp', 'boSpare')
        .map<SignInTarget>((fixture) => ({ fixture })),
    },
    { weight: 1, arbitrary: fc.nat(2).map<SignInTarget>((created) => ({ created })) },
  ),
  email: fc.constantFrom<SignInEmail>('exact', 'upper'),
  password: fc.constantFrom<SignInPassword>('right', 'right', 'wrong'),
  times: fc.integer({ min: 1, max: 2 }),
});
/** A page of the users list: filters (valid and invalid values: a `q` over 254 characters, a limit of 0 or 101). */
export const pageStep: fc.Arbitrary<Step> = fc
  .record({
    op: fc.constant('page' as const),
    who: anyPrincipalArb,
    tenant: fc.constantFrom<'own' | 'other'>('own', 'own', 'other'),
    filter: fc.record(
      {
        q: fc.oneof(
          fc.constantFrom('a', 'Ã', '%', '_', '\\', '@', ' '),
          fc.string({ maxLength: 6 }),
          fc.constant('x'.repeat(255)),
        ),
        role: fc.constantFrom<RoleRef>('admin', 'operator', 'manager', 'unknown'),
        blocked: fc.boolean(),
        online: fc.boolean(),
        twoFactor: fc.boolean(),
        department: fc.constant('none' as const),
        id: fc.oneof(
          { weight: 4, arbitrary: userRefArb },
          { weight: 1, arbitrary: fc.constant<{ zero: true }>({ zero: true }) },
        ),
      },
      { requiredKeys: [] },
    ),
    sort: fc.constantFrom('name', 'email', 'role', 'department', 'presence'),
    dir: fc.constantFrom('asc', 'desc'),
    page: fc.constantFrom(1, 1, 2, 0),
    limit: fc.constantFrom(1, 2, 25, 100, 0, 101),
  })
  .map((step) =>
    // Another tenant's list is refused before its values are read on GraphQL (the path's tenant) but after
    // them on REST (the schema first): only valid values there, so both answer the refusal of the tenant.
    step.tenant === 'other'
      ? {
          ...step,
          page: 1,
          limit: 25,
          filter: {
            ...step.filter,
            q: step.filter.q?.slice(0, 254),
            id: step.filter.id && 'zero' in step.filter.id ? undefined : step.filter.id,
          },
        }
      : step,
  );

export const listStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('list' as const),
  who: anyPrincipalArb,
  tenant: fc.constantFrom<'own' | 'other'>('own', 'own', 'other'),
});
export const rolesStep: fc.Arbitrary<Step> = fc.record({ op: fc.constant('roles' as const), who: anyPrincipalArb });
export const departmentsStep: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('departments' as const),
  who: anyPrincipalArb,
  tenant: fc.constantFrom<'own' | 'other'>('own', 'other'),
});
