import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { getHref } from '../../../../domain/paths';
import {
  roleCreateProblems,
  roleRenameProblems,
  rolesMachine,
  selectRolesStatus,
  type Role,
} from '../../../../machines/roles/roles.machine';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { PlusIcon } from '../../../components/icons';
import { Inline, Stack } from '../../../components/layout';
import { LinkButton } from '../../../components/link';
import { holdsEveryRoute } from '../../../../domain/route-access';
import { selectIsStaff } from '../../../../machines/session/access-selectors';
import { useServices, useSession } from '../../../hooks/services-context';
import { DeleteRoleDialog } from './delete-role-dialog';
import { CreateRoleDialog, RenameRoleDialog, type DialogFeedback } from './role-dialogs';
import * as styles from './roles-list.css';
import { useOutcomeToast } from '../../../hooks/use-outcome-toast';

type OpenDialog = { kind: 'create' } | { kind: 'rename'; role: Role } | { kind: 'delete'; role: Role } | null;

/**
 * `/roles/list`: every role with its permitted route count, a link to its permissions, creation,
 * renaming and deleting in dialogs. The administrador role is read-only (it passes every check).
 * A delete the server refuses (users hold the role) says why in its dialog and changes nothing.
 */
export default function RolesListScreen() {
  const { t } = useTranslation();
  const { clients } = useServices();
  const actor = useActorRef(rolesMachine, { input: { rest: clients.rest } });
  const roles = useSelector(actor, (s) => s.context.roles);
  const status = useSelector(actor, selectRolesStatus);
  const listError = useSelector(actor, (s) => s.context.listError);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [feedback, setFeedback] = useState<DialogFeedback | null>(null);
  const [, navigate] = useLocation();
  // Roles are shared by every tenant: only back-office staff create, rename or delete them.
  const staff = useSession(selectIsStaff);

  // A refusal shows in the dialog that asked, which stays open; a success closes it (the hook toasts it).
  useOutcomeToast(actor, (outcome) => {
    const { actionError, fieldErrors } = actor.getSnapshot().context;
    if (!outcome.ok && actionError) return setFeedback({ fieldErrors, formError: actionError });
    setDialog(null);
  });

  const open = (next: OpenDialog) => {
    setFeedback(null);
    setDialog(next);
  };
  const refuse = (fieldErrors: DialogFeedback['fieldErrors']) => {
    setFeedback({ fieldErrors, formError: null });
    return Object.keys(fieldErrors).length > 0;
  };

  const columns: DataTableColumn<Role>[] = [
    {
      id: 'display_name',
      header: t('roles.list.columns.displayName'),
      isRowHeader: true,
      cell: (role) => (
        <span className={styles.nameCell}>
          {role.display_name}
          {holdsEveryRoute(role.name) ? <Badge tone="info">{t('roles.list.readOnlyBadge')}</Badge> : null}
        </span>
      ),
    },
    {
      id: 'name',
      header: t('roles.list.columns.name'),
      cell: (role) => <code className={styles.code}>{role.name}</code>,
    },
    {
      id: 'routes',
      header: t('roles.list.columns.routes'),
      align: 'end',
      cell: (role) => (holdsEveryRoute(role.name) ? t('roles.list.allRoutes') : role.has_permission_routes.length),
    },
    {
      id: 'actions',
      header: t('roles.list.columns.actions'),
      align: 'end',
      cell: (role) => {
        const admin = holdsEveryRoute(role.name);
        const fixed = admin || !staff;
        return (
          <span className={styles.actions}>
            {fixed ? null : (
              <Button
                variant="ghost"
                size="sm"
                aria-label={t('roles.list.renameLabel', { name: role.display_name })}
                onPress={() => open({ kind: 'rename', role })}
              >
                {t('roles.list.rename')}
              </Button>
            )}
            {fixed ? null : (
              <Button
                variant="ghost"
                size="sm"
                aria-label={t('roles.list.deleteLabel', { name: role.display_name })}
                onPress={() => open({ kind: 'delete', role })}
              >
                {t('roles.list.delete')}
              </Button>
            )}
            <LinkButton
              size="sm"
              href={getHref('roles-edit', { id: role.id })}
              aria-label={t(fixed ? 'roles.list.viewLabel' : 'roles.list.editLabel', { name: role.display_name })}
            >
              {t(fixed ? 'roles.list.view' : 'roles.list.edit')}
            </LinkButton>
          </span>
        );
      },
    },
  ];

  return (
    <Stack gap="lg">
      <Inline justify="between" gap="md">
        <p className={styles.intro}>{t('roles.list.intro')}</p>
        {staff ? (
          <Button icon={<PlusIcon />} onPress={() => open({ kind: 'create' })} isDisabled={status !== 'ready'}>
            {t('roles.list.create')}
          </Button>
        ) : null}
      </Inline>
      {staff ? null : <p className={styles.notice}>{t('roles.staffOnly')}</p>}
      <DataTable
        aria-label={t('roles.list.tableLabel')}
        columns={columns}
        rows={roles}
        status={status}
        // A click or Enter on a row opens its permissions (on a phone the actions column is off-screen).
        onRowAction={(id) => navigate(getHref('roles-edit', { id: String(id) }))}
        emptyState={
          <EmptyState
            title={t('roles.list.empty')}
            description={t('roles.list.emptyHint')}
            action={
              staff ? (
                <Button variant="secondary" icon={<PlusIcon />} onPress={() => open({ kind: 'create' })}>
                  {t('roles.list.create')}
                </Button>
              ) : undefined
            }
          />
        }
        errorState={
          <ErrorState
            title={listError ? t(listError.key) : undefined}
            description={listError ? t(listError.reason) : undefined}
            onRetry={() => actor.send({ type: 'roles.reload' })}
          />
        }
      />
      <CreateRoleDialog
        isOpen={dialog?.kind === 'create'}
        onClose={() => setDialog(null)}
        isPending={busy}
        feedback={feedback}
        onSubmit={(name, displayName) => {
          if (!refuse(roleCreateProblems(name, displayName))) actor.send({ type: 'roles.create', name, displayName });
        }}
      />
      <RenameRoleDialog
        isOpen={dialog?.kind === 'rename'}
        onClose={() => setDialog(null)}
        isPending={busy}
        feedback={feedback}
        currentName={dialog?.kind === 'rename' ? dialog.role.display_name : ''}
        onSubmit={(displayName) => {
          if (dialog?.kind === 'rename' && !refuse(roleRenameProblems(displayName)))
            actor.send({ type: 'roles.rename', id: dialog.role.id, displayName });
        }}
      />
      <DeleteRoleDialog
        role={dialog?.kind === 'delete' ? dialog.role : null}
        isPending={busy}
        error={dialog?.kind === 'delete' ? (feedback?.formError ?? null) : null}
        onCancel={() => setDialog(null)}
        onConfirm={() => {
          if (dialog?.kind === 'delete') actor.send({ type: 'roles.delete', id: dialog.role.id });
        }}
      />
    </Stack>
  );
}
