import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import type { AppRoute } from '../../domain/paths';
import { selectIsStarred } from '../../machines/preferences/preferences.machine';
import { IconButton } from '../components/button';
import { appToasts, showToast } from '../components/toast-queue';
import { usePreferences, useServices } from '../hooks/services-context';
import { StarIcon } from './icons';
import * as styles from './page-header.css';

/** The page title (h1, from the route table) and its star: add to or remove from the navbar's favourites. */
export function PageHeader({ route }: { route: AppRoute }) {
  const { t } = useTranslation();
  const { preferences } = useServices();
  const [path] = useLocation();
  const search = useSearch();
  const href = search ? `${path}?${search}` : path;
  const starred = usePreferences((s) => selectIsStarred(s, href));
  const refusal = usePreferences((s) => s.context.refusal);

  // The 11th star is refused by the machine (docs/product.md, Limits): say why.
  useEffect(() => {
    if (refusal) showToast(appToasts, { variant: 'error', title: t(refusal.key, refusal.params) });
  }, [refusal, t]);

  return (
    <div className={styles.header}>
      <h1 className={styles.title}>{t(route.titleKey)}</h1>
      <IconButton
        label={starred ? t('shell.unstarPage') : t('shell.starPage')}
        icon={<StarIcon size={18} className={starred ? styles.starOn : undefined} />}
        onPress={() =>
          preferences.send(
            starred ? { type: 'prefs.unstar', href } : { type: 'prefs.star', page: { href, titleKey: route.titleKey } },
          )
        }
      />
    </div>
  );
}
