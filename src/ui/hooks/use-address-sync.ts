import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { ActorRef, AnyActorRef } from 'xstate';

/** The types of an actor's events (or emitted events) that carry a query string. */
type SearchEventType<E> = E extends { type: infer T extends string; search: string } ? T : never;
type EventsOf<A> = A extends ActorRef<infer _S, infer E, infer _M> ? E : never;
type EmittedOf<A> = A extends ActorRef<infer _S, infer _E, infer M> ? M : never;

export interface AddressSyncOptions<A extends AnyActorRef> {
  /** What the machine emits with the query string it wants in the address (`tenants.queryChanged`). */
  emitted: SearchEventType<EmittedOf<A>>;
  /**
   * What tells the machine the address changed (`tenants.location`), sent whenever it does: the
   * machine compares it with its own query and ignores its own writes coming back.
   */
  location: SearchEventType<EventsOf<A>>;
  /**
   * The address's query string with the machine's part put in, for a screen that keeps more in its
   * address (the tenants' open panel). Module-level, so the subscription is made once. Default: the
   * machine's query string replaces the address's whole.
   */
  merge?: (current: string, fromMachine: string) => string;
}

const replaceWhole = (_current: string, fromMachine: string) => fromMachine;

/**
 * Keeps the address and a machine's query in step, both ways, always with `replace` (paging, sorting
 * and typing do not fill the back button): the machine's emitted query rewrites the address, and
 * the address changed from outside (a link, back/forward, the menu, a starred page) is sent to the
 * machine. Answers a writer for the screen's own parts of the address (given the current query
 * string, the next); two writes before React re-renders each see the one before.
 */
export function useAddressSync<A extends AnyActorRef>(
  actor: A,
  { emitted, location, merge = replaceWhole }: AddressSyncOptions<A>,
): (update: (current: string) => string) => void {
  const search = useSearch();
  const [path, navigate] = useLocation();
  const latest = useRef({ search, path, navigate });
  useEffect(() => {
    latest.current = { search, path, navigate };
  });

  const write = useCallback((update: (current: string) => string) => {
    const { search: current, path: at, navigate: go } = latest.current;
    const next = update(current);
    // Read synchronously by the next write, before React re-renders.
    latest.current = { ...latest.current, search: next };
    if (next !== current) go(next === '' ? at : `${at}?${next}`, { replace: true });
  }, []);

  useEffect(() => {
    const subscription = actor.on(emitted, (event: { search: string }) =>
      write((current) => merge(current, event.search)),
    );
    return () => subscription.unsubscribe();
  }, [actor, emitted, merge, write]);

  useEffect(() => {
    actor.send({ type: location, search });
  }, [actor, location, search]);

  return write;
}
