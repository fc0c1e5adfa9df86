import { fromCallback, fromPromise } from 'xstate';
import type { Execute } from '../../api/graphql-client';
import { ApiError } from '../../api/api-error';
import { unwrap, type RestClient } from '../../api/rest-client';
import {
  DeleteUserDocument,
  DeleteUserInstanceDocument,
  DepartmentsDocument,
  DisconnectUserDocument,
  InstancesDocument,
  NewUserDocument,
  OnlineUsersDocument,
  RolesDocument,
  UpdateUserDocument,
  UserInstancesDocument,
  UsersPageDocument,
  type DepartmentFragment,
  type InstanceFragment,
  type RolesQuery,
  type UserInstanceLinkFragment,
  type UserRowFragment,
} from '../../generated/graphql';
import type { components } from '../../generated/openapi';
import { usersPageVariables, type UsersQuery } from './users-query';

/**
 * The users screen's I/O. The list is read one page at a time through GraphQL `usersPage`, filtered,
 * sorted and paged on the server (docs/lists.md, Filters and export); it is scoped by the tenant in
 * the address like every GraphQL call, and `newUser`/`updateUser` answer rows of the same shape. REST
 * serves what only REST has: block/unblock, the two-factor setting, and the name-only and email-only
 * PUTs.
 */

/**
 * Row types are the generated fragment types of contracts/operations/ (userRow, department, instance and
 * userInstanceLink .fragment.graphql): users, newUser and updateUser all answer `UserRow`.
 */
export type UserRow = UserRowFragment;
export type RestUser = components['schemas']['User'];
export type Role = RolesQuery['roles'][number];
export type Department = DepartmentFragment;
export type InstanceOption = InstanceFragment;
export type UserInstanceLink = UserInstanceLinkFragment;

/** A REST user as a list row (the REST shape is a superset of the GraphQL one). */
export function toUserRow(user: RestUser): UserRow {
  return {
    id: user.id,
    version: user.version,
    name: user.name,
    username: user.username,
    email: user.email,
    image: user.image,
    isConnected: user.isConnected,
    blocked: user.blocked,
    twoFactorEnabled: user.twoFactorEnabled,
    twoFactorEnrolmentRequired: user.twoFactorEnrolmentRequired,
    role: { id: user.role.id, name: user.role.name, display_name: user.role.display_name },
    userDepartment: user.userDepartment,
    userInstances: user.userInstances,
  };
}

/** A mutation that answered `false` did not happen. */
function confirmed(done: boolean, what: string): void {
  if (!done) throw new Error(`${what} answered false`);
}

export interface UserFormOptions {
  roles: Role[];
  departments: Department[];
  /** Instances that can still be linked (the edited user's linked ones left out). */
  instances: InstanceOption[];
  /** The edited user's links (empty when creating). */
  links: UserInstanceLink[];
}

export interface UserFormValues {
  username: string;
  name: string;
  email: string;
  password: string;
  role_id: number | null;
  user_department_id: number | null;
}

/**
 * How often the users screen re-reads who is online. Presence has no socket event
 * (contracts/socket.md §3: "the socket carries no presence events"), so the live column polls the
 * GraphQL `onlineUsers` query, the contract's presence read.
 */
export const PRESENCE_POLL_MS = 15_000;

/** One page of the users list as `usersPage` answers it. */
export interface UsersPage {
  users: UserRow[];
  /** Users matching the query in all pages. */
  total: number;
  /** The page answered, from 1 (a page past the last answers no rows and the real total). */
  page: number;
  /** The last page (1 when nothing matches). */
  lastPage: number;
}

/**
 * The users screen's first load: the first page, every role with its routes (which users the signed-in
 * user may act on, users-access.ts) and the departments the filter offers.
 */
export interface UsersList extends UsersPage {
  roles: Role[];
  departments: Department[];
}

/** The page of `query` (its search, filters, sort and page), `USERS_PAGE_SIZE` users at most. */
async function loadUsersPage(execute: Execute, query: UsersQuery, signal?: AbortSignal): Promise<UsersPage> {
  const { usersPage } = await execute(UsersPageDocument, usersPageVariables(query), { signal });
  return { users: usersPage.data, total: usersPage.total, page: usersPage.page, lastPage: usersPage.last_page };
}

/** What the presence watcher sends its parent: the ids online right now. */
export interface OnlineEvent {
  type: 'users.online';
  ids: number[];
}

export const usersActors = {
  /**
   * Polls `onlineUsers` every `intervalMs` (0 turns it off) and sends `users.online`. A poll is
   * skipped while the previous one is still out, and a failed poll is only logged: the column keeps
   * the last known presence and the next poll corrects it.
   */
  watchPresence: fromCallback<OnlineEvent, { execute: Execute; intervalMs: number }>(({ input, sendBack }) => {
    if (input.intervalMs <= 0) return undefined;
    let inFlight: AbortController | null = null;
    const poll = () => {
      if (inFlight) return;
      const controller = new AbortController();
      inFlight = controller;
      input
        .execute(OnlineUsersDocument, {}, { signal: controller.signal })
        .then(({ onlineUsers }) => sendBack({ type: 'users.online', ids: onlineUsers.map((user) => user.id) }))
        .catch((error: unknown) => {
          if (!controller.signal.aborted) console.warn('users: presence poll failed', error);
        })
        .finally(() => {
          if (inFlight === controller) inFlight = null;
        });
    };
    const timer = setInterval(poll, input.intervalMs);
    return () => {
      clearInterval(timer);
      inFlight?.abort();
    };
  }),
  /** The first page with the roles and departments (see {@link UsersList}). */
  loadUsers: fromPromise<UsersList, { execute: Execute; query: UsersQuery }>(async ({ input, signal }) => {
    const [page, roles, departments] = await Promise.all([
      loadUsersPage(input.execute, input.query, signal),
      input.execute(RolesDocument, {}, { signal }).then((r) => r.roles),
      input.execute(DepartmentsDocument, {}, { signal }).then((r) => r.departments),
    ]);
    return { ...page, roles, departments };
  }),
  /** Another page, or the same page again (a new query, a reload after an action). */
  loadUsersPage: fromPromise<UsersPage, { execute: Execute; query: UsersQuery }>(({ input, signal }) =>
    loadUsersPage(input.execute, input.query, signal),
  ),
  deleteUser: fromPromise<void, { execute: Execute; id: number }>(async ({ input }) =>
    confirmed((await input.execute(DeleteUserDocument, { id: input.id })).deleteUser, 'deleteUser'),
  ),
  disconnectUser: fromPromise<void, { execute: Execute; id: number }>(async ({ input }) =>
    confirmed((await input.execute(DisconnectUserDocument, { user_id: input.id })).disconnectUser, 'disconnectUser'),
  ),
  setBlocked: fromPromise<UserRow, { rest: RestClient; id: number; blocked: boolean }>(async ({ input }) =>
    toUserRow(
      unwrap(
        await input.rest.PATCH('/api/users/{id}', {
          params: { path: { id: input.id } },
          body: { blocked: input.blocked },
        }),
      ),
    ),
  ),
  setTwoFactor: fromPromise<boolean, { rest: RestClient; id: number; enabled: boolean }>(async ({ input }) => {
    const settings = unwrap(
      await input.rest.PATCH('/api/user-settings/{id}', {
        params: { path: { id: input.id } },
        body: { two_factor_enabled: input.enabled },
      }),
    );
    return settings.two_factor_enabled;
  }),
  /** Requires (or stops requiring) enrolment at the user's next sign-in; answers the stored requirement. */
  setTwoFactorRequired: fromPromise<boolean, { rest: RestClient; id: number; required: boolean }>(async ({ input }) => {
    const settings = unwrap(
      await input.rest.PATCH('/api/user-settings/{id}', {
        params: { path: { id: input.id } },
        body: { two_factor_enrolment_required: input.required },
      }),
    );
    return settings.two_factor_enrolment_required;
  }),
  renameUser: fromPromise<UserRow, { rest: RestClient; id: number; name: string }>(async ({ input }) =>
    toUserRow(
      unwrap(
        await input.rest.PUT('/api/users/{id}', { params: { path: { id: input.id } }, body: { name: input.name } }),
      ),
    ),
  ),
  changeEmail: fromPromise<UserRow, { rest: RestClient; id: number; email: string }>(async ({ input }) =>
    toUserRow(
      unwrap(
        await input.rest.PUT('/api/users/{id}', { params: { path: { id: input.id } }, body: { email: input.email } }),
      ),
    ),
  ),
};

/** The roles, departments and instances the form offers, and the edited user's links. */
async function loadFormOptions(
  execute: Execute,
  userId: number | null,
  signal?: AbortSignal,
): Promise<UserFormOptions> {
  const [roles, departments, links] = await Promise.all([
    execute(RolesDocument, {}, { signal }).then((r) => r.roles),
    execute(DepartmentsDocument, {}, { signal }).then((r) => r.departments),
    userId === null
      ? Promise.resolve([])
      : execute(UserInstancesDocument, { user_id: userId }, { signal }).then((r) => r.userInstances),
  ]);
  const { instances } = await execute(
    InstancesDocument,
    { remove_ids: links.map((link) => link.instance.id) },
    { signal },
  );
  return { roles, departments, instances, links };
}

/**
 * One user's row as stored now: `usersPage` narrowed to the id (contracts/schema.graphql `UserFilter.id`,
 * docs/lists.md), on the address's tenant; a user it does not list (deleted, or of another tenant) fails
 * as not found.
 */
export async function loadUserRow(execute: Execute, userId: number, signal?: AbortSignal): Promise<UserRow> {
  const { usersPage } = await execute(UsersPageDocument, { filter: { id: userId }, limit: 1 }, { signal });
  const user = usersPage.data[0];
  if (!user) throw new ApiError(404, { message: 'User not found' });
  return user;
}

export const userFormActors = {
  loadUserRow: fromPromise<UserRow, { execute: Execute; userId: number }>(({ input, signal }) =>
    loadUserRow(input.execute, input.userId, signal),
  ),
  /** The user as stored now and the form's choices and links with it (reapply, discard). */
  reloadUser: fromPromise<{ user: UserRow; options: UserFormOptions }, { execute: Execute; userId: number }>(
    async ({ input, signal }) => {
      const [user, options] = await Promise.all([
        loadUserRow(input.execute, input.userId, signal),
        loadFormOptions(input.execute, input.userId, signal),
      ]);
      return { user, options };
    },
  ),
  loadFormOptions: fromPromise<UserFormOptions, { execute: Execute; userId: number | null }>(({ input, signal }) =>
    loadFormOptions(input.execute, input.userId, signal),
  ),
  createUser: fromPromise<UserRow, { execute: Execute; values: UserFormValues; instanceIds: number[] }>(
    async ({ input }) => {
      const { values } = input;
      const answer = await input.execute(NewUserDocument, {
        username: values.username.trim(),
        name: values.name.trim(),
        email: values.email.trim(),
        password: values.password,
        role_id: values.role_id ?? 0,
        user_department_id: values.user_department_id,
        chosen_instances: input.instanceIds,
      });
      return answer.newUser;
    },
  ),
  updateUser: fromPromise<
    UserRow,
    { execute: Execute; id: number; values: UserFormValues; instanceIds: number[]; version?: number | null }
  >(async ({ input }) => {
    const { values } = input;
    const answer = await input.execute(UpdateUserDocument, {
      id: input.id,
      // The version the form loaded: a change made since is refused as STALE (docs/lists.md, Versions).
      ...(input.version === null || input.version === undefined ? {} : { version: input.version }),
      username: values.username.trim(),
      name: values.name.trim(),
      email: values.email.trim(),
      role_id: values.role_id,
      user_department_id: values.user_department_id,
      // The complete set: links kept plus the instances added in the form.
      chosen_instances: input.instanceIds,
    });
    return answer.updateUser;
  }),
  removeLink: fromPromise<void, { execute: Execute; linkId: number }>(async ({ input }) =>
    confirmed(
      (await input.execute(DeleteUserInstanceDocument, { id: input.linkId })).deleteUserInstance,
      'deleteUserInstance',
    ),
  ),
};
