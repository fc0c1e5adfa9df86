import type { AnyStateMachine, InputFrom } from 'xstate';

/**
 * Works around `@xstate/graph`'s `getPathsFromEvents` (used by graph-coverage's simple strategy),
 * which builds its start snapshot with no input: a machine whose context reads its input then starts
 * in error. The returned machine is the same machine, except that an initial snapshot asked for
 * without input uses `input()`. Drop this once graph-coverage passes `fromState` itself.
 */
export function withDefaultInput<TMachine extends AnyStateMachine>(machine: TMachine, input: () => InputFrom<TMachine>): TMachine {
  return new Proxy(machine, {
    get(target, property, receiver) {
      if (property === 'getInitialSnapshot') {
        return (scope: Parameters<TMachine['getInitialSnapshot']>[0], given?: InputFrom<TMachine>) => target.getInitialSnapshot(scope, given ?? input());
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}
