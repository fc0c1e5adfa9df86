import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectUser } from '../../../machines/session/session-selectors';
import { USER_ACTION_ERRORS, usersMachine, type UsersSnapshot } from '../../../machines/users/users.machine';
import type { UserRow } from '../../../machines/users/users-actors';
import { Button } from '../../components/button';
import { ErrorState } from '../../components/error-state';
import { PlusIcon } from '../../components/icons';
import { SearchField } from '../../components/search-field';
import { Spinner } from '../../components/spinner';
import { VisuallyHidden } from '../../components/visually-hidden';
import { useServices, useSession } from '../../hooks/services-context';
import { UserConfirmDialog, type ConfirmKind } from './user-confirm-dialog';
import type { FormView } from './user-form-dialog';
import type { RowAction } from './user-row-actions';
import { useNarrow } from './use-narrow';
import { useUsersFeedback, type Intent } from './use-users-feedback';
import { useUsersQuery } from './use-users-query';
import { UsersEmptyState } from './users-empty-state';
import { indexUsers, queryUsers, SORT_COLUMNS } from './users-query';
import { UsersTable } from './users-table';
import * as styles from './users.css';

// The create/edit form (its machine, password and instance pickers) and the quick edits load on first
// open, like the tenants' dialogs: the list paints without them.
const UserFormDialog = lazy(() => import('./user-form-dialog').then((m) => ({ default: m.UserFormDialog })));
const QuickEditDialog = lazy(() => import('./quick-edit-dialog').then((m) => ({ default: m.QuickEditDialog })));

/** A dialog the screen owns (delete confirmation and the form are the machine's own states). */
type LocalDialog =
  | { kind: 'rename' | 'changeEmail'; user: UserRow }
  | { kind: 'confirm'; confirm: Exclude<ConfirmKind, 'delete'>; user: UserRow }
  | null;

const selectStatus = (s: UsersSnapshot) => (s.matches('loading') ? 'loading' : s.matches('failed') ? 'error' : 'ready');

/**
 * `/users`: every user of the tenant with role, department and live presence; search and sort in
 * the address; create and edit (with password strength and instances), name-only and email-only
 * changes, block/unblock, two-factor, disconnect, the user's instances and delete. Everything below
 * the page title (the shell renders the h1).
 */
export default function UsersScreen() {
  const { t, i18n } = useTranslation();
  const { clients } = useServices();
  const actor = useActorRef(usersMachine, { input: { execute: clients.graphql.execute, rest: clients.rest } });
  const users = useSelector(actor, (s) => s.context.users);
  const status = useSelector(actor, selectStatus);
  const listError = useSelector(actor, (s) => s.context.listError);
  const actionError = useSelector(actor, (s) => s.context.actionError);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const target = useSelector(actor, (s) => s.context.target);
  const deleteStep = useSelector(actor, (s) =>
    s.matches({ ready: 'deleting' }) ? 'deleting' : s.matches({ ready: 'confirmingDelete' }) ? 'confirming' : null,
  );
  const form = useSelector(actor, (s) => s.children.userForm);
  const selfId = useSession((s) => selectUser(s)?.id ?? null);
  const narrow = useNarrow();
  const [query, setQuery] = useUsersQuery();
  const deferred = useDeferredValue(query);
  const collator = useMemo(
    () => new Intl.Collator(i18n.language, { sensitivity: 'base', numeric: true }),
    [i18n.language],
  );
  const index = useMemo(() => indexUsers(users), [users]);
  const rows = useMemo(() => queryUsers(index, deferred, collator), [index, deferred, collator]);
  const [dialog, setDialog] = useState<LocalDialog>(null);
  const [formView, setFormView] = useState<FormView>('full');
  const intent = useRef<Intent | null>(null);
  const searchRef = useRef<HTMLDivElement>(null);
  const headingId = useId();
  const count = new Intl.NumberFormat(i18n.language);

  // After a delete the row and its menu button are gone: focus goes to the search, which still exists,
  // once the confirmation has unmounted (its focus scope then finds focus outside and leaves it there).
  const [focusSearch, setFocusSearch] = useState(0);
  useEffect(() => {
    if (focusSearch > 0) searchRef.current?.querySelector('input')?.focus();
  }, [focusSearch]);

  useUsersFeedback(actor, intent, {
    onSuccess: (action) => {
      setDialog(null);
      if (action === 'delete') setFocusSearch((n) => n + 1);
    },
    onFailure: () => setDialog(null),
  });

  const ask = (kind: Intent['kind'], user: UserRow | null) => {
    intent.current = { kind, user };
  };
  // Stable, so the row cells (10,000 of them) are not re-rendered by a new handler.
  const onAction = useCallback(
    (action: RowAction, user: UserRow) => {
      const asked = (kind: Intent['kind']) => {
        intent.current = { kind, user };
      };
      switch (action) {
        case 'edit':
        case 'instances':
          asked('edit');
          setFormView(action === 'edit' ? 'full' : 'instances');
          return actor.send({ type: 'users.edit', user });
        case 'rename':
        case 'changeEmail':
          return setDialog({ kind: action, user });
        case 'block':
        case 'disconnect':
        case 'twoFactorOff':
          return setDialog({ kind: 'confirm', confirm: action, user });
        case 'unblock':
          asked('unblock');
          return actor.send({ type: 'users.block', user, blocked: false });
        case 'twoFactorOn':
          asked('twoFactorOn');
          return actor.send({ type: 'users.twoFactor', user, enabled: true });
        case 'delete':
          asked('delete');
          return actor.send({ type: 'users.delete', user });
      }
    },
    [actor],
  );
  const pendingUserId = target?.id ?? null;
  const rowActions = useMemo(
    () => ({ narrow, busy, pendingUserId, selfId, onAction }),
    [narrow, busy, pendingUserId, selfId, onAction],
  );
  const sort = useMemo(() => ({ column: query.sort, direction: query.dir }), [query.sort, query.dir]);
  const confirmLocal = () => {
    if (dialog?.kind !== 'confirm') return;
    const { confirm, user } = dialog;
    ask(confirm, user);
    if (confirm === 'block') actor.send({ type: 'users.block', user, blocked: true });
    else if (confirm === 'disconnect') actor.send({ type: 'users.disconnect', user });
    else actor.send({ type: 'users.twoFactor', user, enabled: false });
  };
  const createUser = () => {
    ask('create', null);
    setFormView('full');
    actor.send({ type: 'users.create' });
  };
  const quickError = (field: 'rename' | 'changeEmail') =>
    actionError?.key === USER_ACTION_ERRORS[field]
      ? t(
          field === 'changeEmail' && actionError.reason === 'apiErrors.conflict'
            ? 'apiErrors.fieldTaken'
            : actionError.reason,
        )
      : null;

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
          {status === 'ready'
            ? t('users.list.summary', { shown: count.format(rows.length), total: count.format(users.length) })
            : null}
        </p>
        <Button icon={<PlusIcon />} onPress={createUser} isDisabled={status !== 'ready' || busy}>
          {t('users.actions.create')}
        </Button>
      </div>
      <UsersTable
        aria-labelledby={headingId}
        rows={rows}
        totalUsers={users.length}
        status={status}
        sort={sort}
        onSortChange={({ column, direction }) => {
          const sort = SORT_COLUMNS.find((id) => id === column);
          if (sort) setQuery({ sort, dir: direction });
        }}
        actions={rowActions}
        emptyState={
          <UsersEmptyState
            hasUsers={users.length > 0}
            query={deferred.q}
            onClear={() => setQuery({ q: '' })}
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
      <Suspense fallback={<Spinner label={t('common.loading')} />}>
        {form ? (
          <UserFormDialog
            form={form}
            view={formView}
            userName={target?.name ?? null}
            onClose={() => actor.send({ type: 'users.close' })}
          />
        ) : null}
        {dialog?.kind === 'rename' || dialog?.kind === 'changeEmail' ? (
          <QuickEditDialog
            field={dialog.kind === 'rename' ? 'name' : 'email'}
            user={dialog.user}
            isPending={busy}
            error={quickError(dialog.kind)}
            onClose={() => setDialog(null)}
            onSubmit={(value) => {
              ask(dialog.kind, dialog.user);
              actor.send(
                dialog.kind === 'rename'
                  ? { type: 'users.rename', user: dialog.user, name: value }
                  : { type: 'users.changeEmail', user: dialog.user, email: value },
              );
            }}
          />
        ) : null}
      </Suspense>
      <UserConfirmDialog
        kind={deleteStep ? 'delete' : dialog?.kind === 'confirm' ? dialog.confirm : null}
        user={deleteStep ? target : dialog?.kind === 'confirm' ? dialog.user : null}
        isPending={busy}
        onConfirm={deleteStep ? () => actor.send({ type: 'users.confirm' }) : confirmLocal}
        onCancel={deleteStep ? () => actor.send({ type: 'users.close' }) : () => setDialog(null)}
      />
    </section>
  );
}
