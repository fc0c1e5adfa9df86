import type { ReactNode } from 'react';
import { cx } from './class-names';
import * as styles from './layout.css';

type Space = keyof typeof styles.gap;

interface LayoutProps {
  children: ReactNode;
  /** Space between children, from the theme's scale. */
  gap?: Space;
  align?: keyof typeof styles.align;
  justify?: keyof typeof styles.justify;
  /** Semantic element, e.g. `ul` for a list of cards, `section`. */
  as?: 'div' | 'section' | 'ul' | 'ol' | 'header' | 'footer';
  className?: string;
}

/** Children in a column with even spacing (forms, page sections). */
export function Stack({ children, gap = 'md', align, justify, as: Element = 'div', className }: LayoutProps) {
  return (
    <Element
      className={cx(
        styles.stack,
        styles.gap[gap],
        align && styles.align[align],
        justify && styles.justify[justify],
        className,
      )}
    >
      {children}
    </Element>
  );
}

/** Children in a row that wraps on narrow screens (toolbars, button groups, filters). */
export function Inline({
  children,
  gap = 'sm',
  align = 'center',
  justify,
  as: Element = 'div',
  noWrap,
  className,
}: LayoutProps & { noWrap?: boolean }) {
  return (
    <Element
      className={cx(
        styles.inline,
        styles.gap[gap],
        styles.align[align],
        justify && styles.justify[justify],
        noWrap && styles.noWrap,
        className,
      )}
    >
      {children}
    </Element>
  );
}

export interface GridProps extends Omit<LayoutProps, 'align' | 'justify'> {
  /**
   * Narrowest a column may get (CSS length). Columns auto-fit: four KPI cards side by side at
   * 1366 px, one per row at 390 px, with no media queries.
   */
  minColumnWidth?: string;
}

/** A responsive grid of equal columns (KPI cards, dashboard panels, form field pairs). */
export function Grid({ children, gap = 'md', minColumnWidth = '14rem', as: Element = 'div', className }: GridProps) {
  // min(100%, …) keeps a single column from overflowing a container narrower than minColumnWidth.
  return (
    <Element
      className={cx(styles.grid, styles.gap[gap], className)}
      style={{ gridTemplateColumns: `repeat(auto-fit, minmax(min(100%, ${minColumnWidth}), 1fr))` }}
    >
      {children}
    </Element>
  );
}
