import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../button';
import * as styles from './selection.css';

export interface SelectionBarProps {
  /** Rows selected (the matching total when every match is). */
  count: number;
  /** Rows the list's filters match. */
  total: number;
  /** More than `total` rows match (a bounded count, docs/lists.md, Counts): "more than N" is said. */
  totalIsLowerBound?: boolean;
  /** Every match is selected, beyond the page. */
  allMatching: boolean;
  onSelectMatching: () => void;
  onClear: () => void;
  /** The bulk actions (buttons, a menu), shown while something is selected. */
  children?: ReactNode;
}

/**
 * "N selecionados · Selecionar todos os N correspondentes · Limpar" above a list (docs/lists.md, Bulk
 * actions). The count is a polite live region, so a screen reader hears each change of the selection;
 * it stays in the page (empty) while nothing is selected, so the first change is announced too.
 */
export function SelectionBar({
  count,
  total,
  totalIsLowerBound = false,
  allMatching,
  onSelectMatching,
  onClear,
  children,
}: SelectionBarProps) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <div className={count > 0 ? styles.bar : styles.idle} role="group" aria-label={t('selection.bar')}>
      <p className={styles.count} aria-live="polite" aria-atomic="true">
        {count > 0
          ? allMatching
            ? totalIsLowerBound
              ? t('selection.allMatchingMore', { n: number.format(total) })
              : t('selection.allMatching', { n: number.format(total) })
            : t('selection.count', { n: number.format(count) })
          : ''}
      </p>
      {count > 0 ? (
        <>
          {!allMatching && (totalIsLowerBound || total > count) ? (
            <Button variant="secondary" size="sm" onPress={onSelectMatching}>
              {totalIsLowerBound
                ? t('selection.selectMatchingMore', { n: number.format(total) })
                : t('selection.selectMatching', { count: total, n: number.format(total) })}
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onPress={onClear}>
            {t('selection.clear')}
          </Button>
          <div className={styles.actions}>{children}</div>
        </>
      ) : null}
    </div>
  );
}
