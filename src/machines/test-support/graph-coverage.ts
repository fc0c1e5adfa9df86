/**
 * Model-based coverage for XState machines (issue #4, point 8).
 *
 * {@link exploreCoverage} asks `@xstate/graph` for paths through a machine (shortest paths, simple
 * paths, and one path per edge of the adjacency map, so self-loops and edges back to visited states
 * are walked too), then replays every path on a REAL actor of the same machine and records, through
 * XState's inspection API, which state nodes were entered and which transition definitions were
 * taken. {@link assertFullCoverage} then fails listing every state node and transition never reached,
 * every step where the real actor did not land where the graph predicted, and every error thrown.
 *
 * ## How async actors are resolved deterministically
 *
 * The graph is built from pure `machine.transition` calls, so it never runs actors. Completions of
 * invoked actors are ordinary events of the explored event list:
 *
 * ```ts
 * events: [
 *   { type: 'session.login', email: 'a@b.c', password: 'x' },
 *   doneEvent('login', { access_token: 't', ... }),   // xstate.done.actor.login
 *   errorEvent('login', new Error('401')),            // xstate.error.actor.login
 * ]
 * ```
 *
 * When the real actor is driven, such an event is sent to it as is, which is exactly what the
 * invoked child would have sent. For that to be deterministic the machine must be `provide()`d with
 * actors that never complete on their own: {@link heldPromise} (a `fromPromise` that never settles)
 * and {@link idleCallback} (a `fromCallback` that sends nothing). Anything the callback actor would
 * report (a socket `open`, a `storage` event) is likewise an event in the list.
 *
 * Delayed transitions (`after`) need nothing: the walk offers their `xstate.after.<delay>.<state id>`
 * events by itself. Every driven actor runs on its own `SimulatedClock` that is never advanced
 * unless a custom driver does it, so real timers never fire behind the walk's back.
 *
 * In each state only the listed events that enable a transition (one whose guard passes, even a
 * targetless one without actions) are explored; an event type missing from the list is never invented, so its
 * transitions show up as missing in the report. (Unlike `@xstate/graph`'s own default, a listed
 * event is never offered to a state that ignores it: an unhandled `xstate.error.actor.*` would put
 * the actor in error.)
 *
 * To drive an event differently (resolve a fake client's deferred, make a fake WebSocket fire
 * `open`, advance the clock), give a driver for its type in `drive`; it receives the actor, its clock
 * and the path's input, and may be async ({@link DriveContext.settle} flushes pending promises).
 *
 * The graph's state key is the state value plus `serializeContext(context)` (default: nothing).
 * Project exactly the context a guard depends on (a counter, a flag), or guarded branches behind
 * it stay unexplored and show up as missing in the report.
 */
import { getAdjacencyMap, getPathsFromEvents, type AdjacencyMap, getShortestPaths, getSimplePaths, getStateNodes, type StatePath } from '@xstate/graph';
import {
  __unsafe_getAllOwnEventDescriptors as ownEventTypes,
  createActor,
  createEmptyActor,
  fromCallback,
  fromPromise,
  isMachineSnapshot,
  SimulatedClock,
  type Actor,
  type AnyActorScope,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type CallbackActorLogic,
  type ContextFrom,
  type EventFromLogic,
  type EventObject,
  type InputFrom,
  type NonReducibleUnknown,
  type PromiseActorLogic,
  type SnapshotFrom,
} from 'xstate';

/** An invoked actor's completion, delivered as an event by the walk. */
export type ActorDoneEvent = { type: `xstate.done.actor.${string}`; output?: unknown };
/** An invoked actor's failure, delivered as an event by the walk. */
export type ActorErrorEvent = { type: `xstate.error.actor.${string}`; error: unknown };
/** A delayed transition's event (normally offered by the graph itself). */
export type AfterEvent = { type: `xstate.after.${string}` };

/** Anything the walk may send: the machine's own events plus actor completions and timers. */
export type GraphEvent<TMachine extends AnyStateMachine> = EventFromLogic<TMachine> | ActorDoneEvent | ActorErrorEvent | AfterEvent;

/** A region of the graph where simple paths are enumerated; see {@link CoverageOptions.simpleScenarios}. */
export interface SimpleScenario<TMachine extends AnyStateMachine> {
  /** Events sent from the initial state to reach the scenario's start (each must be enabled in turn). */
  prefix?: readonly GraphEvent<TMachine>[];
  /** Events explored from there (filtered per state like the main list). */
  events: readonly GraphEvent<TMachine>[];
}

/** Which path families to walk. */
export type PathStrategy = 'shortest' | 'simple' | 'transitions';

/** Handed to custom drivers, once per path. */
export interface DriveContext<TMachine extends AnyStateMachine> {
  actor: Actor<TMachine>;
  clock: SimulatedClock;
  input: InputFrom<TMachine> | undefined;
  /** Resolves after every pending promise reaction has run (one macrotask). */
  settle: () => Promise<void>;
}

/** Sends one graph event to the real actor in a custom way. */
export type Driver<TMachine extends AnyStateMachine> = (context: DriveContext<TMachine>, event: GraphEvent<TMachine>) => void | Promise<void>;

export interface CoverageOptions<TMachine extends AnyStateMachine> {
  /** The machine, already `.provide()`d with fakes that do not complete on their own. */
  machine: TMachine;
  /** Builds the input; called once for the graph and once per driven path (fresh fakes each time). */
  input?: () => InputFrom<TMachine>;
  /** Events the graph explores: a list, or a function of the current snapshot. */
  events: readonly GraphEvent<TMachine>[] | ((snapshot: SnapshotFrom<TMachine>) => readonly GraphEvent<TMachine>[]);
  /** Context projected into the graph's state key (default: none, the state value alone). */
  serializeContext?: (context: ContextFrom<TMachine>) => unknown;
  /** Path families to walk; default all three. */
  strategies?: readonly PathStrategy[];
  /**
   * Where simple paths are enumerated. Simple paths grow exponentially with the graph's density
   * (`@xstate/graph` enumerates all of them before returning), so a large machine splits them into
   * focused scenarios: each starts where its `prefix` leads (from the initial state) and explores
   * only its own `events`. Default: one scenario over the whole `events` list.
   */
  simpleScenarios?: readonly SimpleScenario<TMachine>[];
  /**
   * Work allowed per simple-path scenario (path prefixes × states), checked BEFORE enumerating, so
   * an over-dense scenario fails fast with advice instead of hanging. Default 200 000.
   */
  simplePathBudget?: number;
  /** Graph traversal limit (states expanded); default 20 000. */
  limit?: number;
  /** Custom drivers by event type; default is `actor.send(event)`. */
  drive?: Partial<Record<string, Driver<TMachine>>>;
  /** Runs after every step on the real actor, e.g. to assert an invariant; a throw is reported. */
  onStep?: (context: DriveContext<TMachine>, event: GraphEvent<TMachine>) => void | Promise<void>;
}

/** What one exploration reached. All names are readable (`session.loggingIn`, `a --ev[0]--> b`). */
export interface CoverageReport {
  paths: number;
  steps: number;
  states: { total: number; reached: string[]; missing: string[] };
  transitions: { total: number; reached: string[]; missing: string[] };
  /** Steps where the real actor's state value differed from the graph's prediction. */
  divergences: string[];
  /** Errors thrown while driving (actions, drivers, `onStep`). */
  errors: string[];
}

/** `xstate.done.actor.<id>` with an output, for the `events` list. */
export function doneEvent(actorId: string, output?: unknown): ActorDoneEvent {
  return { type: `xstate.done.actor.${actorId}`, output };
}

/** `xstate.error.actor.<id>` with an error, for the `events` list. */
export function errorEvent(actorId: string, error: unknown): ActorErrorEvent {
  return { type: `xstate.error.actor.${actorId}`, error };
}

/** A `fromPromise` stand-in that never settles: its completion comes from the walk's events. */
export function heldPromise<TOutput, TInput = NonReducibleUnknown>(): PromiseActorLogic<TOutput, TInput> {
  return fromPromise<TOutput, TInput>(() => new Promise<TOutput>(() => undefined));
}

/** A `fromCallback` stand-in that sends nothing: whatever it would report comes from the walk's events. */
export function idleCallback<TEvent extends EventObject = EventObject, TInput = NonReducibleUnknown>(): CallbackActorLogic<TEvent, TInput> {
  return fromCallback<TEvent, TInput>(() => undefined);
}

function guardName(transition: AnyTransitionDefinition): string {
  const guard: unknown = transition.guard;
  if (guard === undefined) return '';
  if (typeof guard === 'string') return ` if ${guard}`;
  if (guard && typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') return ` if ${guard.type}`;
  return ' if <inline guard>';
}

/** Every transition definition of the machine, keyed by a readable, stable name. */
function transitionCatalogue(machine: AnyStateMachine): Map<AnyTransitionDefinition, string> {
  const names = new Map<AnyTransitionDefinition, string>();
  const nodes: AnyStateNode[] = [machine.root, ...getStateNodes(machine.root)];
  for (const node of nodes) {
    const groups: [string, readonly AnyTransitionDefinition[]][] = [...node.transitions.entries()];
    if (node.always) groups.push(['(always)', node.always]);
    for (const [eventType, list] of groups) {
      list.forEach((transition, index) => {
        const targets = transition.target?.map((t) => t.id).join(', ') ?? '(self, no target)';
        names.set(transition, `${node.id} --${eventType}[${index}]${guardName(transition)}--> ${targets}`);
      });
    }
  }
  return names;
}

/** Drops paths whose event sequence is a prefix of a longer one. */
function dedupe<T extends { steps: { event: EventObject }[] }>(paths: T[]): T[] {
  const keyed = paths
    .map((path) => ({ path, keys: path.steps.map((s) => JSON.stringify(s.event)) }))
    .sort((a, b) => b.keys.length - a.keys.length);
  const kept: typeof keyed = [];
  for (const candidate of keyed) {
    const covered = kept.some((longer) => candidate.keys.every((key, i) => longer.keys[i] === key));
    if (!covered) kept.push(candidate);
  }
  return kept.map((k) => k.path);
}

/**
 * `getSimplePaths` walks every simple path prefix once per state of the graph. Counts the prefixes
 * (bounded) and throws when that work would exceed the budget.
 */
function checkSimplePathBudget(
  adjacency: AdjacencyMap<AnyMachineSnapshot, AnyEventObject>,
  serialize: (snapshot: AnyMachineSnapshot) => string,
  start: string,
  budget: number,
): void {
  const entries = Object.entries(adjacency);
  const successors = new Map(
    entries.map(([key, { transitions }]) => [key, Object.values<{ state: AnyMachineSnapshot }>(transitions).map(({ state }) => serialize(state))]),
  );
  const limit = Math.max(1, Math.floor(budget / Math.max(1, entries.length)));
  let prefixes = 0;
  const onPath = new Set<string>();
  const visit = (key: string): void => {
    prefixes += 1;
    if (prefixes > limit) {
      throw new Error(`simple paths over ${entries.length} graph states need more than ${budget} steps: split them with \`simpleScenarios\` (a prefix and a few events each)`);
    }
    onPath.add(key);
    for (const successor of successors.get(key) ?? []) if (!onPath.has(successor)) visit(successor);
    onPath.delete(key);
  };
  visit(start);
}

/** An actor scope that executes nothing, as @xstate/graph uses for its pure transitions. */
function graphScope(): AnyActorScope {
  const self = createEmptyActor();
  return {
    self,
    id: '',
    sessionId: 'graph',
    logger: () => undefined,
    defer: () => undefined,
    emit: () => undefined,
    system: self.system,
    stopChild: () => undefined,
    actionExecutor: () => undefined,
  };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Builds the graph of `options.machine`, walks the chosen path families on real actors and reports
 * which state nodes and transitions were reached. Use with {@link assertFullCoverage}.
 *
 * @example
 * ```ts
 * const report = await exploreCoverage({
 *   machine: sessionMachine.provide({ actors: { login: heldPromise(), lookupIp: heldPromise() } }),
 *   input: () => ({ storage: fakeStorage() }),
 *   events: [{ type: 'session.login', email, password }, doneEvent('login', answer), errorEvent('login', err)],
 * });
 * assertFullCoverage(report);
 * ```
 */
export async function exploreCoverage<TMachine extends AnyStateMachine>(options: CoverageOptions<TMachine>): Promise<CoverageReport> {
  // The graph and the driver work on the untyped machine; user callbacks get their typed views back.
  const machine: AnyStateMachine = options.machine;
  const { strategies = ['shortest', 'simple', 'transitions'] } = options;
  const project = (options.serializeContext ?? (() => undefined)) as (context: unknown) => unknown;
  const serializeState = (snapshot: AnyMachineSnapshot) => JSON.stringify([snapshot.value, snapshot.status, project(snapshot.context)]);
  const listed = options.events as readonly AnyEventObject[] | ((snapshot: AnyMachineSnapshot) => readonly AnyEventObject[]);
  const offered = (list: typeof listed) => (snapshot: AnyMachineSnapshot): AnyEventObject[] => {
    if (snapshot.status !== 'active') return [];
    const candidates = typeof list === 'function' ? list(snapshot) : list;
    const timers = ownEventTypes(snapshot)
      .filter((type) => type.startsWith('xstate.after.'))
      .map((type): AnyEventObject => ({ type }));
    // Enabled = some transition's guard passes, even a targetless one without actions (an explicit "ignore").
    return [...candidates, ...timers].filter((event) => machine.getTransitionData(snapshot, event).length > 0);
  };
  const graphInput = options.input?.();
  // Passed explicitly: some @xstate/graph helpers would otherwise build the initial state without input.
  const fromState: AnyMachineSnapshot = machine.getInitialSnapshot(graphScope(), graphInput);
  const traversal = { input: graphInput, fromState, events: offered(listed), serializeState, limit: options.limit ?? 20_000 };

  type Path = StatePath<AnyMachineSnapshot, AnyEventObject>;
  const paths: Path[] = [];
  if (strategies.includes('shortest') || strategies.includes('transitions')) {
    const shortest: Path[] = getShortestPaths(machine, traversal);
    if (strategies.includes('shortest')) paths.push(...shortest);
    if (strategies.includes('transitions')) {
      // One path per edge: the shortest way to its source, then the edge itself.
      const toState = new Map(shortest.map((p) => [serializeState(p.state), p]));
      const adjacency: AdjacencyMap<AnyMachineSnapshot, AnyEventObject> = getAdjacencyMap(machine, traversal);
      for (const [key, { transitions }] of Object.entries(adjacency)) {
        const head = toState.get(key);
        if (!head) continue;
        for (const { event, state } of Object.values<{ event: AnyEventObject; state: AnyMachineSnapshot }>(transitions)) {
          paths.push({ state, weight: head.weight + 1, steps: [...head.steps, { state, event }] });
        }
      }
    }
  }
  if (strategies.includes('simple')) {
    for (const scenario of options.simpleScenarios ?? [{ events: options.events as readonly GraphEvent<TMachine>[] }]) {
      const prefix = (scenario.prefix ?? []) as readonly AnyEventObject[];
      const [head] = getPathsFromEvents(machine, [...prefix], { ...traversal, events: offered(prefix) });
      if (!head) throw new Error(`simple scenario prefix ${prefix.map((e) => e.type).join(' → ')} leads nowhere`);
      const scenarioTraversal = { ...traversal, events: offered(scenario.events as readonly AnyEventObject[]), fromState: head.state };
      checkSimplePathBudget(getAdjacencyMap(machine, scenarioTraversal), serializeState, serializeState(head.state), options.simplePathBudget ?? 200_000);
      const tails: Path[] = getSimplePaths(machine, scenarioTraversal);
      for (const tail of tails) paths.push({ state: tail.state, weight: head.weight + tail.weight, steps: [...head.steps, ...tail.steps.slice(1)] });
    }
  }

  const catalogue = transitionCatalogue(machine);
  const allStates = getStateNodes(machine.root).map((n) => n.id);
  const reachedStates = new Set<string>();
  const reachedTransitions = new Set<string>();
  const divergences: string[] = [];
  const errors: string[] = [];
  const walked = dedupe(paths);
  let steps = 0;

  const markNodes = (snapshot: AnyMachineSnapshot) => {
    for (const node of snapshot._nodes) reachedStates.add(node.id);
  };

  for (const path of walked) {
    const clock = new SimulatedClock();
    const input = options.input?.();
    const actor = createActor(machine, {
      clock,
      ...(input === undefined ? {} : { input }),
      inspect: (inspection) => {
        // The root's own microsteps (initial eventless ones run inside createActor, before it returns).
        if (inspection.type !== '@xstate.microstep' || inspection.actorRef.sessionId !== inspection.rootId) return;
        for (const transition of inspection._transitions) {
          const name = catalogue.get(transition);
          if (name) reachedTransitions.add(name);
          reachedStates.add(transition.source.id);
        }
        if (isMachineSnapshot(inspection.snapshot)) markNodes(inspection.snapshot);
      },
    });
    // An actor in error status rethrows asynchronously unless someone listens.
    actor.subscribe({ error: (error) => errors.push(`actor error: ${error instanceof Error ? error.message : String(error)}`) });
    const context = { actor, clock, input, settle } as DriveContext<TMachine>;
    const trail: string[] = [];
    try {
      actor.start();
      markNodes(actor.getSnapshot());
      // Paths come "altered": steps[0] is the initial state (xstate.init) and every later step holds
      // the event that led into its state.
      for (const step of path.steps.slice(1)) {
        const event = step.event;
        trail.push(event.type);
        steps += 1;
        const before = actor.getSnapshot().status;
        if (before !== 'active') throw new Error(`actor is ${before} before ${event.type}`);
        const driver = options.drive?.[event.type];
        if (driver) await driver(context, event as GraphEvent<TMachine>);
        else actor.send(event);
        const real = actor.getSnapshot();
        markNodes(real);
        if (JSON.stringify(real.value) !== JSON.stringify(step.state.value) || real.status !== step.state.status) {
          divergences.push(`after ${trail.join(' → ')}: expected ${JSON.stringify(step.state.value)} (${step.state.status}), got ${JSON.stringify(real.value)} (${real.status})`);
          break;
        }
        await options.onStep?.(context, event as GraphEvent<TMachine>);
      }
    } catch (error) {
      errors.push(`after ${trail.join(' → ') || '(start)'}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      actor.stop();
    }
  }

  const allTransitions = [...catalogue.values()];
  return {
    paths: walked.length,
    steps,
    states: { total: allStates.length, reached: allStates.filter((s) => reachedStates.has(s)), missing: allStates.filter((s) => !reachedStates.has(s)) },
    transitions: {
      total: allTransitions.length,
      reached: allTransitions.filter((t) => reachedTransitions.has(t)),
      missing: allTransitions.filter((t) => !reachedTransitions.has(t)),
    },
    divergences,
    errors,
  };
}

/** One line for a test log: `states 12/12, transitions 30/30, 41 paths, 160 steps`. */
export function formatCoverage(report: CoverageReport): string {
  return `states ${report.states.reached.length}/${report.states.total}, transitions ${report.transitions.reached.length}/${report.transitions.total}, ${report.paths} paths, ${report.steps} steps`;
}

/**
 * Throws (failing the test) unless every state node and every transition was reached, the real
 * actor followed the graph on every step, and nothing threw. The message lists everything missing.
 */
export function assertFullCoverage(report: CoverageReport): void {
  const problems: string[] = [];
  if (report.states.missing.length) problems.push(`states never reached:\n  ${report.states.missing.join('\n  ')}`);
  if (report.transitions.missing.length) problems.push(`transitions never taken:\n  ${report.transitions.missing.join('\n  ')}`);
  if (report.divergences.length) problems.push(`real actor diverged from the graph:\n  ${report.divergences.join('\n  ')}`);
  if (report.errors.length) problems.push(`errors while driving:\n  ${report.errors.join('\n  ')}`);
  if (report.paths === 0) problems.push('no path was walked');
  if (problems.length) throw new Error(`Incomplete model coverage (${formatCoverage(report)})\n${problems.join('\n')}`);
}
