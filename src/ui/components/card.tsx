import { useId, type ReactNode } from 'react';
import { cx } from './class-names';
import * as styles from './card.css';

export interface CardProps {
  /** Heading of the card; with it the card is a labelled `section`. */
  title?: ReactNode;
  /** Heading level, so cards fit the page outline (h2 under the page's h1 by default). */
  headingLevel?: 2 | 3 | 4;
  /** Controls at the header's end (a button, a menu). */
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A bordered surface grouping related content (a form, a chart, a list). */
export function Card({ title, headingLevel = 2, actions, children, className }: CardProps) {
  const Heading = `h${headingLevel}` as const;
  const headingId = useId();
  if (!title) return <div className={cx(styles.card, className)}>{children}</div>;
  return (
    <section className={cx(styles.card, className)} aria-labelledby={headingId}>
      <div className={styles.header}>
        <Heading id={headingId} className={styles.title}>
          {title}
        </Heading>
        {actions}
      </div>
      {children}
    </section>
  );
}
