import { assertEvent, assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import type { I18nKey } from '../../domain/i18n-key';
import { saveConflict, staleOf, type Conflict, type ConflictField } from '../shared/conflict';
import { actionError, reasonKeyOf, type ActionError } from '../shared/request-error';
import {
  endpointProblems,
  endpointRefusal,
  type CampaignStatusType,
  type EndpointField,
  type EndpointFields,
  type WebhookEndpoint,
} from './webhook-endpoint-checks';

export type WebhookEndpointWithSecret = components['schemas']['WebhookEndpointWithSecret'];

/** The open form: a new endpoint (`id` null) or an existing one, its values as typed and the version it loaded. */
export interface EndpointForm extends EndpointFields {
  id: number | null;
  version: number;
}

/** An action on one endpoint from its card; delete and rotate are confirmed first. */
export type EndpointAction =
  | { kind: 'delete'; endpoint: WebhookEndpoint }
  | { kind: 'rotate'; endpoint: WebhookEndpoint }
  | { kind: 'pause'; endpoint: WebhookEndpoint }
  | { kind: 'resume'; endpoint: WebhookEndpoint };

export interface WebhookEndpointsInput {
  rest: RestClient;
  tenantName: string;
}

export interface WebhookEndpointsContext extends WebhookEndpointsInput {
  endpoints: WebhookEndpoint[];
  loadError: ActionError | null;
  form: EndpointForm | null;
  /** Refusals beside the form's fields (client checks and the server's answers). */
  errors: Partial<Record<EndpointField, I18nKey>>;
  /**
   * The save was refused as stale (docs/lists.md, Conflict notice): who changed what since, and the
   * endpoint's current version to save the user's values over it.
   */
  conflict: Conflict | null;
  action: EndpointAction | null;
  /** Why the last card action failed (shown on that card). */
  actionError: { id: number; error: ActionError } | null;
  /** The signing secret just made (create or rotate), shown once. */
  secret: { url: string; secret: string } | null;
}

export type WebhookEndpointsEvent =
  | { type: 'endpoints.reload' }
  | { type: 'endpoints.add' }
  | { type: 'endpoints.edit'; id: number }
  | { type: 'endpoints.change'; patch: Partial<EndpointFields> }
  | { type: 'endpoints.submit' }
  | { type: 'endpoints.cancel' }
  | { type: 'endpoints.overwrite' }
  | { type: 'endpoints.discard' }
  | { type: 'endpoints.act'; action: EndpointAction['kind']; id: number }
  | { type: 'endpoints.confirm' }
  | { type: 'endpoints.secretSeen' };

const BLANK: EndpointFields = { url: '', types: [], description: '' };

/** Keeps the contract's order of types, so a form and a card list them the same way. */
const TYPE_ORDER: readonly CampaignStatusType[] = ['sent', 'delivered', 'read', 'failed', 'replied'];
export const orderedTypes = (types: readonly CampaignStatusType[]) => TYPE_ORDER.filter((t) => types.includes(t));

const upsert = (list: WebhookEndpoint[], endpoint: WebhookEndpoint) =>
  list.some((e) => e.id === endpoint.id) ? list.map((e) => (e.id === endpoint.id ? endpoint : e)) : [...list, endpoint];

interface SaveInput {
  rest: RestClient;
  tenantName: string;
  form: EndpointForm;
  /** The version to send: the form's, or the current one when saving over a stale refusal. */
  version: number | null;
  /** The endpoint as loaded, so an edit sends only what changed. */
  before: WebhookEndpoint | null;
}

/** What an edit changes: only the fields that differ from the endpoint as loaded (at least one). */
/**
 * The user's unsaved values as the conflict notice shows them beside the other change (stored → edited,
 * as the audit log writes values: JSON text).
 */
export function unsavedEndpointFields(context: Pick<WebhookEndpointsContext, 'form' | 'endpoints'>): ConflictField[] {
  const form = context.form;
  const before = form ? context.endpoints.find((e) => e.id === form.id) : undefined;
  if (!form || !before) return [];
  return Object.entries(changedFields(form, before)).map(([field, value]) => ({
    field,
    before: JSON.stringify(before[field as keyof WebhookEndpoint]),
    after: JSON.stringify(value),
  }));
}

function changedFields(form: EndpointForm, before: WebhookEndpoint) {
  const change: { url?: string; types?: CampaignStatusType[]; description?: string } = {};
  if (form.url.trim() !== before.url) change.url = form.url.trim();
  if (orderedTypes(form.types).join() !== orderedTypes(before.types).join()) change.types = orderedTypes(form.types);
  if (form.description.trim() !== before.description) change.description = form.description.trim();
  return change;
}

/**
 * A tenant's webhook endpoints (contracts/openapi.yaml, tag `webhooks`): the list, the form to add or
 * change one (checked before it is sent, each refusal of the server beside its field, a stale save
 * offered to be saved over or dropped), pause and resume, a new signing secret and delete (both
 * confirmed), and the secret of a new endpoint or a rotation shown once.
 *
 * States: `loading`, `failed`, `idle`, `editing`, `saving`, `confirming`, `acting`, `secret`.
 */
export const webhookEndpointsMachine = setup({
  types: {
    input: {} as WebhookEndpointsInput,
    context: {} as WebhookEndpointsContext,
    events: {} as WebhookEndpointsEvent,
  },
  actors: {
    loadEndpoints: fromPromise<WebhookEndpoint[], { rest: RestClient; tenantName: string }>(
      async ({ input, signal }) =>
        unwrap(
          await input.rest.GET('/api/webhooks/endpoints', {
            params: { query: { tenantName: input.tenantName } },
            signal,
          }),
        ).data,
    ),
    saveEndpoint: fromPromise<{ endpoint: WebhookEndpoint; secret: string | null }, SaveInput>(async ({ input }) => {
      const { rest, tenantName, form, before } = input;
      if (form.id === null || before === null) {
        const made = unwrap(
          await rest.POST('/api/webhooks/endpoints', {
            body: {
              tenantName,
              url: form.url.trim(),
              types: orderedTypes(form.types),
              ...(form.description.trim() !== '' && { description: form.description.trim() }),
            },
          }),
        );
        return { endpoint: made.endpoint, secret: made.secret };
      }
      const change = changedFields(form, before);
      if (Object.keys(change).length === 0) return { endpoint: before, secret: null };
      const endpoint = unwrap(
        await rest.PUT('/api/webhooks/endpoints/{id}', {
          params: { path: { id: form.id } },
          body: { ...change, ...(input.version !== null && { version: input.version }) },
        }),
      );
      return { endpoint, secret: null };
    }),
    runAction: fromPromise<
      { endpoint: WebhookEndpoint | null; secret: string | null },
      { rest: RestClient; action: EndpointAction }
    >(async ({ input: { rest, action } }) => {
      const id = action.endpoint.id;
      const version = action.endpoint.version;
      switch (action.kind) {
        case 'delete':
          unwrap(await rest.DELETE('/api/webhooks/endpoints/{id}', { params: { path: { id } } }));
          return { endpoint: null, secret: null };
        case 'rotate': {
          const made = unwrap(
            await rest.POST('/api/webhooks/endpoints/{id}/rotate-secret', {
              params: { path: { id } },
              body: { version },
            }),
          );
          return { endpoint: made.endpoint, secret: made.secret };
        }
        case 'pause':
        case 'resume':
          return {
            endpoint: unwrap(
              await rest.PUT('/api/webhooks/endpoints/{id}', {
                params: { path: { id } },
                body: { active: action.kind === 'resume', version },
              }),
            ),
            secret: null,
          };
      }
    }),
  },
  guards: {
    formValid: ({ context }) => context.form !== null && Object.keys(endpointProblems(context.form)).length === 0,
    needsConfirm: ({ context, event }) =>
      event.type === 'endpoints.act' &&
      (event.action === 'delete' || event.action === 'rotate') &&
      context.endpoints.some((e) => e.id === event.id),
    knownEndpoint: ({ context, event }) =>
      (event.type === 'endpoints.act' || event.type === 'endpoints.edit') &&
      context.endpoints.some((e) => e.id === event.id),
    madeSecret: ({ event }) => 'output' in event && (event.output as { secret: string | null }).secret !== null,
    staleSave: ({ event }) => 'error' in event && staleOf(event.error) !== null,
  },
  actions: {
    openBlank: assign({ form: () => ({ ...BLANK, types: [], id: null, version: 0 }), errors: {}, conflict: null }),
    openEdit: assign(({ context, event }) => {
      assertEvent(event, 'endpoints.edit');
      const e = context.endpoints.find((x) => x.id === event.id)!;
      return {
        form: { id: e.id, url: e.url, types: orderedTypes(e.types), description: e.description, version: e.version },
        errors: {},
        conflict: null,
      };
    }),
    change: assign(({ context, event }) => {
      assertEvent(event, 'endpoints.change');
      if (!context.form) return {};
      const errors = { ...context.errors };
      for (const key of Object.keys(event.patch)) delete errors[key as EndpointField];
      delete errors.form;
      return { form: { ...context.form, ...event.patch }, errors };
    }),
    refuse: assign(({ context }) => ({ errors: context.form ? endpointProblems(context.form) : {} })),
    closeForm: assign({ form: null, errors: {}, conflict: null }),
  },
}).createMachine({
  id: 'webhookEndpoints',
  context: ({ input }) => ({
    ...input,
    endpoints: [],
    loadError: null,
    form: null,
    errors: {},
    conflict: null,
    action: null,
    actionError: null,
    secret: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadEndpoints',
        src: 'loadEndpoints',
        input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName }),
        onDone: { target: 'idle', actions: assign({ endpoints: ({ event }) => event.output, loadError: null }) },
        onError: {
          target: 'failed',
          actions: assign({ loadError: ({ event }) => actionError('webhooks.endpoints.errors.load', event.error) }),
        },
      },
    },
    failed: { on: { 'endpoints.reload': 'loading' } },
    idle: {
      on: {
        'endpoints.reload': 'loading',
        'endpoints.add': { target: 'editing', actions: ['openBlank', assign({ actionError: null })] },
        'endpoints.edit': {
          guard: 'knownEndpoint',
          target: 'editing',
          actions: ['openEdit', assign({ actionError: null })],
        },
        'endpoints.act': [
          {
            guard: 'needsConfirm',
            target: 'confirming',
            actions: assign(({ context, event }) => ({
              action: pickAction(context, event),
              actionError: null,
            })),
          },
          {
            guard: 'knownEndpoint',
            target: 'acting',
            actions: assign(({ context, event }) => ({ action: pickAction(context, event), actionError: null })),
          },
        ],
      },
    },
    editing: {
      on: {
        'endpoints.change': { actions: 'change' },
        'endpoints.submit': [{ guard: 'formValid', target: 'saving' }, { actions: 'refuse' }],
        'endpoints.overwrite': { guard: ({ context }) => context.conflict !== null, target: 'saving' },
        'endpoints.discard': { target: 'loading', actions: 'closeForm' },
        'endpoints.cancel': { target: 'idle', actions: 'closeForm' },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveEndpoint',
        src: 'saveEndpoint',
        input: ({ context }) => {
          const form = context.form!;
          return {
            rest: context.rest,
            tenantName: context.tenantName,
            form,
            version: context.conflict ? context.conflict.version : form.version,
            before: context.endpoints.find((e) => e.id === form.id) ?? null,
          };
        },
        onDone: [
          {
            guard: 'madeSecret',
            target: 'secret',
            actions: [
              assign(({ context, event }) => ({
                endpoints: upsert(context.endpoints, event.output.endpoint),
                secret: { url: event.output.endpoint.url, secret: event.output.secret! },
              })),
              'closeForm',
            ],
          },
          {
            target: 'idle',
            actions: [
              assign(({ context, event }) => ({ endpoints: upsert(context.endpoints, event.output.endpoint) })),
              'closeForm',
            ],
          },
        ],
        onError: [
          {
            guard: 'staleSave',
            target: 'editing',
            actions: assign(({ event }) => ({ conflict: saveConflict(event.error), errors: {} })),
          },
          {
            target: 'editing',
            actions: assign(({ context, event }) => ({
              errors: endpointRefusal(event.error, context.form!, reasonKeyOf(event.error)),
            })),
          },
        ],
      },
    },
    confirming: {
      on: {
        'endpoints.confirm': 'acting',
        'endpoints.cancel': { target: 'idle', actions: assign({ action: null }) },
      },
    },
    acting: {
      tags: ['busy'],
      invoke: {
        id: 'runAction',
        src: 'runAction',
        input: ({ context }) => ({ rest: context.rest, action: context.action! }),
        onDone: [
          {
            guard: 'madeSecret',
            target: 'secret',
            actions: assign(({ context, event }) => ({
              endpoints: upsert(context.endpoints, event.output.endpoint!),
              secret: { url: event.output.endpoint!.url, secret: event.output.secret! },
              action: null,
            })),
          },
          {
            target: 'idle',
            actions: assign(({ context, event }) => {
              const done = context.action!;
              const endpoint = event.output.endpoint;
              return {
                endpoints: endpoint
                  ? upsert(context.endpoints, endpoint)
                  : context.endpoints.filter((e) => e.id !== done.endpoint.id),
                action: null,
              };
            }),
          },
        ],
        onError: [
          {
            // The endpoint changed elsewhere: the list is read again and the card says why nothing happened.
            guard: 'staleSave',
            target: 'loading',
            actions: assign(({ context }) => ({
              actionError: {
                id: context.action!.endpoint.id,
                error: { key: actionKey(context.action!.kind), reason: 'webhooks.endpoints.errors.stale' },
              },
              action: null,
            })),
          },
          {
            target: 'idle',
            actions: assign(({ context, event }) => ({
              actionError: {
                id: context.action!.endpoint.id,
                error: actionError(actionKey(context.action!.kind), event.error),
              },
              action: null,
            })),
          },
        ],
      },
    },
    secret: {
      on: { 'endpoints.secretSeen': { target: 'idle', actions: assign({ secret: null }) } },
    },
  },
});

function pickAction(context: WebhookEndpointsContext, event: WebhookEndpointsEvent): EndpointAction | null {
  if (event.type !== 'endpoints.act') return null;
  const endpoint = context.endpoints.find((e) => e.id === event.id);
  return endpoint ? ({ kind: event.action, endpoint } as EndpointAction) : null;
}

function actionKey(kind: EndpointAction['kind']): I18nKey {
  return `webhooks.endpoints.errors.${kind}`;
}

export type WebhookEndpointsSnapshot = SnapshotFrom<typeof webhookEndpointsMachine>;
