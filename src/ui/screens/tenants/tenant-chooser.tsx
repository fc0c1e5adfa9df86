import { useActorRef, useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { tenantOptionsMachine } from '../../../machines/tenants/tenant-options.machine';
import { ComboBox } from '../../components/combo-box';
import { useServices } from '../../hooks/services-context';
import * as styles from './tenants.css';

/**
 * Which tenant the panel is about, when the address names none (the menu's "Instâncias/Conexões"):
 * every active tenant the admin may see (`GET /api/tenant/false`), starting at the address's tenant.
 */
export function TenantChooser({ value, onChange }: { value: string; onChange: (name: string) => void }) {
  const { t } = useTranslation();
  const { clients } = useServices();
  const actor = useActorRef(tenantOptionsMachine, { input: { rest: clients.rest } });
  const tenants = useSelector(actor, (s) => s.context.tenants);
  const items = tenants.some((tenant) => tenant.name === value) ? tenants : [{ id: 0, name: value }, ...tenants];
  return (
    <div className={styles.panelHeader}>
      <ComboBox
        label={t('tenants.panel.chooseTenant')}
        items={items.map((tenant) => ({ id: tenant.name, label: tenant.name }))}
        selectedKey={value}
        onSelectionChange={(key) => {
          if (typeof key === 'string' && key !== value) onChange(key);
        }}
      />
    </div>
  );
}
