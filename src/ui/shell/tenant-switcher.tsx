import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { ComboBox } from '../components/combo-box';
import { tenantOptionsMachine } from '../../machines/tenants/tenant-options.machine';
import { useServices } from '../hooks/services-context';
import * as styles from './navbar.css';

/**
 * Back-office staff act in any tenant (docs/product.md, Tenants in the address): choosing one changes the first path segment and
 * keeps the page; the socket reconnects for the new tenant.
 */
export function TenantSwitcher() {
  const { t } = useTranslation();
  const { clients, tenant } = useServices();
  const options = useActorRef(tenantOptionsMachine, { input: { rest: clients.rest } });
  const tenants = useSelector(options, (s) => s.context.tenants);
  const [path, navigate] = useLocation();
  const search = useSearch();
  const current = tenant();
  const items = (tenants.some((x) => x.name === current) ? tenants : [{ id: 0, name: current }, ...tenants]).map(
    (x) => ({ id: x.name, label: x.name }),
  );
  return (
    <ComboBox
      label={t('shell.tenant')}
      labelHidden
      className={styles.tenantSwitcher}
      items={items}
      selectedKey={current}
      onSelectionChange={(key) => {
        if (typeof key !== 'string' || key === current) return;
        // "~" leaves the router base: the tenant is the base.
        navigate(`~/${key}${path}${search ? `?${search}` : ''}`);
      }}
    />
  );
}
