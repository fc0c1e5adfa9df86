import { useEffect, useRef } from 'react';

/** What {@link useSettled} needs of an actor: snapshots with tags, and a subscription. */
interface TaggedActor<TSnapshot extends { hasTag(tag: string): boolean }> {
  getSnapshot(): TSnapshot;
  subscribe(observer: (snapshot: TSnapshot) => void): { unsubscribe(): void };
}

/**
 * Calls `onSettled(next, previous)` each time the actor leaves a state tagged `tag` (default `busy`): the moment a
 * call's outcome (a notice or an error key) is known, to toast it or close the dialog that asked
 * for it. A subscription, not an effect on selected values, so two equal outcomes in a row both
 * count.
 */
export function useSettled<TSnapshot extends { hasTag(tag: string): boolean }>(
  actor: TaggedActor<TSnapshot>,
  onSettled: (next: TSnapshot, previous: TSnapshot) => void,
  tag = 'busy',
): void {
  const latest = useRef(onSettled);
  useEffect(() => {
    latest.current = onSettled;
  });
  useEffect(() => {
    let previous = actor.getSnapshot();
    const subscription = actor.subscribe((next) => {
      const before = previous;
      previous = next;
      if (before.hasTag(tag) && !next.hasTag(tag)) latest.current(next, before);
    });
    return () => subscription.unsubscribe();
  }, [actor, tag]);
}
