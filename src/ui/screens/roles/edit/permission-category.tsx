import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../../domain/i18n-key';
import { routes } from '../../../../domain/paths';
import type { PermissionGroup } from '../../../../machines/roles/role-permissions.machine';
import { Card } from '../../../components/card';
import { Checkbox, CheckboxGroup } from '../../../components/checkbox';
import { LockIcon } from '../../../components/icons';
import { Grid } from '../../../components/layout';
import { VisuallyHidden } from '../../../components/visually-hidden';
import * as styles from './roles-edit.css';

const CATEGORY_KEYS: Readonly<Record<string, I18nKey>> = {
  gestao: 'roles.categories.gestao',
  dashboard: 'roles.categories.dashboard',
  relatorios: 'roles.categories.relatorios',
};

/** The translated name of a permission category, or the server's own for one the panel does not know yet. */
export function useCategoryLabel(): (category: string) => string {
  const { t } = useTranslation();
  return (category) => {
    const key = CATEGORY_KEYS[category];
    return key ? t(key) : category;
  };
}

/** A permission is a route name (docs/product.md, Roles and route permissions): its label is the page's title. */
const ROUTE_TITLES: ReadonlyMap<string, string> = new Map(routes.map((route) => [route.name, route.titleKey]));

/**
 * A permission's label as the menu names its page (docs/product.md, Glossary), never the raw route
 * name; a route the panel does not know yet keeps the server's display name.
 */
export function usePermissionLabel(): (routeName: string, displayName: string) => string {
  const { t } = useTranslation();
  return (routeName, displayName) => {
    const key = ROUTE_TITLES.get(routeName);
    return key ? t(key as I18nKey) : displayName;
  };
}

export interface PermissionCategoryProps {
  group: PermissionGroup;
  isReadOnly: boolean;
  /** The note that says why some boxes are disabled (the editor lacks those permissions). */
  lockedNoticeId: string;
  onToggle: (routeName: string) => void;
  onToggleAll: (enabled: boolean) => void;
}

/** One category of the role editor: a card with its count, a select-all box and the checkbox group. */
export function PermissionCategory({
  group,
  isReadOnly,
  lockedNoticeId,
  onToggle,
  onToggleAll,
}: PermissionCategoryProps) {
  const { t } = useTranslation();
  const label = useCategoryLabel()(group.category);
  const permissionLabel = usePermissionLabel();
  const checked = group.permissions.filter((p) => p.checked).map((p) => p.routeName);
  const total = group.permissions.length;
  return (
    <Card
      title={label}
      headingLevel={3}
      actions={
        <span className={styles.categoryTools}>
          <span className={styles.count}>{t('roles.edit.count', { selected: checked.length, total })}</span>
          {isReadOnly || !group.selectable ? null : (
            <Checkbox
              aria-label={t('roles.edit.selectAllIn', { category: label })}
              isSelected={group.allChecked}
              isIndeterminate={group.someChecked}
              onChange={onToggleAll}
            >
              {t('roles.edit.selectAll')}
            </Checkbox>
          )}
        </span>
      }
    >
      <CheckboxGroup
        label={<VisuallyHidden>{t('roles.edit.permissionsOf', { category: label })}</VisuallyHidden>}
        value={checked}
        isReadOnly={isReadOnly}
        onChange={(next) => {
          const changed = group.permissions.find((p) => next.includes(p.routeName) !== p.checked);
          if (changed) onToggle(changed.routeName);
        }}
      >
        <Grid minColumnWidth="15rem" gap="sm">
          {group.permissions.map((permission) => (
            <span key={permission.routeName} className={styles.permission} data-route={permission.routeName}>
              <Checkbox
                value={permission.routeName}
                isDisabled={permission.locked !== null}
                aria-describedby={permission.locked ? lockedNoticeId : undefined}
              >
                {permissionLabel(permission.routeName, permission.displayName)}
              </Checkbox>
              {permission.locked ? <LockIcon size={12} className={styles.lockIcon} /> : null}
            </span>
          ))}
        </Grid>
      </CheckboxGroup>
    </Card>
  );
}
