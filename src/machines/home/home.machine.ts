import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import { AttentionDocument, type AttentionQuery } from '../../generated/graphql';
import { actionError, type ActionError } from '../shared/request-error';

/** What needs attention now (contracts/schema.graphql `Attention`): a kind the caller may not see is null. */
export type Attention = AttentionQuery['attention'];
export type AttentionKindName = keyof Attention;
export type AttentionKind = NonNullable<Attention[AttentionKindName]>;
export type AttentionItem = AttentionKind['items'][number];

/** The kinds in the order the home shows them. */
export const ATTENTION_KINDS: readonly AttentionKindName[] = [
  'tenantsOverUserLimit',
  'failedSyncs',
  'disconnectedConnections',
  'lockedAccounts',
];

export interface HomeInput {
  execute: Execute;
}

export interface HomeContext {
  execute: Execute;
  attention: Attention | null;
  error: ActionError | null;
}

export type HomeEvent = { type: 'home.retry' } | { type: 'home.refresh' };

/** Whether nothing the caller may see needs attention (every kind it sees is empty). */
export function nothingNeedsAttention(attention: Attention): boolean {
  return ATTENTION_KINDS.every((kind) => (attention[kind]?.total ?? 0) === 0);
}

export const loadAttention = fromPromise<Attention, { execute: Execute }>(async ({ input, signal }) => {
  const { attention } = await input.execute(AttentionDocument, {}, { signal });
  return attention;
});

/**
 * The home's list of what needs attention (docs/panel.md, Home; contract extension `attention`). Loads
 * once on start; `home.refresh` (the page shown again) and `home.retry` (after a failure) load again,
 * aborting a load in flight. A refresh keeps the last answer on screen while it loads; a failure keeps
 * it too, with the error beside it.
 *
 * States: `loading` (tag `loading`) → `ready` | `failed`.
 */
export const homeMachine = setup({
  types: { input: {} as HomeInput, context: {} as HomeContext, events: {} as HomeEvent },
  actors: { loadAttention },
  actions: {
    store: assign((_, attention: Attention) => ({ attention, error: null })),
    fail: assign((_, params: { error: unknown }) => ({ error: actionError('home.attention.error', params.error) })),
  },
}).createMachine({
  id: 'home',
  context: ({ input }) => ({ execute: input.execute, attention: null, error: null }),
  initial: 'loading',
  on: { 'home.refresh': { target: '.loading', reenter: true } },
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadAttention',
        input: ({ context }) => ({ execute: context.execute }),
        onDone: { target: 'ready', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    ready: {},
    failed: { on: { 'home.retry': 'loading' } },
  },
});

export type HomeActor = ActorRefFrom<typeof homeMachine>;
export type HomeSnapshot = SnapshotFrom<typeof homeMachine>;
