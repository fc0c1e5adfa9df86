import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isDirty,
  rolePermissionsMachine,
  selectConflict,
  selectConflictOpen,
  selectEditorPhase,
  selectMine,
  selectResolving,
  selectReadOnly,
  selectRenaming,
  selectSaving,
  selectShownGroups,
  type PermissionGroup,
} from '../../../../machines/roles/role-permissions.machine';
import { holdsEveryRoute } from '../../../../domain/route-access';
import { roleRenameProblems } from '../../../../machines/roles/roles.machine';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ConflictNotice } from '../../../components/conflict-notice/conflict-notice';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { Stack } from '../../../components/layout';
import { Skeleton } from '../../../components/skeleton';
import { Spinner } from '../../../components/spinner';
import { sameSubject, selectIsStaff, selectSubject } from '../../../../machines/session/access-selectors';
import { useServices, useSession } from '../../../hooks/services-context';
import { RenameRoleDialog, type DialogFeedback } from '../list/role-dialogs';
import { useOutcomeToast } from '../../../hooks/use-outcome-toast';
import { PermissionCategory, usePermissionLabel } from './permission-category';
import { RoleNotFound } from './role-not-found';
import * as styles from './roles-edit.css';
import { SaveBar } from './save-bar';
import { useLeaveGuard } from '../../../hooks/use-leave-guard';

const sameGroups = (a: PermissionGroup[], b: PermissionGroup[]) => JSON.stringify(a) === JSON.stringify(b);

/** The role editor for one role id (see `RolesEditScreen`). */
export function RoleEditor({ roleId }: { roleId: number }) {
  const { t } = useTranslation();
  const { clients, bus } = useServices();
  const subject = useSession(selectSubject, sameSubject);
  const staff = useSession(selectIsStaff);
  const actor = useActorRef(rolePermissionsMachine, { input: { rest: clients.rest, roleId, subject, staff, bus } });
  // The rules follow the signed-in user's role and routes when they change (a live permission change).
  useEffect(() => actor.send({ type: 'roles.subject', subject }), [actor, subject]);
  const lockedNoticeId = useId();
  const role = useSelector(actor, (s) => s.context.role);
  const loadError = useSelector(actor, (s) => s.context.loadError);
  const phase = useSelector(actor, selectEditorPhase);
  const groups = useSelector(actor, selectShownGroups, sameGroups);
  const dirty = useSelector(actor, (s) => isDirty(s.context));
  const saving = useSelector(actor, selectSaving);
  const renaming = useSelector(actor, selectRenaming);
  const readOnly = useSelector(actor, selectReadOnly);
  const conflict = useSelector(actor, selectConflict);
  const conflictOpen = useSelector(actor, selectConflictOpen);
  const resolving = useSelector(actor, selectResolving);
  const mine = useSelector(actor, selectMine, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const conflictError = useSelector(actor, (s) => (s.matches('conflict') ? s.context.actionError : null));
  const categories = useSelector(actor, (s) => s.context.categories);
  const editable = role !== null && readOnly === null;
  // Renaming changes no permission: staff may rename any role but the administrador, their own included.
  const renamable = role !== null && staff && !holdsEveryRoute(role.name);
  const guard = useLeaveGuard(dirty && editable);
  // A permission reads as the checklist names it, not by its route name.
  const permissionLabel = usePermissionLabel();
  const permissionName = (_field: string, routeName: string) =>
    permissionLabel(
      routeName,
      categories.flatMap((c) => c.permissions).find((p) => p.route_name === routeName)?.display_name ?? routeName,
    );
  const [renameOpen, setRenameOpen] = useState(false);
  const [feedback, setFeedback] = useState<DialogFeedback | null>(null);

  // A refused rename shows in its dialog, which stays open; a renamed role closes it.
  useOutcomeToast(actor, (outcome) => {
    if (outcome.action !== 'rename') return;
    const { actionError, fieldErrors } = actor.getSnapshot().context;
    if (!outcome.ok && actionError) return setFeedback({ fieldErrors, formError: actionError });
    setRenameOpen(false);
  });

  if (phase === 'loading') {
    return (
      <div aria-busy="true" className={styles.loading}>
        <Spinner label={t('common.loading')} />
        <Skeleton width="16rem" height="2rem" />
        <Skeleton lines={6} />
      </div>
    );
  }
  if (phase === 'failed' || role === null) {
    if (loadError?.reason === 'apiErrors.notFound') return <RoleNotFound id={String(roleId)} />;
    return (
      <ErrorState
        title={loadError ? t(loadError.key) : undefined}
        description={loadError ? t(loadError.reason) : undefined}
        onRetry={() => actor.send({ type: 'roles.reload' })}
      />
    );
  }

  const anyLocked = groups.some((g) => g.permissions.some((p) => p.locked !== null));
  const selected = groups.reduce((n, g) => n + g.permissions.filter((p) => p.checked).length, 0);
  const total = groups.reduce((n, g) => n + g.permissions.length, 0);
  return (
    <Stack gap="lg">
      <div className={styles.header}>
        <Stack gap="xs">
          <h2 className={styles.titleRow}>
            {role.display_name}
            {editable ? null : <Badge tone="info">{t('roles.list.readOnlyBadge')}</Badge>}
          </h2>
          <p className={styles.muted}>{t('roles.edit.identifier', { name: role.name })}</p>
          <p className={styles.muted} aria-live="polite">
            {t('roles.edit.summary', { selected, total })}
          </p>
        </Stack>
        {renamable ? (
          <Button variant="secondary" onPress={() => (setFeedback(null), setRenameOpen(true))} isDisabled={saving}>
            {t('roles.list.rename')}
          </Button>
        ) : null}
      </div>
      {readOnly ? <p className={styles.notice}>{t(readOnly)}</p> : null}
      {conflict ? (
        <ConflictNotice
          conflict={conflict}
          mine={mine}
          targetType="role"
          itemLabel={permissionName}
          resolving={resolving}
          onReapply={() => actor.send({ type: 'conflict.reapply' })}
          onDiscard={() => actor.send({ type: 'conflict.discard' })}
          onDismiss={() => actor.send({ type: 'conflict.dismiss' })}
        />
      ) : null}
      {conflictError ? (
        <p className={styles.notice} role="alert">
          {t(conflictError.key)} {t(conflictError.reason)}
        </p>
      ) : null}
      {editable && anyLocked ? (
        <p id={lockedNoticeId} className={styles.notice}>
          {t('roles.edit.lockedNotice')}
        </p>
      ) : null}
      {groups.length === 0 ? <EmptyState title={t('roles.edit.noPermissions')} /> : null}
      {groups.map((group) => (
        <PermissionCategory
          key={group.category}
          group={group}
          isReadOnly={!editable || saving || conflictOpen}
          lockedNoticeId={lockedNoticeId}
          onToggle={(routeName) => actor.send({ type: 'roles.toggle', routeName })}
          onToggleAll={(enabled) => actor.send({ type: 'roles.toggleCategory', category: group.category, enabled })}
        />
      ))}
      {editable && !conflictOpen ? (
        <SaveBar
          dirty={dirty}
          saving={saving}
          onSave={() => actor.send({ type: 'roles.save' })}
          onDiscard={() => actor.send({ type: 'roles.reset' })}
        />
      ) : null}
      <RenameRoleDialog
        isOpen={renameOpen}
        onClose={() => setRenameOpen(false)}
        isPending={renaming}
        feedback={feedback}
        currentName={role.display_name}
        onSubmit={(displayName) => {
          const problems = roleRenameProblems(displayName);
          setFeedback({ fieldErrors: problems, formError: null });
          if (Object.keys(problems).length > 0) return;
          if (displayName.trim() === role.display_name) return setRenameOpen(false);
          actor.send({ type: 'roles.rename', displayName });
        }}
      />
      <ConfirmDialog
        isOpen={guard.target !== null}
        onOpenChange={(open) => !open && guard.stay()}
        title={t('roles.edit.leaveTitle')}
        message={t('roles.edit.leaveBody')}
        confirmLabel={t('roles.edit.leaveConfirm')}
        cancelLabel={t('roles.edit.stay')}
        variant="danger"
        onConfirm={guard.leave}
      />
    </Stack>
  );
}
