import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { menuHref, visibleMenu } from '../../../domain/menu';
import { selectAccessSubject, selectUser } from '../../../machines/session/session-selectors';
import { Card } from '../../components/card';
import { EmptyState } from '../../components/empty-state';
import { usePreferences, useServices, useSession } from '../../hooks/services-context';
import { MENU_ICONS, StarIcon } from '../../shell/icons';
import * as styles from './home.css';

/** `/`: who is signed in, in which tenant, the starred pages and the sections at hand. */
export default function HomeScreen() {
  const { t } = useTranslation();
  const { tenant } = useServices();
  const user = useSession(selectUser);
  const subject = useSession(selectAccessSubject, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const starred = usePreferences((s) => s.context.starred);
  const shortcuts = visibleMenu(subject)
    .flatMap((section) => section.items)
    .filter((item) => item.route !== 'comingsoon');

  return (
    <div className={styles.grid}>
      <Card title={t('home.greeting', { name: user?.name ?? '' })}>
        <dl className={styles.facts}>
          <dt>{t('home.email')}</dt>
          <dd>{user?.email}</dd>
          <dt>{t('home.role')}</dt>
          <dd>{user?.role.display_name ?? user?.role.name}</dd>
          <dt>{t('home.department')}</dt>
          <dd>{user?.userDepartment?.name ?? t('home.noDepartment')}</dd>
          <dt>{t('home.tenant')}</dt>
          <dd>{tenant()}</dd>
        </dl>
      </Card>
      <Card title={t('home.starred')}>
        {starred.length === 0 ? (
          <EmptyState icon={<StarIcon size={24} />} title={t('home.noStarred')} description={t('home.noStarredHint')} />
        ) : (
          <ul className={styles.links}>
            {starred.map((page) => (
              <li key={page.href}>
                <Link href={page.href} className={styles.link}>
                  <StarIcon size={16} className={styles.star} />
                  {t(page.titleKey as never)}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title={t('home.shortcuts')} className={styles.wide}>
        <ul className={styles.tiles}>
          {shortcuts.map((item) => {
            const Icon = MENU_ICONS[item.icon];
            return (
              <li key={item.id}>
                <Link href={menuHref(item)} className={styles.tile}>
                  <Icon size={20} />
                  {t(item.labelKey)}
                </Link>
              </li>
            );
          })}
        </ul>
      </Card>
    </div>
  );
}
