import type { TFunction } from 'i18next';
import { createContext, useContext } from 'react';
import type { Tenant } from '../../../machines/tenants/tenants-actors';
import type { MenuOption } from '../../components/menu';
import { MenuButton } from '../../components/menu-button';
import { Button } from '../../components/button';
import type { PanelTab } from './tenants-address';

/** What an admin can do to one tenant from the list: open a panel section, or change the tenant. */
export type TenantAction = PanelTab | 'edit' | 'setPlan' | 'delete' | 'restore';

const ACTIVE_ACTIONS = [
  'features',
  'webhooks',
  'analytics',
  'instances',
  'edit',
  'setPlan',
  'delete',
] as const satisfies readonly TenantAction[];

/** What back-office staff alone may do to a tenant (server/src/access/policies.ts `tenants`). */
const STAFF_ACTIONS: readonly TenantAction[] = ['edit', 'setPlan', 'delete', 'restore'];

/** What every row's action cell needs besides its tenant (read from context, not the columns). */
export interface TenantRowActionsState {
  /** A change is running: the machine takes one at a time. */
  busy: boolean;
  /** The tenant that change is about: its button spins. */
  pendingId: number | null;
  /** Back-office staff: anyone else gets the tenant's sections only (features read-only there). */
  staff: boolean;
  onAction: (action: TenantAction, tenant: Tenant) => void;
}

/**
 * What the rows read: the state, and the table's `t` (one `useTranslation` for the table instead of
 * one per row: each costs a translation function and a wrapper of i18next at mount, a tenth of the
 * rows' render on the sign-in path, docs/performance.md).
 */
export type TenantRowActionsValue = TenantRowActionsState & {
  t: TFunction;
  /** "Ações de <name>", translated once for the table (./row-labels.ts). */
  moreLabel: (name: string) => string;
};

export const TenantRowActionsContext = createContext<TenantRowActionsValue | null>(null);

function useRowActions(): TenantRowActionsValue {
  const state = useContext(TenantRowActionsContext);
  if (!state) throw new Error('TenantRowActions outside <TenantRowActionsContext>');
  return state;
}

function MoreIcon() {
  return (
    <svg width={16} height={16} viewBox="0 0 24 24" fill="currentColor" focusable="false" aria-hidden="true">
      <circle cx="5" cy="12" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="19" cy="12" r="2" />
    </svg>
  );
}

/**
 * A deleted tenant offers "Restaurar" as a plain button; an active one a menu with its sections
 * (features, webhooks, analytics, instances), editing its data, the plan, and delete last (danger).
 * Editing, the plan, delete and restore are back-office staff's: anyone else gets the sections only. Both are plain
 * buttons (the menu mounts only while it is open): a page of 100 rows stays light.
 */
export function TenantRowActions({ tenant }: { tenant: Tenant }) {
  const { busy, pendingId, staff, onAction, t, moreLabel } = useRowActions();
  const isPending = busy && pendingId === tenant.id;
  const pendingLabel = isPending ? t('common.loading') : undefined;
  // Only staff see deleted tenants (restoring is theirs): a customer's own tenant, deleted, cannot sign in.
  if (tenant.deleted_at !== null && staff) {
    return (
      <Button
        variant="secondary"
        size="sm"
        aria-label={t('tenants.screen.actions.restoreNamed', { name: tenant.name })}
        isPending={isPending}
        pendingLabel={pendingLabel}
        isDisabled={busy && !isPending}
        onPress={() => onAction('restore', tenant)}
      >
        {t('tenants.screen.actions.restore')}
      </Button>
    );
  }
  return (
    <MenuButton
      label={moreLabel(tenant.name)}
      icon={<MoreIcon />}
      size="sm"
      isPending={isPending}
      pendingLabel={pendingLabel}
      isDisabled={busy && !isPending}
      items={(): MenuOption[] =>
        ACTIVE_ACTIONS.filter((id) => staff || !STAFF_ACTIONS.includes(id)).map((id) => ({
          id,
          label: t(`tenants.screen.actions.${id}`),
          isDanger: id === 'delete',
        }))
      }
      onAction={(key) => {
        const action = ACTIVE_ACTIONS.find((id) => id === key);
        if (action) onAction(action, tenant);
      }}
    />
  );
}
