/**
 * The graph side of graph-coverage.ts: builds `@xstate/graph` paths (shortest, simple per scenario,
 * one per edge) over the events each state can take. Kept apart so each file stays readable; tests
 * import everything from graph-coverage.ts.
 */
import {
  getAdjacencyMap,
  getPathsFromEvents,
  getShortestPaths,
  getSimplePaths,
  type AdjacencyMap,
  type StatePath,
} from '@xstate/graph';
import {
  createEmptyActor,
  type AnyActorScope,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type ContextFrom,
  type EventFromLogic,
  type EventObject,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';

/** An invoked actor's completion, delivered as an event by the walk. */
export type ActorDoneEvent = { type: `xstate.done.actor.${string}`; output?: unknown };
/** An invoked actor's failure, delivered as an event by the walk. */
export type ActorErrorEvent = { type: `xstate.error.actor.${string}`; error: unknown };
/** A delayed transition's event (normally offered by the graph itself). */
export type AfterEvent = { type: `xstate.after.${string}` };

/** Anything the walk may send: the machine's own events plus actor completions and timers. */
export type GraphEvent<TMachine extends AnyStateMachine> =
  EventFromLogic<TMachine> | ActorDoneEvent | ActorErrorEvent | AfterEvent;

/** A region of the graph where simple paths are enumerated; see {@link PathOptions.simpleScenarios}. */
export interface SimpleScenario<TMachine extends AnyStateMachine> {
  /** Events sent from the initial state to reach the scenario's start (each must be enabled in turn). */
  prefix?: readonly GraphEvent<TMachine>[];
  /** Events explored from there (filtered per state like the main list). */
  events: readonly GraphEvent<TMachine>[];
}

/** Which path families to walk. */
export type PathStrategy = 'shortest' | 'simple' | 'transitions';

/** How the graph is built and which path families are taken from it. */
export interface PathOptions<TMachine extends AnyStateMachine> {
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
}

/** A path as the walk replays it: steps[0] is the initial state, each later step holds the event into its state. */
export type WalkPath = StatePath<AnyMachineSnapshot, AnyEventObject>;

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
    entries.map(([key, { transitions }]) => [
      key,
      Object.values<{ state: AnyMachineSnapshot }>(transitions).map(({ state }) => serialize(state)),
    ]),
  );
  const limit = Math.max(1, Math.floor(budget / Math.max(1, entries.length)));
  let prefixes = 0;
  const onPath = new Set<string>();
  const visit = (key: string): void => {
    prefixes += 1;
    if (prefixes > limit) {
      throw new Error(
        `simple paths over ${entries.length} graph states need more than ${budget} steps: split them with \`simpleScenarios\` (a prefix and a few events each)`,
      );
    }
    onPath.add(key);
    for (const successor of successors.get(key) ?? []) if (!onPath.has(successor)) visit(successor);
    onPath.delete(key);
  };
  visit(start);
}

/** Every state node under `node`, itself included, through the public `states` of the chart. */
export function stateNodesOf(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values<AnyStateNode>(node.states).flatMap(stateNodesOf)];
}

/**
 * The events of every delayed transition in the chart (`xstate.after.<delay>.<state id>`), read from
 * each state node's public `after` definitions. The walk offers them to every state; only the state
 * that owns the timer takes one (the enabled-transition filter drops the rest).
 */
export function timerEvents(machine: AnyStateMachine): AnyEventObject[] {
  const types = new Set(stateNodesOf(machine.root).flatMap((node) => node.after.map((t) => t.eventType)));
  return [...types].map((type) => ({ type }));
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

/**
 * The machine as @xstate/graph walks it, each pure transition in a scope of its own. @xstate/graph
 * gives one scope to a whole traversal, and an actor spawned in a transition stays registered in its
 * system under its `systemId`: a state that spawns one (the root app machine's `running`), reached
 * along two paths, would then find the first path's actor in the way.
 */
function withScopePerTransition(machine: AnyStateMachine): AnyStateMachine {
  return new Proxy(machine, {
    get(target, key, receiver) {
      if (key === 'transition')
        return (snapshot: AnyMachineSnapshot, event: AnyEventObject) =>
          target.transition(snapshot, event, graphScope());
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
}

/**
 * The paths of the chosen families, without those whose event sequence is a prefix of another.
 */
export function graphPaths<TMachine extends AnyStateMachine>(options: PathOptions<TMachine>): WalkPath[] {
  // The graph works on the untyped machine; user callbacks get their typed views back.
  const machine = withScopePerTransition(options.machine);
  const { strategies = ['shortest', 'simple', 'transitions'] } = options;
  const project = (options.serializeContext ?? (() => undefined)) as (context: unknown) => unknown;
  const serializeState = (snapshot: AnyMachineSnapshot) =>
    JSON.stringify([snapshot.value, snapshot.status, project(snapshot.context)]);
  const listed = options.events as
    readonly AnyEventObject[] | ((snapshot: AnyMachineSnapshot) => readonly AnyEventObject[]);
  const timers = timerEvents(machine);
  const offered =
    (list: typeof listed) =>
    (snapshot: AnyMachineSnapshot): AnyEventObject[] => {
      if (snapshot.status !== 'active') return [];
      const candidates = typeof list === 'function' ? list(snapshot) : list;
      // Enabled = some transition's guard passes, even a targetless one without actions (an explicit "ignore").
      return [...candidates, ...timers].filter((event) => machine.getTransitionData(snapshot, event).length > 0);
    };
  const graphInput = options.input?.();
  // Passed explicitly: some @xstate/graph helpers would otherwise build the initial state without input.
  const fromState: AnyMachineSnapshot = machine.getInitialSnapshot(graphScope(), graphInput);
  const traversal = {
    input: graphInput,
    fromState,
    events: offered(listed),
    serializeState,
    limit: options.limit ?? 20_000,
  };

  const paths: WalkPath[] = [];
  if (strategies.includes('shortest') || strategies.includes('transitions')) {
    const shortest: WalkPath[] = getShortestPaths(machine, traversal);
    if (strategies.includes('shortest')) paths.push(...shortest);
    if (strategies.includes('transitions')) {
      // One path per edge: the shortest way to its source, then the edge itself.
      const toState = new Map(shortest.map((p) => [serializeState(p.state), p]));
      const adjacency: AdjacencyMap<AnyMachineSnapshot, AnyEventObject> = getAdjacencyMap(machine, traversal);
      for (const [key, { transitions }] of Object.entries(adjacency)) {
        const head = toState.get(key);
        if (!head) continue;
        for (const { event, state } of Object.values<{ event: AnyEventObject; state: AnyMachineSnapshot }>(
          transitions,
        )) {
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
      const scenarioTraversal = {
        ...traversal,
        events: offered(scenario.events as readonly AnyEventObject[]),
        fromState: head.state,
      };
      checkSimplePathBudget(
        getAdjacencyMap(machine, scenarioTraversal),
        serializeState,
        serializeState(head.state),
        options.simplePathBudget ?? 200_000,
      );
      const tails: WalkPath[] = getSimplePaths(machine, scenarioTraversal);
      for (const tail of tails)
        paths.push({
          state: tail.state,
          weight: head.weight + tail.weight,
          steps: [...head.steps, ...tail.steps.slice(1)],
        });
    }
  }

  return dedupe(paths);
}
