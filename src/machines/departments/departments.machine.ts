import { fromPromise, type SnapshotFrom } from 'xstate';
import { ApiError } from '../../api/api-error';
import { unwrap } from '../../api/rest-client';
import type { components } from '../../generated/openapi';
import {
  namedRecordsMachine,
  type NamedRecordsInput,
  type RecordAction,
  type RecordChange,
} from '../shared/named-records.machine';

export type Department = components['schemas']['Department'];

export type DepartmentsInput = NamedRecordsInput;

/** The calls of the departments screen; each ends in an emitted `outcome` (src/machines/shared/outcome.ts). */
export type DepartmentAction = RecordAction;

const byName = (a: Department, b: Department) => a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id;

/**
 * The departments of the address's tenant (`GET /api/departments`), creating one (`POST`), renaming,
 * activating and deactivating one (`PATCH /api/departments/{id}`), contract extensions, as a
 * named-records machine (src/machines/shared/named-records.machine.ts): names are unique across the
 * tenant's departments, the list is kept in name order.
 *
 * Events: `records.reload`, `records.createOpen` (scope `null`), `records.renameOpen`, `records.close`,
 * `records.submit`, `records.activate`, `records.draft` and the conflict notice's (src/machines/shared/conflict.ts).
 * States: `loading`, `failed`, `ready.*` (named-records.machine.ts).
 */
export const departmentsMachine = namedRecordsMachine<Department, null>({
  id: 'departments',
  targetType: 'department',
  texts: {
    nameRequired: 'departments.errors.nameRequired',
    nameTooLong: 'departments.errors.nameTooLong',
    nameTaken: 'departments.errors.nameTaken',
    errors: {
      create: 'departments.errors.create',
      rename: 'departments.errors.rename',
      activate: 'departments.errors.activate',
    },
    notices: {
      created: 'departments.notices.created',
      renamed: 'departments.notices.renamed',
      activated: 'departments.notices.activated',
      deactivated: 'departments.notices.deactivated',
    },
  },
  scopeKey: { ofRecord: () => null, ofCreate: () => null },
  order: byName,
  calls: {
    load: {
      call: fromPromise<Department[], NamedRecordsInput>(async ({ input, signal }) =>
        unwrap(
          await input.rest.GET('/api/departments', { params: { query: { tenantName: input.tenantName } }, signal }),
        ),
      ),
      failed: 'departments.errors.load',
    },
    // The contract reads departments only as the tenant's list.
    loadOne: async (input, signal) => {
      const list = unwrap(
        await input.rest.GET('/api/departments', { params: { query: { tenantName: input.tenantName } }, signal }),
      );
      const found = list.find((d) => d.id === input.id);
      if (!found) throw new ApiError(404, { message: 'Department not found' });
      return found;
    },
    save: fromPromise<Department, NamedRecordsInput & { change: RecordChange<null> }>(async ({ input }) => {
      const { change } = input;
      const query = { tenantName: input.tenantName };
      if (change.kind === 'create')
        return unwrap(await input.rest.POST('/api/departments', { params: { query }, body: { name: change.name } }));
      // A rename sends the version its dialog loaded (docs/lists.md, Versions); an activation from the row none.
      const body =
        change.kind === 'rename'
          ? { name: change.name, ...(change.version !== null && { version: change.version }) }
          : { activated: change.activated };
      return unwrap(
        await input.rest.PATCH('/api/departments/{id}', { params: { path: { id: change.id }, query }, body }),
      );
    }),
  },
});

export type DepartmentsSnapshot = SnapshotFrom<typeof departmentsMachine>;

/** The list's status: loading, failed to load, or shown. */
export const selectDepartmentsStatus = (s: DepartmentsSnapshot): 'loading' | 'error' | 'ready' =>
  s.hasTag('loading') ? 'loading' : s.hasTag('failed') ? 'error' : 'ready';
