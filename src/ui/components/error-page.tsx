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
}

/**
 * The blank-layout pages (404, not authorized, 500, coming soon): say what happened, offer one way
 * on. Plain elements, no React Aria: the 500 content is in the entry (the error boundary), and these
 * pages render in the blank layout, outside the main layout's React Aria providers.
 */
export function ErrorPage({ code, title, body, action }: ErrorPageProps) {
  return (
    <section className={styles.page} aria-labelledby="error-page-title">
      {code ? (
        <p className={styles.code} aria-hidden="true">
          {code}
        </p>
      ) : null}
      <h1 id="error-page-title" className={styles.title}>
        {title}
      </h1>
      <p className={styles.body}>{body}</p>
      <div className={styles.actions}>
        {'href' in action ? (
          <LinkButton href={action.href} variant="primary">
            {action.label}
          </LinkButton>
        ) : (
          <Button onPress={action.onPress}>{action.label}</Button>
        )}
      </div>
    </section>
  );
}
