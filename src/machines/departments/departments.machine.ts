import { assertEvent, assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import type { I18nKey } from '../../domain/i18n-key';
import { recordNameProblem, type RecordNameProblem } from '../../domain/record-name';
import type { components } from '../../generated/openapi';
import { failed, succeeded, type Outcome } from '../shared/outcome';
import { actionError, refusedFields, type ActionError } from '../shared/request-error';

export type Department = components['schemas']['Department'];

export interface DepartmentsInput {
  rest: RestClient;
  /** The tenant of the address (`tenantName`; the server keeps a tenant's own staff to their own). */
  tenantName: string;
}

export interface DepartmentsContext extends DepartmentsInput {
  departments: Department[];
  listError: ActionError | null;
  /** The create or change in flight (kept after it ends, for its outcome; replaced by the next). */
  pending: { id: number | null; name?: string; activated?: boolean } | null;
  actionError: ActionError | null;
  fieldErrors: Record<string, I18nKey>;
}

export type DepartmentsEvent =
  | { type: 'departments.reload' }
  /** A dialog opens: the last refusal is forgotten. */
  | { type: 'departments.dismiss' }
  | { type: 'departments.create'; name: string }
  | { type: 'departments.rename'; id: number; name: string }
  | { type: 'departments.activate'; id: number; activated: boolean };

/** The calls of the departments screen; each ends in an emitted `outcome` (src/machines/shared/outcome.ts). */
export type DepartmentAction = 'create' | 'rename' | 'activate';

const NAME_PROBLEMS: Readonly<Record<RecordNameProblem, I18nKey>> = {
  blank: 'departments.errors.nameRequired',
  tooLong: 'departments.errors.nameTooLong',
  taken: 'departments.errors.nameTaken',
};

/** The field errors of a name, checked against the other departments' names (src/domain/record-name.ts). */
export function departmentNameProblems(
  name: string,
  departments: readonly Department[],
  exceptId: number | null = null,
): Record<string, I18nKey> {
  const problem = recordNameProblem(
    name,
    departments.filter((d) => d.id !== exceptId).map((d) => d.name),
  );
  return problem ? { name: NAME_PROBLEMS[problem] } : {};
}

const NOTICES = { create: 'created', rename: 'renamed' } as const;

const byName = (a: Department, b: Department) => a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id;

/**
 * The departments of the address's tenant (`GET /api/departments`), creating one (`POST`), renaming,
 * activating and deactivating one (`PATCH /api/departments/{id}`), contract extensions. A name is
 * checked before it is sent (blank, over 80 characters, another department's name ignoring case); a
 * name the server refuses (409, two staff at once) shows on the dialog's field, and a change to a
 * department that no longer exists (404) says so. Nothing is changed locally until the server agrees.
 *
 * States: `loading`, `failed`, `ready.idle`, `ready.saving` (tagged `busy`).
 */
export const departmentsMachine = setup({
  types: {
    input: {} as DepartmentsInput,
    context: {} as DepartmentsContext,
    events: {} as DepartmentsEvent,
    emitted: {} as Outcome<DepartmentAction>,
  },
  actors: {
    loadDepartments: fromPromise<Department[], { rest: RestClient; tenantName: string }>(async ({ input, signal }) =>
      unwrap(await input.rest.GET('/api/departments', { params: { query: { tenantName: input.tenantName } }, signal })),
    ),
    saveDepartment: fromPromise<
      Department,
      { rest: RestClient; tenantName: string; change: NonNullable<DepartmentsContext['pending']> }
    >(async ({ input }) => {
      const { id, ...body } = input.change;
      const query = { tenantName: input.tenantName };
      if (id === null)
        return unwrap(
          await input.rest.POST('/api/departments', { params: { query }, body: { name: body.name ?? '' } }),
        );
      return unwrap(await input.rest.PATCH('/api/departments/{id}', { params: { path: { id }, query }, body }));
    }),
  },
  guards: {
    validCreate: ({ context, event }) => {
      assertEvent(event, 'departments.create');
      return Object.keys(departmentNameProblems(event.name, context.departments)).length === 0;
    },
    validRename: ({ context, event }) => {
      assertEvent(event, 'departments.rename');
      return (
        context.departments.some((d) => d.id === event.id) &&
        Object.keys(departmentNameProblems(event.name, context.departments, event.id)).length === 0
      );
    },
    known: ({ context, event }) => {
      assertEvent(event, 'departments.activate');
      return context.departments.some((d) => d.id === event.id);
    },
  },
  actions: {
    store: assign((_, departments: Department[]) => ({ departments: [...departments].sort(byName), listError: null })),
    listFailed: assign((_, params: { error: unknown }) => ({
      departments: [],
      listError: actionError('departments.errors.load', params.error),
    })),
    dismiss: assign({ actionError: null, fieldErrors: () => ({}) }),
    refuse: assign((_, params: { fieldErrors: Record<string, I18nKey> }) => ({
      fieldErrors: params.fieldErrors,
      actionError: null,
    })),
    begin: assign(({ event }) => {
      assertEvent(event, ['departments.create', 'departments.rename', 'departments.activate']);
      const pending =
        event.type === 'departments.create'
          ? { id: null, name: event.name.trim() }
          : event.type === 'departments.rename'
            ? { id: event.id, name: event.name.trim() }
            : { id: event.id, activated: event.activated };
      return { pending, actionError: null, fieldErrors: {} };
    }),
    saved: assign(({ context }, department: Department) => ({
      departments: [...context.departments.filter((d) => d.id !== department.id), department].sort(byName),
    })),
    saveFailed: assign(({ context }, params: { error: unknown; action: DepartmentAction }) => {
      const fields = refusedFields(params.error);
      const taken = params.error instanceof ApiError && params.error.status === 409;
      return {
        actionError: actionError(`departments.errors.${params.action}`, params.error),
        fieldErrors: taken ? { name: 'departments.errors.nameTaken' as const } : fields,
        // A department another session removed or moved: gone from this list too.
        departments:
          params.error instanceof ApiError && params.error.status === 404
            ? context.departments.filter((d) => d.id !== context.pending?.id)
            : context.departments,
      };
    }),
    // A create or rename refused shows on its dialog; an (de)activation refused has no dialog, so it toasts.
    report: emit(
      (_, params: { action: DepartmentAction; department: Department | null; error: ActionError | null }) => {
        if (params.department) {
          const notice =
            params.action === 'activate'
              ? params.department.activated
                ? 'activated'
                : 'deactivated'
              : NOTICES[params.action];
          return succeeded(params.action, {
            key: `departments.notices.${notice}`,
            params: { name: params.department.name },
          });
        }
        return failed(
          params.action,
          params.action === 'activate' && params.error
            ? { variant: 'error', title: { key: params.error.key }, description: { key: params.error.reason } }
            : null,
        );
      },
    ),
  },
}).createMachine({
  id: 'departments',
  context: ({ input }) => ({
    ...input,
    departments: [],
    listError: null,
    pending: null,
    actionError: null,
    fieldErrors: {},
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadDepartments',
        src: 'loadDepartments',
        input: ({ context }) => ({ rest: context.rest, tenantName: context.tenantName }),
        onDone: { target: 'ready', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: { type: 'listFailed', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    failed: { on: { 'departments.reload': 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'departments.reload': '#departments.loading',
            'departments.dismiss': { actions: 'dismiss' },
            'departments.create': [
              { guard: 'validCreate', target: 'saving', actions: 'begin' },
              {
                actions: {
                  type: 'refuse',
                  params: ({ context, event }) => ({
                    fieldErrors: departmentNameProblems(event.name, context.departments),
                  }),
                },
              },
            ],
            'departments.rename': [
              { guard: 'validRename', target: 'saving', actions: 'begin' },
              {
                actions: {
                  type: 'refuse',
                  params: ({ context, event }) => ({
                    fieldErrors: departmentNameProblems(event.name, context.departments, event.id),
                  }),
                },
              },
            ],
            'departments.activate': { guard: 'known', target: 'saving', actions: 'begin' },
          },
        },
        saving: {
          tags: ['busy'],
          invoke: {
            id: 'saveDepartment',
            src: 'saveDepartment',
            input: ({ context }) => {
              if (!context.pending) throw new Error('departments: saving without a change');
              return { rest: context.rest, tenantName: context.tenantName, change: context.pending };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'saved', params: ({ event }) => event.output },
                {
                  type: 'report',
                  params: ({ context, event }) => ({
                    action: actionOf(context.pending),
                    department: event.output,
                    error: null,
                  }),
                },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                {
                  type: 'saveFailed',
                  params: ({ context, event }) => ({ error: event.error, action: actionOf(context.pending) }),
                },
                {
                  type: 'report',
                  params: ({ context }) => ({
                    action: actionOf(context.pending),
                    department: null,
                    error: context.actionError,
                  }),
                },
              ],
            },
          },
        },
      },
    },
  },
});

function actionOf(pending: DepartmentsContext['pending']): DepartmentAction {
  if (!pending || pending.id === null) return 'create';
  return pending.name === undefined ? 'activate' : 'rename';
}

export type DepartmentsSnapshot = SnapshotFrom<typeof departmentsMachine>;

/** The list's status: loading, failed to load, or shown. */
export const selectDepartmentsStatus = (s: DepartmentsSnapshot): 'loading' | 'error' | 'ready' =>
  s.matches('loading') ? 'loading' : s.matches('failed') ? 'error' : 'ready';
