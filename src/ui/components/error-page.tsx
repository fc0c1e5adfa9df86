import type { ReactNode } from 'react';
import { Button } from './button';
import { LinkButton } from './link';
import * as styles from './error-page.css';

export interface ErrorPageProps {
  /** Big status text (404, 403, 500) shown above the title; decorative for screen readers. */
  code?: string;
  title: string;
  body: ReactNode;
  action: { label: string } & ({ href: string } | { onPress: () => void });
  /** A second way on (the 500 page's way home), shown under the first. */
  secondary?: { label: string; href: string };
  /** Heading level of the title: 2 where the shell's page header already holds the h1. */
  level?: 1 | 2;
}

/**
 * The blank-layout pages (404, not authorized, 500, coming soon): say what happened, offer one way
 * on. Plain elements, no React Aria: the 500 content is in the entry (the error boundary), and these
 * pages render in the blank layout, outside the main layout's React Aria providers.
 */
export function ErrorPage({ code, title, body, action, secondary, level = 1 }: ErrorPageProps) {
  const Heading = level === 1 ? 'h1' : 'h2';
  return (
    <section className={styles.page} aria-labelledby="error-page-title">
      {code ? (
        <p className={styles.code} aria-hidden="true">
          {code}
        </p>
      ) : null}
      <Heading id="error-page-title" className={styles.title}>
        {title}
      </Heading>
      <div className={styles.body}>{body}</div>
      <div className={styles.actions}>
        {'href' in action ? (
          <LinkButton href={action.href} variant="primary">
            {action.label}
          </LinkButton>
        ) : (
          <Button onPress={action.onPress}>{action.label}</Button>
        )}
        {secondary ? (
          <LinkButton href={secondary.href} variant="ghost">
            {secondary.label}
          </LinkButton>
        ) : null}
      </div>
    </section>
  );
}
