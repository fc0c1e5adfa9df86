import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button';
import * as styles from './roles-edit.css';

export interface SaveBarProps {
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  onDiscard: () => void;
}

/** The role editor's sticky bar: whether there is something to save, discard and save. */
export function SaveBar({ dirty, saving, onSave, onDiscard }: SaveBarProps) {
  const { t } = useTranslation();
  return (
    <div className={dirty || saving ? `${styles.actionBar} ${styles.sticky}` : styles.actionBar}>
      <p className={dirty ? styles.dirty : styles.clean} role="status">
        {dirty ? t('roles.unsaved') : t('roles.edit.saved')}
      </p>
      <div className={styles.buttons}>
        <Button variant="secondary" onPress={onDiscard} isDisabled={!dirty || saving}>
          {t('roles.edit.discard')}
        </Button>
        <Button
          onPress={onSave}
          isDisabled={!dirty && !saving}
          isPending={saving}
          pendingLabel={t('roles.edit.saving')}
        >
          {t('roles.edit.save')}
        </Button>
      </div>
    </div>
  );
}
