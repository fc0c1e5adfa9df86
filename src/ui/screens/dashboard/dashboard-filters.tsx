import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { DashboardActor } from '../../../machines/dashboard/dashboard.machine';
import { tenantOptionsMachine } from '../../../machines/tenants/tenant-options.machine';
import { ComboBox } from '../../components/combo-box';
import { useServices } from '../../hooks/services-context';
import * as styles from './dashboard.css';
import { PeriodFilter } from './period-filter';

const ALL = '*';

/** Staff: one tenant or every tenant, from the active tenants (`tenantOptionsMachine`). */
function TenantFilter({ actor }: { actor: DashboardActor }) {
  const { t } = useTranslation();
  const { clients } = useServices();
  const options = useActorRef(tenantOptionsMachine, { input: { rest: clients.rest } });
  const tenants = useSelector(options, (s) => s.context.tenants);
  const selected = useSelector(actor, (s) => s.context.query.tenant);
  const names = tenants.map((x) => x.name);
  if (selected !== null && !names.includes(selected)) names.unshift(selected);
  const items = [
    { id: ALL, label: t('dashboard.filters.allTenants') },
    ...names.map((name) => ({ id: name, label: name })),
  ];
  return (
    <ComboBox
      className={styles.filterField}
      label={t('dashboard.filters.tenant')}
      items={items}
      selectedKey={selected ?? ALL}
      onSelectionChange={(key) => {
        if (typeof key !== 'string') return;
        actor.send({ type: 'dashboard.tenant', tenant: key === ALL ? null : key });
      }}
    />
  );
}

/** The dashboard's filters: period for everyone, tenant for staff (others see which tenant it is). */
export function DashboardFilters({ actor, staff }: { actor: DashboardActor; staff: boolean }) {
  const { t } = useTranslation();
  const tenant = useSelector(actor, (s) => s.context.query.tenant);
  return (
    <section className={styles.filters} aria-label={t('dashboard.filters.label')}>
      <PeriodFilter actor={actor} />
      {staff ? (
        <TenantFilter actor={actor} />
      ) : (
        <p className={styles.ownTenant}>{t('dashboard.filters.ownTenant', { name: tenant ?? '' })}</p>
      )}
    </section>
  );
}
