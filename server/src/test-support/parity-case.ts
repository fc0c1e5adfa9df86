import { agree, HOME, PRINCIPAL_USER, type Outcome, type Tally, type Twin, type Twins } from './parity';
import { Model, type Step } from './parity-step-data';
import { type Observation, clearSessions } from './parity-step-helpers';
import { runUsersStep } from './parity-step-users';
import { runRecordsStep } from './parity-step-records';
import { runSessionStep } from './parity-step-sessions';

/** Runs one step on one twin. */
export async function runStep(step: Step, twin: Twin, model: Model): Promise<Observation> {
  const observation =
    (await runUsersStep(step, twin, model)) ??
    (await runRecordsStep(step, twin, model)) ??
    (await runSessionStep(step, twin, model));
  if (!observation) throw new Error(`no runner for step ${JSON.stringify(step)}`);
  return observation;
}

/** What a step changed in the case model, read off the REST twin's answer once both agreed. */
function applyEffects(step: Step, observation: Observation, model: Model): void {
  const { fixture } = model.twins;
  const okUser = (outcome: Outcome | undefined) =>
    outcome?.ok ? (outcome.value as { id: number; email: string }) : undefined;
  switch (step.op) {
    case 'create': {
      const user = okUser(observation.create);
      if (user) {
        model.created.push({ id: user.id, tenant: HOME[step.who], email: user.email, password: step.fields.password });
        model.passwords.set(user.id, step.fields.password);
      }
      return;
    }
    case 'password': {
      const key = PRINCIPAL_USER[step.who];
      if (key && observation.change?.ok) model.passwords.set(fixture.users[key].id, step.password);
      return;
    }
    case 'setPassword':
      if (observation.set?.ok) model.passwords.set(model.userId(step.target, step.who), step.password);
      return;
    case 'selfPassword':
      if (observation.selfPassword?.ok) model.passwords.set(fixture.users.aAdmin.id, step.password);
      return;
    default:
      return;
  }
}

/** Steps that write nothing (no sign-in attempt, no token state): a case of only these needs no reset after it. */
const READ_ONLY: ReadonlySet<Step['op']> = new Set(['list', 'roles', 'departments']);

/**
 * One case: both twins back to the baseline, then every step on both twins (in parallel: they are
 * separate databases), each pair of outcomes compared, the rows compared after each step.
 */
export async function runCase(twins: Twins, steps: readonly Step[], tally: Tally, capability: string): Promise<void> {
  await twins.reset();
  if (steps.some((step) => !READ_ONLY.has(step.op))) {
    twins.rest.dirty = true;
    twins.graphql.dirty = true;
  }
  clearSessions(twins.rest);
  clearSessions(twins.graphql);
  const model = new Model(twins);
  for (const user of Object.values(twins.fixture.users)) model.passwords.set(user.id, user.password);
  for (const [index, step] of steps.entries()) {
    const [r, g] = await Promise.all([runStep(step, twins.rest, model), runStep(step, twins.graphql, model)]);
    const names = [...new Set([...Object.keys(r), ...Object.keys(g)])];
    for (const name of names) {
      const ro = r[name];
      const go = g[name];
      if (!ro || !go) throw new Error(`step ${index} ${JSON.stringify(step)}: "${name}" answered on one twin only`);
      const verdict = agree(ro, go);
      if ('mismatch' in verdict)
        throw new Error(`step ${index} ${JSON.stringify(step)} → ${name}: ${verdict.mismatch}`);
      tally.step(capability, `${name}:${verdict.kind}`);
      // The fields a refusal named, as both twins named them (a `requires` may ask for one).
      if (!ro.ok && ro.fields)
        for (const field of ro.fields) tally.detail(capability, `${name}:${verdict.kind}@${field}`);
    }
    applyEffects(step, r, model);
    try {
      await twins.compare(model.passwords);
    } catch (error) {
      throw new Error(`after step ${index} ${JSON.stringify(step)}: ${(error as Error).message}`, { cause: error });
    }
  }
  tally.case(capability);
}
