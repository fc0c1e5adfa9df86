// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { assign, createActor, emit, setup } from 'xstate';
import { useAddressSync } from './use-address-sync';

/** A list machine's address part: `list.set` changes and emits its query, `list.location` is recorded. */
const listMachine = setup({
  types: {
    context: {} as { seen: string[] },
    events: {} as { type: 'list.set'; search: string } | { type: 'list.location'; search: string },
    emitted: {} as { type: 'list.queryChanged'; search: string },
  },
}).createMachine({
  context: { seen: [] },
  on: {
    'list.set': { actions: emit(({ event }) => ({ type: 'list.queryChanged' as const, search: event.search })) },
    'list.location': { actions: assign({ seen: ({ context, event }) => [...context.seen, event.search] }) },
  },
});

/** Keeps `panel=` beside the list's query, as the tenants screen does. */
const keepPanel = (current: string, fromMachine: string) => {
  const panel = new URLSearchParams(current).get('panel');
  return [fromMachine, panel ? `panel=${panel}` : ''].filter(Boolean).join('&');
};

function started(path: string, merge?: (current: string, fromMachine: string) => string) {
  const memory = memoryLocation({ path, record: true });
  const actor = createActor(listMachine).start();
  const wrapper = ({ children }: { children: ReactNode }) => <Router hook={memory.hook}>{children}</Router>;
  const hook = renderHook(
    () =>
      useAddressSync(actor, { emitted: 'list.queryChanged', location: 'list.location', ...(merge ? { merge } : {}) }),
    { wrapper },
  );
  return { memory, actor, hook, seen: () => actor.getSnapshot().context.seen };
}

describe('useAddressSync', () => {
  it('tells the machine the address when it opens and whenever it changes from outside', () => {
    const { memory, seen } = started('/users?q=ana');
    expect(seen()).toEqual(['q=ana']);
    act(() => memory.navigate('/users?q=bia'));
    expect(seen()).toEqual(['q=ana', 'q=bia']);
  });

  it("writes the machine's query with replace, the bare path for an empty one, and passes the write back", () => {
    const { memory, actor, seen } = started('/users?q=ana');
    act(() => actor.send({ type: 'list.set', search: 'q=ana&sort=email' }));
    expect(memory.history).toEqual(['/users?q=ana&sort=email']);
    act(() => actor.send({ type: 'list.set', search: '' }));
    expect(memory.history).toEqual(['/users']);
    // The machine hears its own writes come back and ignores them itself.
    expect(seen()).toEqual(['q=ana', 'q=ana&sort=email', '']);
    act(() => actor.send({ type: 'list.set', search: '' }));
    expect(memory.history).toEqual(['/users']);
    expect(seen()).toHaveLength(3);
  });

  it('merges into the address and lets the screen write its own part; two writes in a row each see the one before', () => {
    const { memory, actor, hook } = started('/tenants?page=2&panel=features', keepPanel);
    act(() => actor.send({ type: 'list.set', search: 'page=3' }));
    expect(memory.history.at(-1)).toBe('/tenants?page=3&panel=features');
    act(() => {
      hook.result.current((current) => `${current}&tenant=farmacia`);
      actor.send({ type: 'list.set', search: 'page=4' });
    });
    expect(memory.history.at(-1)).toBe('/tenants?page=4&panel=features');
    act(() => {
      actor.send({ type: 'list.set', search: 'page=5' });
      hook.result.current((current) => `${current}&tenant=farmacia`);
    });
    expect(memory.history.at(-1)).toBe('/tenants?page=5&panel=features&tenant=farmacia');
  });
});
