import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { menuHref, visibleMenu, type MenuItem } from '../../domain/menu';
import { selectAccessSubject } from '../../machines/session/session-selectors';
import { useSession } from '../hooks/services-context';
import { MENU_ICONS } from './icons';
import * as styles from './nav-sections.css';

/** True when the item is the page on screen (its path, and its query when it has one). */
export function isActiveItem(item: MenuItem, path: string, search: string): boolean {
  const [itemPath, itemQuery = ''] = menuHref(item).split('?');
  if (itemPath !== path) return false;
  const current = new URLSearchParams(search);
  const wanted = new URLSearchParams(itemQuery);
  if (wanted.size === 0) return !current.has('panel') && !current.has('section');
  return [...wanted].every(([key, value]) => current.get(key) === value);
}

export interface NavSectionsProps {
  /** Icons only (labels stay for screen readers and as tooltips). */
  collapsed?: boolean;
  onNavigate?: () => void;
}

/** The menu sections the user may open (docs/product.md, Menu), as the guard decides them. */
export function NavSections({ collapsed = false, onNavigate }: NavSectionsProps) {
  const { t } = useTranslation();
  const subject = useSession(selectAccessSubject, (a, b) => JSON.stringify(a) === JSON.stringify(b));
  const [path] = useLocation();
  const search = useSearch();
  return (
    <div className={styles.sections}>
      {visibleMenu(subject).map((section) => (
        <section key={section.id} aria-labelledby={`nav-${section.id}`} className={styles.section}>
          <h2 id={`nav-${section.id}`} className={collapsed ? styles.hiddenHeading : styles.heading}>
            {t(section.labelKey)}
          </h2>
          <ul className={styles.list}>
            {section.items.map((item) => {
              const Icon = MENU_ICONS[item.icon];
              const active = isActiveItem(item, path, search);
              const label = t(item.labelKey);
              const badgeId = item.soon ? `nav-soon-${item.id}` : undefined;
              return (
                <li key={item.id}>
                  <Link
                    href={menuHref(item)}
                    className={styles.link}
                    aria-current={active ? 'page' : undefined}
                    aria-describedby={badgeId}
                    title={collapsed ? (item.soon ? `${label} (${t('menu.soon')})` : label) : undefined}
                    onClick={onNavigate}
                  >
                    <Icon size={18} />
                    <span className={collapsed ? styles.hiddenLabel : styles.label}>{label}</span>
                    {/* The badge describes the link (its name stays the section's): not built yet. */}
                    {item.soon ? (
                      <span id={badgeId} aria-hidden="true" className={collapsed ? styles.hiddenLabel : styles.badge}>
                        {t('menu.soon')}
                      </span>
                    ) : null}
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
