import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { MultiSelect } from '../../components/multi-select';
import type { UserFormRef } from './user-form-fields';
import * as styles from './users.css';

/**
 * The user's instances: when editing, the current links, each removed at once (GraphQL
 * `deleteUserInstance`; the instance becomes choosable again); and a multi-select of the instances
 * to add, sent with the save (`chosen_instances`).
 */
export function UserInstancesSection({ form, onRemove }: { form: UserFormRef; onRemove: (linkId: number) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const mode = useSelector(form, (s) => s.context.mode);
  const links = useSelector(form, (s) => s.context.links);
  const instances = useSelector(form, (s) => s.context.instances);
  const chosen = useSelector(form, (s) => s.context.chosen);
  const removing = useSelector(form, (s) => s.context.removing);
  const busy = useSelector(form, (s) => s.hasTag('busy'));

  const choose = (next: readonly unknown[]) => {
    // The machine toggles one instance at a time; the select reports the whole new set.
    const ids = next.filter((key): key is number => typeof key === 'number');
    for (const id of instances.map((instance) => instance.id)) {
      if (ids.includes(id) !== chosen.includes(id)) form.send({ type: 'users.form.toggleInstance', instanceId: id });
    }
  };

  const picker = (
    <MultiSelect
      label={mode === 'edit' ? t('users.form.addInstances') : t('users.form.instances')}
      items={instances.map((instance) => ({
        id: instance.id,
        label: instance.name,
        description: instance.activated ? undefined : t('users.form.linkInactive'),
      }))}
      value={chosen}
      onChange={choose}
      isDisabled={busy || instances.length === 0}
      description={
        mode === 'edit' && links.length > 0 && instances.length === 0 ? t('users.form.noInstancesLeft') : undefined
      }
    />
  );
  if (mode === 'create') return picker;
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.sectionTitle}>
        {t('users.form.links')}
      </h3>
      {links.length === 0 ? (
        <p className={styles.help}>{t('users.form.noLinks')}</p>
      ) : (
        <>
          <p className={styles.help}>{t('users.form.removeLinkHelp')}</p>
          <ul className={styles.links}>
            {links.map((link) => (
              <li key={link.id} className={styles.link}>
                <span className={styles.linkName}>
                  {link.instance.name}
                  {link.instance.activated ? null : <Badge tone="warning">{t('users.form.linkInactive')}</Badge>}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('users.form.removeLinkNamed', { name: link.instance.name })}
                  isPending={removing === link.id}
                  isDisabled={busy && removing !== link.id}
                  onPress={() => onRemove(link.id)}
                >
                  {t('users.form.removeLink')}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
      {picker}
    </section>
  );
}
