import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import { failed, succeeded, type Message, type Outcome } from '../shared/outcome';
import type { SupportPerson } from './support-actors';
import { supportRefusalKey } from './support-refusal';

/** The person an action is about, as its toast names them. */
export interface ActionSubject {
  id: number;
  name: string;
  email: string;
}

/** What one desk action is: how it calls the server, when it asks first, and what it says. */
export interface SupportActionConfig<P, A> {
  /** The machine's id (also the outcome's `action`), e.g. `supportLiftThrottle`. */
  id: string;
  /** The call; `signal` aborts it when the page goes away. */
  run: (rest: RestClient, userId: number, params: P, signal: AbortSignal) => Promise<A>;
  /**
   * Whether the action opens its dialog first (a confirmation for a destructive action, or a form):
   * always, for some params, or (absent) never. The machine has only the states and transitions its
   * config can reach, so model coverage of each instance is complete.
   */
  confirm?: 'always' | ((params: P) => boolean);
  /** Why these params cannot be sent yet (a weak password), or null. Default: always sendable. */
  validate?: (params: P) => I18nKey | null;
  /** The success toast's title. */
  success: (params: P, answer: A) => Message;
  /** The failure's title: what did not happen. */
  failure: (params: P) => I18nKey;
  /** The key of a 404 when the action names more than the person (an ended session). */
  notFound?: I18nKey;
  /** The person as the answer tells it (the page takes it as is), or null when the page must ask again. */
  person: (answer: A) => SupportPerson | null;
}

export interface SupportActionInput {
  rest: RestClient;
}

export interface SupportActionContext<P> {
  rest: RestClient;
  subject: ActionSubject | null;
  params: P | null;
  /** These params opened the dialog (it stays open while they run, and shows their refusal). */
  asked: boolean;
  /** The server's refusal, shown in the dialog that asked. */
  refusal: I18nKey | null;
  /** Why the params cannot be sent, once the user tried (a form shows it then, not while typing). */
  problem: I18nKey | null;
}

export type SupportActionEvent<P> =
  | { type: 'action.start'; subject: ActionSubject; params: P }
  | { type: 'action.edit'; params: P }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' };

/** What the page listens for besides the toast: the person's new state, or that it must ask again. */
export type SupportActionEmitted =
  Outcome | { type: 'support.answered'; person: SupportPerson } | { type: 'support.stale' };

/**
 * One desk action (docs/support-desk.md, REST operations) as a machine; every action is an instance
 * with its own config (support-actions.ts). `idle` → `action.start` → `dialog` when the params ask
 * for a confirmation (or a form: the temporary password), else straight to `running` (tag `busy`);
 * an action that never asks has no `dialog` state at all.
 * In `dialog`, `action.confirm` sends when the params are valid (else shows why), `action.cancel`
 * closes. A success emits the success `outcome` and the person (`support.answered`) or
 * `support.stale`; a refusal stays in the dialog that asked with the reason (`refusal`), or, with no
 * dialog, is a failure toast.
 */
export function createSupportActionMachine<P, A>(config: SupportActionConfig<P, A>) {
  const { confirm, validate } = config;
  const needsConfirm = (params: P | null) =>
    params !== null && confirm !== undefined && (confirm === 'always' || confirm(params));
  const problemOf = (params: P | null) => (params === null ? null : (config.validate?.(params) ?? null));
  return setup({
    types: {
      input: {} as SupportActionInput,
      context: {} as SupportActionContext<P>,
      events: {} as SupportActionEvent<P>,
      emitted: {} as SupportActionEmitted,
    },
    actors: {
      run: fromPromise<A, { rest: RestClient; userId: number; params: P }>(({ input, signal }) =>
        config.run(input.rest, input.userId, input.params, signal),
      ),
    },
    guards: {
      asksFirst: ({ event }) => {
        assertEvent(event, 'action.start');
        return needsConfirm(event.params);
      },
      sendable: ({ context }) => problemOf(context.params) === null,
      asked: ({ context }) => context.asked,
    },
    actions: {
      start: assign(({ event }) => {
        assertEvent(event, 'action.start');
        return {
          subject: event.subject,
          params: event.params,
          asked: needsConfirm(event.params),
          refusal: null,
          problem: null,
        };
      }),
      edit: assign(({ context, event }) => {
        assertEvent(event, 'action.edit');
        // A shown problem follows the edit (it goes away once fixed); none is shown before a try.
        return {
          params: event.params,
          refusal: null,
          problem: context.problem === null ? null : problemOf(event.params),
        };
      }),
      showProblem: assign(({ context }) => ({ problem: problemOf(context.params) })),
      close: assign({ params: null, asked: false, refusal: null, problem: null }),
      refused: assign((_, { error }: { error: unknown }) => ({ refusal: supportRefusalKey(error, config.notFound) })),
      // The answer comes typed `unknown` through the params (xstate's inference stops at a generic A).
      announceSuccess: emit(({ context }, { answer }: { answer: unknown }) =>
        succeeded(config.id, config.success(context.params as P, answer as A), context.subject?.name),
      ),
      announcePerson: emit((_, { answer }: { answer: unknown }): SupportActionEmitted => {
        const person = config.person(answer as A);
        return person === null ? { type: 'support.stale' } : { type: 'support.answered', person };
      }),
      // The dialog shows the refusal itself: the outcome carries no toast then.
      announceRefusalInDialog: emit(() => failed(config.id, null)),
      announceRefusal: emit(({ context }, { error }: { error: unknown }) =>
        failed(config.id, {
          variant: 'error',
          title: { key: config.failure(context.params as P) },
          description: { key: supportRefusalKey(error, config.notFound) },
        }),
      ),
    },
  }).createMachine({
    id: config.id,
    context: ({ input }) => ({
      rest: input.rest,
      subject: null,
      params: null,
      asked: false,
      refusal: null,
      problem: null,
    }),
    initial: 'idle',
    states: {
      idle: {
        on: {
          'action.start':
            confirm === undefined
              ? { target: 'running', actions: 'start' }
              : confirm === 'always'
                ? { target: 'dialog', actions: 'start' }
                : [
                    { guard: 'asksFirst', target: 'dialog', actions: 'start' },
                    { target: 'running', actions: 'start' },
                  ],
        },
      },
      ...(confirm === undefined
        ? {}
        : {
            dialog: {
              on: {
                // Only a form (an action with `validate`) has anything to edit.
                ...(validate === undefined ? {} : { 'action.edit': { actions: 'edit' as const } }),
                'action.confirm':
                  validate === undefined
                    ? { target: 'running' }
                    : [{ guard: 'sendable', target: 'running' }, { actions: 'showProblem' }],
                'action.cancel': { target: 'idle', actions: 'close' },
              },
            },
          }),
      running: {
        tags: ['busy'],
        invoke: {
          id: 'run',
          src: 'run',
          input: ({ context }) => ({
            rest: context.rest,
            userId: context.subject?.id ?? 0,
            params: context.params as P,
          }),
          onDone: {
            target: 'idle',
            actions: [
              { type: 'announceSuccess', params: ({ event }) => ({ answer: event.output }) },
              { type: 'announcePerson', params: ({ event }) => ({ answer: event.output }) },
              'close',
            ],
          },
          onError:
            confirm === undefined
              ? {
                  target: 'idle',
                  actions: [{ type: 'announceRefusal', params: ({ event }) => ({ error: event.error }) }, 'close'],
                }
              : confirm === 'always'
                ? {
                    target: 'dialog',
                    actions: [
                      { type: 'refused', params: ({ event }) => ({ error: event.error }) },
                      'announceRefusalInDialog',
                    ],
                  }
                : [
                    {
                      guard: 'asked',
                      target: 'dialog',
                      actions: [
                        { type: 'refused', params: ({ event }) => ({ error: event.error }) },
                        'announceRefusalInDialog',
                      ],
                    },
                    {
                      target: 'idle',
                      actions: [{ type: 'announceRefusal', params: ({ event }) => ({ error: event.error }) }, 'close'],
                    },
                  ],
        },
      },
    },
  });
}

export type SupportActionMachine<P, A> = ReturnType<typeof createSupportActionMachine<P, A>>;
export type SupportActionSnapshot<P, A> = SnapshotFrom<SupportActionMachine<P, A>>;

/** The action's dialog is up: asked for, and not yet answered (it stays up, pending, while the call runs). */
export function selectDialogOpen<P, A>(snapshot: SupportActionSnapshot<P, A>): boolean {
  const state = snapshot.value as string;
  return snapshot.context.asked && (state === 'dialog' || state === 'running');
}
