import { assertEvent, assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { AuditTargetType } from '../../domain/audit';
import type { components } from '../../generated/openapi';

/** An actor or target as the audit log names it (contracts/openapi.yaml `auditNames`). */
export type AuditName = components['schemas']['AuditNames']['data'][number];

/** Keystrokes are searched after this pause (as the support desk's search: support-search.machine.ts). */
export const AUDIT_NAMES_DEBOUNCE_MS = 250;
/** The most names one search answers. */
export const AUDIT_NAMES_LIMIT = 20;

export interface AuditNamesInput {
  rest: RestClient;
  /** Who acted, or the targets of one kind. */
  of: 'actor' | 'target';
  targetType?: AuditTargetType | null;
  /** The id the filter holds (from the address): its name is read once, for the field to show. */
  selectedId?: number | null;
  debounceMs?: number;
}

export interface AuditNamesContext {
  rest: RestClient;
  of: 'actor' | 'target';
  targetType: AuditTargetType | null;
  debounceMs: number;
  /** What the field holds. */
  text: string;
  /** The last answer's names (kept while the next search runs). */
  results: AuditName[];
  /** Every name read so far, by id: the chosen one's label survives a later search. */
  known: Record<number, AuditName>;
  /** The last search failed (the list says so; typing again retries). */
  failed: boolean;
  /** A search answered (or failed) once: resolving a name later does not search again. */
  searched: boolean;
  /** The id whose name is being read. */
  pending: number | null;
}

export type AuditNamesEvent = { type: 'names.type'; text: string } | { type: 'names.resolve'; id: number };

const searchNames = fromPromise<
  AuditName[],
  { rest: RestClient; of: 'actor' | 'target'; targetType: AuditTargetType | null; q?: string; id?: number }
>(async ({ input, signal }) => {
  const answer = unwrap(
    await input.rest.GET('/api/audit/names', {
      params: {
        query: {
          of: input.of,
          ...(input.targetType ? { targetType: input.targetType } : {}),
          ...(input.q ? { q: input.q } : {}),
          ...(input.id !== undefined ? { id: input.id } : {}),
          limit: AUDIT_NAMES_LIMIT,
        },
      },
      signal,
    }),
  );
  return answer.data;
});

const remember = (known: Record<number, AuditName>, names: readonly AuditName[]) =>
  names.reduce((all, name) => ({ ...all, [name.id]: name }), known);

/**
 * The audit screen's "Usuário" / "Alvo" picker (docs/panel.md, Audit log): names searched on the server
 * (`GET /api/audit/names`) among the records the caller may read, as one types, after a pause; a
 * keystroke during a search stops it (the request is aborted), so an older answer never replaces a newer
 * one. The id read from the address is resolved to its name first (`resolving`).
 *
 * States: `resolving`, `idle`, `debouncing`, `searching` (tag `loading` on the last two).
 */
export const auditNamesMachine = setup({
  types: {
    input: {} as AuditNamesInput,
    context: {} as AuditNamesContext,
    events: {} as AuditNamesEvent,
  },
  actors: { searchNames },
  delays: { namesDebounce: ({ context }) => context.debounceMs },
  guards: {
    hasSelected: ({ context }) => context.pending !== null,
    searched: ({ context }) => context.searched,
    unknown: ({ context, event }) => {
      assertEvent(event, 'names.resolve');
      return context.known[event.id] === undefined;
    },
  },
  actions: {
    type: assign(({ event }) => {
      assertEvent(event, 'names.type');
      return { text: event.text };
    }),
    ask: assign(({ event }) => {
      assertEvent(event, 'names.resolve');
      return { pending: event.id };
    }),
    showResults: assign(({ context }, names: AuditName[]) => ({
      results: names,
      known: remember(context.known, names),
      failed: false,
      searched: true,
    })),
    rememberNames: assign(({ context }, names: AuditName[]) => ({
      known: remember(context.known, names),
      pending: null,
    })),
    searchFailed: assign({ failed: true, searched: true }),
    forget: assign({ pending: null }),
  },
}).createMachine({
  id: 'auditNames',
  context: ({ input }) => ({
    rest: input.rest,
    of: input.of,
    targetType: input.targetType ?? null,
    debounceMs: input.debounceMs ?? AUDIT_NAMES_DEBOUNCE_MS,
    text: '',
    results: [],
    known: {},
    failed: false,
    searched: false,
    pending: input.selectedId ?? null,
  }),
  initial: 'start',
  on: {
    // Each keystroke restarts the pause (and stops a search under way).
    'names.type': { target: '.debouncing', actions: 'type' },
  },
  states: {
    start: {
      always: [{ guard: 'hasSelected', target: 'resolving' }, { target: 'searching' }],
    },
    // The chosen id's name (an address, a record's "only this user"); then the first names, once.
    resolving: {
      invoke: {
        id: 'resolveName',
        src: 'searchNames',
        input: ({ context }) => ({
          rest: context.rest,
          of: context.of,
          targetType: context.targetType,
          id: context.pending ?? undefined,
        }),
        onDone: [
          {
            guard: 'searched',
            target: 'idle',
            actions: { type: 'rememberNames', params: ({ event }) => event.output },
          },
          { target: 'searching', actions: { type: 'rememberNames', params: ({ event }) => event.output } },
        ],
        // The field shows the id instead; the list still searches.
        onError: [
          { guard: 'searched', target: 'idle', actions: 'forget' },
          { target: 'searching', actions: 'forget' },
        ],
      },
    },
    idle: {
      on: { 'names.resolve': { guard: 'unknown', target: 'resolving', actions: 'ask' } },
    },
    debouncing: {
      tags: ['loading'],
      after: { namesDebounce: 'searching' },
    },
    searching: {
      tags: ['loading'],
      invoke: {
        id: 'searchNames',
        src: 'searchNames',
        input: ({ context }) => ({
          rest: context.rest,
          of: context.of,
          targetType: context.targetType,
          q: context.text,
        }),
        onDone: { target: 'idle', actions: { type: 'showResults', params: ({ event }) => event.output } },
        onError: { target: 'idle', actions: 'searchFailed' },
      },
    },
  },
});

export type AuditNamesActor = ActorRefFrom<typeof auditNamesMachine>;
export type AuditNamesSnapshot = SnapshotFrom<typeof auditNamesMachine>;
