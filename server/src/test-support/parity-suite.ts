import fc from 'fast-check';
import { startTwins, Tally, type Twins } from './parity';
import {
  blockSignInStep,
  blockStep,
  createStep,
  deleteStep,
  deleteStepSparingVisible,
  departmentsStep,
  listStep,
  pageStep,
  orderingStep,
  passwordStep,
  plainCreateStep,
  setPasswordStep,
  refreshSteps,
  rolesStep,
  runCase,
  selfEditStep,
  sequence,
  sessionStep,
  setLimitStep,
  twoFactorStep,
  twoFactorThenSignIn,
  signInEmailForms,
  signInPasswords,
  signInStep,
  updateStep,
  type Step,
  connectionCreateStep,
  connectionUpdateStep,
  departmentCreateStep,
  departmentUpdateStep,
} from './parity-steps';

/**
 * The capabilities both protocols offer (contracts/openapi.yaml ↔ contracts/schema.graphql), each a
 * fast-check property over short step sequences (server/src/test-support/parity-steps.ts), run on two
 * twins (server/src/test-support/parity.ts). `requires` lists agreed outcomes the cases must have met
 * at least once, so a generator that drifted away from a rule cannot pass by never reaching it.
 */
export interface Capability {
  name: string;
  cases: fc.Arbitrary<Step[]>;
  requires: readonly string[];
  /**
   * Cases run before the generated ones, one per outcome of `requires` that the generated cases reach
   * only by chance: every seed then meets every required outcome (a seed that missed one failed the run).
   */
  examples?: readonly Step[][];
}

export const CAPABILITIES: readonly Capability[] = [
  {
    name: 'sign-in',
    cases: sequence(signInStep(signInEmailForms, signInPasswords)),
    requires: ['attempt0:ok', 'attempt0:invalid_credentials', 'attempt0:two_factor_required', '*:throttled'],
  },
  {
    name: 'refresh',
    cases: fc
      .tuple(sessionStep, fc.array(refreshSteps, { minLength: 1, maxLength: 4 }))
      .map(([first, rest]) => [first, ...rest]),
    requires: [
      'session:ok',
      'refresh:ok',
      'refresh:unauthenticated',
      'use:ok',
      'use:unauthenticated',
      'selfPassword:ok',
      'selfPassword:invalid@current_password',
    ],
    examples: [
      [
        { op: 'session', user: 'aAdmin' },
        { op: 'selfPassword', password: 'Nova#Senha-71', current: 'wrong' },
      ],
    ],
  },
  {
    name: 'user create',
    cases: sequence(
      fc.oneof(
        { weight: 8, arbitrary: createStep },
        { weight: 1, arbitrary: deleteStep },
        { weight: 2, arbitrary: setLimitStep },
      ),
    ),
    requires: [
      'create:ok',
      'create:invalid',
      'create:unknown_reference',
      'create:conflict',
      'create:limit_reached',
      'create:forbidden',
      'create:unauthenticated',
    ],
  },
  {
    name: 'user update',
    cases: sequence(
      fc.oneof(
        { weight: 6, arbitrary: updateStep },
        { weight: 3, arbitrary: selfEditStep },
        { weight: 2, arbitrary: plainCreateStep },
        { weight: 1, arbitrary: deleteStepSparingVisible },
      ),
    ),
    requires: [
      'update:ok',
      'update:invalid',
      'update:unknown_reference',
      'update:conflict',
      'update:not_found',
      'update:forbidden',
      // A new e-mail of one's own: refused without the right current password, and once made, the
      // session that made it kept and the user's other session ended; refused, the other one kept.
      'update:invalid@current_password',
      'sessionRest:ok',
      'sessionGraphql:ok',
      'otherRest:unauthenticated',
      'otherGraphql:unauthenticated',
      'otherRest:ok',
      'otherGraphql:ok',
    ],
  },
  {
    name: 'user delete',
    cases: sequence(fc.oneof({ weight: 5, arbitrary: deleteStep }, { weight: 3, arbitrary: plainCreateStep })),
    requires: ['delete:ok', 'delete:not_found', 'delete:conflict', 'delete:forbidden', 'delete:unauthenticated'],
  },
  {
    name: 'password',
    cases: sequence(fc.oneof({ weight: 3, arbitrary: passwordStep }, { weight: 2, arbitrary: setPasswordStep }), 2),
    requires: [
      // One's own: the old REST way refused, the change proven with the current password, this session
      // kept, the other sessions ended.
      'ownRest:forbidden',
      'change:ok',
      'change:invalid@password',
      'change:invalid@current_password',
      'change:unauthenticated',
      'sessionRest:ok',
      'sessionGraphql:ok',
      'otherRest:unauthenticated',
      'otherGraphql:unauthenticated',
      'otherRest:ok',
      'otherGraphql:ok',
      'newPassword:ok',
      'oldPassword:invalid_credentials',
      // Another's, set by someone who may or may not (no way up): every session of the user ends.
      'set:ok',
      'set:forbidden',
      'set:not_found',
      'targetRest:unauthenticated',
      'targetGraphql:unauthenticated',
      'targetRest:ok',
      'targetGraphql:ok',
      'targetNewPassword:ok',
    ],
  },
  {
    name: 'block',
    cases: sequence(
      fc.oneof(
        { weight: 3, arbitrary: blockStep },
        { weight: 3, arbitrary: blockSignInStep },
        { weight: 2, arbitrary: listStep },
        { weight: 1, arbitrary: plainCreateStep },
      ),
      5,
    ),
    requires: ['block:ok', 'attempt0:ok', 'attempt0:invalid_credentials', 'list:ok'],
  },
  {
    name: 'two-factor settings and enrolment at sign-in',
    cases: fc
      .array(
        fc.oneof(
          { weight: 3, arbitrary: twoFactorThenSignIn },
          { weight: 2, arbitrary: twoFactorStep.map((step) => [step]) },
          { weight: 2, arbitrary: blockSignInStep.map((step) => [step]) },
          { weight: 1, arbitrary: plainCreateStep.map((step) => [step]) },
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((parts) => parts.flat()),
    requires: [
      'twoFactor:ok',
      'twoFactor:not_found',
      'attempt0:two_factor_enrolment_required',
      'attempt0:ok',
      // Another session of the user: ended by a change of its two-factor, kept by a refusal.
      'targetRest:unauthenticated',
      'targetGraphql:unauthenticated',
      'targetRest:ok',
      'targetGraphql:ok',
    ],
  },
  {
    name: 'users list',
    cases: sequence(
      fc.oneof(
        { weight: 4, arbitrary: listStep },
        { weight: 1, arbitrary: plainCreateStep },
        { weight: 1, arbitrary: updateStep },
        { weight: 1, arbitrary: deleteStepSparingVisible },
        { weight: 1, arbitrary: blockStep },
      ),
    ),
    requires: ['list:ok', 'list:forbidden', 'list:unauthenticated'],
  },
  {
    // docs/lists.md, Filters and export: one page, filtered and sorted, alike in both protocols.
    name: 'users page',
    cases: sequence(
      fc.oneof(
        { weight: 4, arbitrary: pageStep },
        { weight: 1, arbitrary: plainCreateStep },
        { weight: 1, arbitrary: blockStep },
      ),
    ),
    requires: ['page:ok', 'page:invalid', 'page:forbidden', 'page:unauthenticated'],
  },
  { name: 'roles', cases: sequence(rolesStep, 3), requires: ['roles:ok', 'roles:forbidden', 'roles:unauthenticated'] },
  {
    name: 'departments',
    cases: sequence(departmentsStep, 3),
    requires: ['departments:ok', 'departments:forbidden', 'departments:unauthenticated'],
  },
  {
    name: 'department and connection changes',
    cases: sequence(
      fc.oneof(
        { weight: 2, arbitrary: departmentCreateStep },
        { weight: 2, arbitrary: departmentUpdateStep },
        { weight: 2, arbitrary: connectionCreateStep },
        { weight: 2, arbitrary: connectionUpdateStep },
      ),
    ),
    requires: [
      'create:ok',
      'create:invalid',
      'create:conflict',
      'create:unknown_reference',
      'create:forbidden',
      'update:ok',
      'update:not_found',
      'update:conflict',
      'update:invalid',
    ],
  },
  {
    name: '401 → 403 → 400 ordering',
    cases: sequence(orderingStep, 3),
    requires: ['create:unauthenticated', 'create:forbidden', 'create:invalid', 'update:forbidden', 'delete:forbidden'],
  },
];

/** Cases per capability and database (`PARITY_RUNS` overrides, for a longer local run). */
export const RUNS = Number(process.env.PARITY_RUNS ?? 200);

/**
 * Registers the differential suite for one database: twins started once, every capability a property
 * of RUNS cases, the counts printed at the end (one line per capability, like the RBAC matrix test).
 * `PARITY_SEED` replays a run; the seed is printed either way.
 */
export function defineParitySuite(database: string, open: () => Promise<{ url: string; stop(): Promise<void> }>): void {
  const seed = Number(process.env.PARITY_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const tally = new Tally();
  let twins: Twins | undefined;
  let stop: (() => Promise<void>) | undefined;
  let started = 0;
  let cpuAtStart = process.cpuUsage();

  describe(`REST ↔ GraphQL differential (${database}, seed ${seed})`, () => {
    beforeAll(async () => {
      started = Date.now();
      cpuAtStart = process.cpuUsage();
      const server = await open();
      stop = () => server.stop();
      twins = await startTwins(server.url);
      console.log(`parity[${database}] twins ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }, 300_000);

    afterAll(async () => {
      await twins?.close();
      await stop?.();
      const all = process.cpuUsage(cpuAtStart);
      console.log(
        [
          ...tally.lines(database),
          `parity[${database}] seed ${seed}, ${RUNS} cases per capability, ${((Date.now() - started) / 1000).toFixed(1)} s in all (${((all.user + all.system) / 1e6).toFixed(1)} s CPU in this process)`,
        ].join('\n'),
      );
    });

    // PARITY_ONLY=<part of a name>[,…] runs only those capabilities (to replay one locally).
    const only = (process.env.PARITY_ONLY ?? '').split(',').filter(Boolean);
    for (const [index, capability] of CAPABILITIES.entries()) {
      if (only.length > 0 && !only.some((part) => capability.name.includes(part))) continue;
      it(`${capability.name}: the same outcome kinds and the same rows through REST and GraphQL`, async () => {
        const t = twins;
        if (!t) throw new Error('twins did not start');
        const wall = performance.now();
        const cpu = process.cpuUsage();
        const details = await fc.check(
          fc.asyncProperty(capability.cases, (steps) => runCase(t, steps, tally, capability.name)),
          { numRuns: RUNS, seed: seed + index, examples: (capability.examples ?? []).map((steps) => [steps]) },
        );
        const used = process.cpuUsage(cpu);
        tally.ran(capability.name, details.numRuns, (performance.now() - wall) / 1000, (used.user + used.system) / 1e6);
        if (details.failed) {
          const cause =
            details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          throw new Error(`${fc.defaultReportMessage(details) ?? 'property failed'}\n\nCause: ${cause}`);
        }
        expect(details.numRuns).toBeGreaterThanOrEqual(RUNS);
        const met = [...tally.kinds(capability.name).keys(), ...tally.details(capability.name)];
        const reached = (wanted: string) =>
          met.some((key) => key === wanted || (wanted.startsWith('*:') && key.endsWith(wanted.slice(1))));
        expect(capability.requires.filter((wanted) => !reached(wanted))).toEqual([]);
      }, 600_000);
    }
  });
}
