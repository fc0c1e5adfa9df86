import type { ReactNode } from 'react';
import * as styles from './empty-state.css';
import { InboxIcon } from './icons';

export interface EmptyStateProps {
  /** What is empty, e.g. "Nenhum tenant encontrado" (translated). */
  title: ReactNode;
  /** What the user can do about it. */
  description?: ReactNode;
  /** A call to action, e.g. a "Novo tenant" button or a "Limpar busca" link. */
  action?: ReactNode;
  /** Replaces the default inbox icon (decorative). */
  icon?: ReactNode;
}

/** "Nothing here yet": lists with no rows, searches with no match, reports with no data. */
export function EmptyState({ title, description, action, icon }: EmptyStateProps) {
  return (
    <div className={styles.root}>
      <span className={styles.icon}>{icon ?? <InboxIcon size={32} />}</span>
      <p className={styles.title}>{title}</p>
      {description ? <p className={styles.body}>{description}</p> : null}
      {action}
    </div>
  );
}
