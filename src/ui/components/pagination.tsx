import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import * as fieldStyles from './field.css';
import { ChevronDownIcon, ChevronLeftIcon, ChevronRightIcon, ChevronsLeftIcon, ChevronsRightIcon } from './icons';
import { Button, IconButton } from './button';
import * as styles from './pagination.css';
import { VisuallyHidden } from './visually-hidden';

export interface PaginationProps {
  /** Current page, 1-based. */
  page: number;
  pageSize: number;
  /** Total number of records (not pages). */
  total: number;
  /**
   * More than `total` records exist (a bounded count, docs/lists.md, Counts): the range says "mais de",
   * and the pages reach one past the counted records, so the user can always go forward.
   */
  totalIsLowerBound?: boolean;
  onPageChange: (page: number) => void;
  /** With it, a page-size select is shown. */
  onPageSizeChange?: (pageSize: number) => void;
  /** Choices for the page size; the default of 4 per page (docs/product.md, Tenants) comes first. */
  pageSizeOptions?: readonly number[];
  /** Page buttons either side of the current one before an ellipsis. */
  siblings?: number;
  isDisabled?: boolean;
}

/** Page numbers to show, with `null` for a gap: 1 … 4 5 6 … 20. */
export function pageWindow(page: number, pageCount: number, siblings: number): (number | null)[] {
  const first = Math.max(2, page - siblings);
  const last = Math.min(pageCount - 1, page + siblings);
  const result: (number | null)[] = [1];
  if (first > 2) result.push(null);
  for (let p = first; p <= last; p += 1) result.push(p);
  if (last < pageCount - 1) result.push(null);
  if (pageCount > 1) result.push(pageCount);
  return result;
}

/**
 * Page controls for server-paged lists (tenants): a `nav` landmark with first/previous/numbered/
 * next/last buttons (the current one `aria-current="page"`), the "1–4 de 37" range in a polite
 * live region so a page change is announced, and an optional page-size select. Plain elements
 * (button.tsx's buttons, a native `<select>`), no React Aria: the tenants list, the first
 * screen after sign-in, shows it.
 */
export function Pagination({
  page,
  pageSize,
  total,
  totalIsLowerBound = false,
  onPageChange,
  onPageSizeChange,
  pageSizeOptions = [4, 10, 25, 50],
  siblings = 1,
  isDisabled,
}: PaginationProps) {
  const { t, i18n } = useTranslation();
  // "1–100 de 10.000" in pt-BR and pt, "1–100 of 10,000" in en: numbers as the language writes them.
  const number = useMemo(() => new Intl.NumberFormat(i18n.language), [i18n.language]);
  const sizeId = useId();
  const pageCount = Math.max(1, Math.ceil((totalIsLowerBound ? total + 1 : total) / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  const from = total === 0 ? 0 : (current - 1) * pageSize + 1;
  const to = totalIsLowerBound ? current * pageSize : Math.min(total, current * pageSize);
  const go = (target: number) => {
    if (target !== current) onPageChange(target);
  };
  return (
    <nav aria-label={t('ui.pagination.label')} className={styles.nav}>
      <span className={styles.range} aria-live="polite">
        {t(totalIsLowerBound ? 'ui.pagination.rangeMore' : 'ui.pagination.range', {
          from: number.format(from),
          to: number.format(to),
          total: number.format(total),
        })}
      </span>
      <ul className={styles.pages}>
        <li>
          <IconButton
            label={t('ui.pagination.first')}
            icon={<ChevronsLeftIcon />}
            size="sm"
            isDisabled={isDisabled || current === 1}
            onPress={() => go(1)}
          />
        </li>
        <li>
          <IconButton
            label={t('ui.pagination.previous')}
            icon={<ChevronLeftIcon />}
            size="sm"
            isDisabled={isDisabled || current === 1}
            onPress={() => go(current - 1)}
          />
        </li>
        {pageWindow(current, pageCount, siblings).map((p, index) =>
          p === null ? (
            <li key={`gap-${index}`} className={styles.ellipsis}>
              <span aria-hidden="true">…</span>
              <VisuallyHidden>{t('ui.pagination.more')}</VisuallyHidden>
            </li>
          ) : (
            <li key={p}>
              <Button
                size="sm"
                variant={p === current ? 'primary' : 'ghost'}
                aria-label={t('ui.pagination.goTo', { page: number.format(p) })}
                aria-current={p === current ? 'page' : undefined}
                isDisabled={isDisabled}
                className={p === current ? styles.current : undefined}
                onPress={() => go(p)}
              >
                {number.format(p)}
              </Button>
            </li>
          ),
        )}
        <li>
          <IconButton
            label={t('ui.pagination.next')}
            icon={<ChevronRightIcon />}
            size="sm"
            isDisabled={isDisabled || current === pageCount}
            onPress={() => go(current + 1)}
          />
        </li>
        <li>
          <IconButton
            // Past a bounded count the page it goes to is the last one known, not the last one (docs/lists.md, Counts).
            label={t(totalIsLowerBound ? 'ui.pagination.lastKnown' : 'ui.pagination.last')}
            icon={<ChevronsRightIcon />}
            size="sm"
            isDisabled={isDisabled || current === pageCount}
            onPress={() => go(pageCount)}
          />
        </li>
      </ul>
      {onPageSizeChange ? (
        <span className={styles.pageSize}>
          <label htmlFor={sizeId} className={fieldStyles.label}>
            {t('ui.pagination.pageSize')}
          </label>
          <span className={styles.selectBox}>
            <select
              id={sizeId}
              className={styles.select}
              value={pageSize}
              disabled={isDisabled}
              onChange={(event) => onPageSizeChange(Number(event.target.value))}
            >
              {pageSizeOptions.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
            <ChevronDownIcon className={styles.selectIcon} />
          </span>
        </span>
      ) : null}
    </nav>
  );
}
