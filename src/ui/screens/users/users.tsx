import { useActorRef, useSelector } from '@xstate/react';
import { Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { sameSubject, selectSubject } from '../../../machines/session/access-selectors';
import { selectUser } from '../../../machines/session/session-selectors';
import { actOnRefusalOf } from '../../../machines/users/users-access';
import { usersMachine } from '../../../machines/users/users.machine';
import {
  parseUsersQuery,
  SORT_COLUMNS,
  userListApiQuery,
  USERS_PAGE_SIZE,
  type UsersQuery,
} from '../../../machines/users/users-query';
import { selectUsersQuery, usersQueryMachine } from '../../../machines/users/users-query.machine';
import {
  sameConfirm,
  sameQuickEdit,
  selectBusy,
  selectConfirm,
  selectForm,
  selectListShown,
  selectListStatus,
  selectQuickEdit,
} from '../../../machines/users/users-selectors';
import type { UserRow } from '../../../machines/users/users-actors';
import { Button } from '../../components/button';
import { ErrorState } from '../../components/error-state';
import { PlusIcon } from '../../components/icons';
import { Pagination } from '../../components/pagination';
import { lazyPart } from '../../components/lazy-with-timeout';
import { SearchField } from '../../components/search-field';
import { Spinner } from '../../components/spinner';
import { VisuallyHidden } from '../../components/visually-hidden';
import { ListViewsBar, useListViews } from '../../components/views/list-views';
import { useServices, useSession } from '../../hooks/services-context';
import { useAddressSync } from '../../hooks/use-address-sync';
import { useOutcomeToast } from '../../hooks/use-outcome-toast';
import { UserConfirmDialog } from './user-confirm-dialog';
import { useNarrow } from './use-narrow';
import { useRowAction } from './use-row-action';
import { UsersEmptyState } from './users-empty-state';
import { UsersTable } from './users-table';
import { UsersFilters } from './users-filters';
import { ListExportButton, ListExportStatus, useListExport } from '../../components/reports/list-export';
import { UsersBulk } from './users-bulk';
import { useListSelection } from '../../components/selection/use-list-selection';
import * as styles from './users.css';

// The create/edit form (its machine, password and instance pickers) and the quick edits load on first
// open, like the tenants' dialogs: the list paints without them.
const UserFormDialog = lazyPart(() => import('./user-form-dialog').then((m) => ({ default: m.UserFormDialog })));
const QuickEditDialog = lazyPart(() => import('./quick-edit-dialog').then((m) => ({ default: m.QuickEditDialog })));

/**
 * `/users`: the tenant's users a page at a time (read from the server, GraphQL `usersPage`) with role,
 * department and live presence; search, filters, sort and page in the address; create and edit (with password strength and instances), name-only and email-only
 * changes, block/unblock, two-factor, disconnect, the user's instances and delete. Everything below
 * the page title (the shell renders the h1). The users machine owns the dialogs; this view sends
 * what the admin asks for and shows the machine's state.
 */
export default function UsersScreen() {
  const { t, i18n } = useTranslation();
  const { clients, bus } = useServices();
  const subject = useSession(selectSubject, sameSubject);
  // Search, filters, sort and page live in their machine, mirrored in the address after a pause in typing.
  const address = useSearch();
  const queryActor = useActorRef(usersQueryMachine, { input: { search: address } });
  useAddressSync(queryActor, { emitted: 'usersQuery.changed', location: 'usersQuery.location' });
  const query = useSelector(queryActor, selectUsersQuery);
  const views = useListViews('users');
  const actor = useActorRef(usersMachine, {
    input: { execute: clients.graphql.execute, rest: clients.rest, subject, bus, query, awaitStart: views.opening },
  });
  // The list asks the server for the page of each new query (users.machine.ts debounces a typed search).
  useEffect(() => actor.send({ type: 'users.query', query }), [actor, query]);
  // A bare address loads nothing until the views are known (docs/lists.md, Views): the default view's query,
  // when there is one, is the first page asked for (its address follows); without one, the address's.
  useEffect(() => {
    const subscription = views.actor.on('views.apply', ({ view }) =>
      actor.send({ type: 'users.start', query: parseUsersQuery(view.state.query) }),
    );
    return () => subscription.unsubscribe();
  }, [actor, views.actor]);
  useEffect(() => {
    if (!views.opening) actor.send({ type: 'users.start' });
  }, [actor, views.opening]);
  // A page past the last (users deleted meanwhile): the list went to the last page; so does the address.
  useEffect(() => {
    const subscription = actor.on('users.pageMoved', ({ page }) =>
      queryActor.send({ type: 'usersQuery.change', change: { page } }),
    );
    return () => subscription.unsubscribe();
  }, [actor, queryActor]);
  // The rules follow the signed-in user's role and routes when they change (a live permission change).
  useEffect(() => actor.send({ type: 'users.subject', subject }), [actor, subject]);
  const rows = useSelector(actor, (s) => s.context.users);
  const total = useSelector(actor, (s) => s.context.total);
  const roles = useSelector(actor, (s) => s.context.roles);
  const departments = useSelector(actor, (s) => s.context.departments);
  const status = useSelector(actor, selectListStatus);
  const shown = useSelector(actor, selectListShown);
  const listError = useSelector(actor, (s) => s.context.listError);
  const busy = useSelector(actor, selectBusy);
  const target = useSelector(actor, (s) => s.context.target);
  const confirm = useSelector(actor, selectConfirm, sameConfirm);
  const quickEdit = useSelector(actor, selectQuickEdit, sameQuickEdit);
  const form = useSelector(actor, selectForm);
  const formView = useSelector(actor, (s) => s.context.formView);
  const selfId = useSession((s) => selectUser(s)?.id ?? null);
  const narrow = useNarrow();
  const setQuery = (change: Partial<UsersQuery>) => queryActor.send({ type: 'usersQuery.change', change });
  const searchRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const count = new Intl.NumberFormat(i18n.language);

  // After a delete the row and its menu button are gone: focus goes to the search, which still exists,
  // once the confirmation has unmounted (its focus scope then finds focus outside and leaves it there).
  const [focusSearch, setFocusSearch] = useState(0);
  useEffect(() => {
    if (focusSearch > 0) searchRef.current?.querySelector('input')?.focus();
  }, [focusSearch]);
  useOutcomeToast(actor, (outcome) => {
    if (outcome.ok && outcome.action === 'delete') setFocusSearch((n) => n + 1);
  });

  const onAction = useRowAction(actor);
  const pendingUserId = target?.id ?? null;
  const refusalOf = useCallback((user: UserRow) => actOnRefusalOf({ subject, roles }, user), [subject, roles]);
  const rowActions = useMemo(
    () => ({ narrow, busy, pendingUserId, selfId, onAction, refusalOf }),
    [narrow, busy, pendingUserId, selfId, onAction, refusalOf],
  );
  const sort = useMemo(() => ({ column: query.sort, direction: query.dir }), [query.sort, query.dir]);
  const createUser = () => actor.send({ type: 'users.create' });
  const exporter = useListExport();
  const { tenant } = useServices();
  // Bulk actions (docs/lists.md): rows ticked on any page, or every user the search and filters match
  // (`userIds` on the server); a new search or filter clears the selection, a new page or sort keeps it.
  const rowIds = useMemo(() => rows.map((row) => row.id), [rows]);
  const selection = useListSelection(
    JSON.stringify([query.q, query.role, query.department, query.blocked, query.online, query.twoFactor]),
    rowIds,
    total,
  );
  const filtered =
    query.q.trim() !== '' ||
    query.role !== null ||
    query.department !== null ||
    query.blocked !== null ||
    query.online !== null ||
    query.twoFactor !== null;
  const close = () => actor.send({ type: 'users.close' });

  return (
    <section className={styles.screen} aria-labelledby={headingId}>
      <VisuallyHidden>
        <h2 id={headingId}>{t('users.list.heading')}</h2>
      </VisuallyHidden>
      <div className={styles.toolbar}>
        <div ref={searchRef} className={styles.search}>
          <SearchField
            label={t('users.search.label')}
            placeholder={t('users.search.placeholder')}
            value={query.q}
            onChange={(q) => setQuery({ q })}
          />
        </div>
        <p className={styles.summary} role="status">
          {shown ? t('users.list.total', { count: total, total: count.format(total) }) : null}
        </p>
        <ListExportButton
          actor={exporter}
          request={() => ({ list: 'users', query: queryActor.getSnapshot().context.query, tenantName: tenant() })}
        />
        <Button icon={<PlusIcon />} onPress={createUser} isDisabled={!shown || busy}>
          {t('users.actions.create')}
        </Button>
      </div>
      <UsersFilters query={query} onChange={setQuery} roles={roles} departments={departments} />
      <ListExportStatus actor={exporter} />
      <ListViewsBar views={views} />
      <UsersBulk
        selection={selection}
        matching={userListApiQuery(query)}
        total={total}
        onDone={(changed) => {
          selection.clear();
          if (changed) actor.send({ type: 'users.reload' });
        }}
      />
      <UsersTable
        aria-labelledby={headingId}
        selection={{ selectedKeys: selection.selectedKeys, onSelectionChange: selection.onSelectionChange }}
        rows={rows}
        hiddenColumns={views.hidden}
        status={status}
        sort={sort}
        onSortChange={({ column, direction }) => {
          const sort = SORT_COLUMNS.find((id) => id === column);
          if (sort) setQuery({ sort, dir: direction });
        }}
        actions={rowActions}
        emptyState={
          <UsersEmptyState
            hasUsers={filtered}
            query={query.q}
            onClear={() =>
              setQuery({ q: '', role: null, department: null, blocked: null, online: null, twoFactor: null })
            }
            onCreate={createUser}
          />
        }
        errorState={
          <ErrorState
            title={listError ? t(listError.key) : undefined}
            description={listError ? t(listError.reason) : undefined}
            onRetry={() => actor.send({ type: 'users.reload' })}
          />
        }
      />
      {shown && total > USERS_PAGE_SIZE ? (
        <Pagination
          page={query.page}
          pageSize={USERS_PAGE_SIZE}
          total={total}
          onPageChange={(page) => setQuery({ page })}
        />
      ) : null}
      <Suspense fallback={<Spinner label={t('common.loading')} />}>
        {form ? <UserFormDialog form={form} view={formView} userName={target?.name ?? null} onClose={close} /> : null}
        {quickEdit ? (
          <QuickEditDialog
            key={`${quickEdit.field}-${quickEdit.user.id}`}
            field={quickEdit.field === 'rename' ? 'name' : 'email'}
            user={quickEdit.user}
            isPending={busy}
            error={quickEdit.error ? t(quickEdit.error) : null}
            onClose={close}
            onSubmit={(value) =>
              actor.send(
                quickEdit.field === 'rename'
                  ? { type: 'users.rename', name: value }
                  : { type: 'users.changeEmail', email: value },
              )
            }
          />
        ) : null}
      </Suspense>
      <UserConfirmDialog
        kind={confirm?.kind ?? null}
        user={confirm?.user ?? null}
        isPending={busy}
        onConfirm={() => actor.send({ type: 'users.confirm' })}
        onCancel={close}
      />
    </section>
  );
}
