import * as styles from './skeleton.css';

export interface SkeletonProps {
  /** CSS width; defaults to the full line. */
  width?: string;
  /** CSS height; defaults to one line of text. */
  height?: string;
  /** Several text-like lines, the last one shorter. */
  lines?: number;
  /** Round (avatars). */
  circle?: boolean;
}

/**
 * A placeholder shaped like content that is loading. Decorative (`aria-hidden`): the container
 * that is loading sets `aria-busy`, or a Spinner/LoadingOverlay announces it.
 */
export function Skeleton({ width = '100%', height = '1em', lines, circle }: SkeletonProps) {
  if (lines && lines > 1) {
    return (
      <span className={styles.lines} aria-hidden="true">
        {Array.from({ length: lines }, (_, i) => (
          <span key={i} className={styles.skeleton} style={{ width: i === lines - 1 ? '60%' : width, height }} />
        ))}
      </span>
    );
  }
  return (
    <span
      className={styles.skeleton}
      aria-hidden="true"
      style={{ width, height, borderRadius: circle ? '50%' : undefined }}
    />
  );
}
