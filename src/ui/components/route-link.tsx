import type { ReactNode } from 'react';
import { Link } from 'wouter';
import * as buttonStyles from './button.css';
import type { ButtonSize, ButtonVariant } from './button';
import { cx } from './class-names';
import * as native from './native-controls.css';

export interface RouteLinkButtonProps {
  /** An app path (wouter adds the `/{tenant}` base, so the address works in a new tab too). */
  href: string;
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  icon?: ReactNode;
  className?: string;
}

/**
 * {@link LinkButton} without React Aria, for the blank pages (404, 403, 500, coming soon): a real
 * link (wouter's `Link`: client-side navigation, modifier-click still opens a tab) that looks like
 * a button, with the keyboard-only focus ring.
 */
export function RouteLinkButton({
  href,
  children,
  variant = 'secondary',
  size = 'md',
  icon,
  className,
}: RouteLinkButtonProps) {
  return (
    <Link
      href={href}
      className={cx(
        buttonStyles.base,
        buttonStyles.variant[variant],
        buttonStyles.size[size],
        native.buttonState,
        native.buttonHover[variant],
        className,
      )}
    >
      {icon}
      <span className={buttonStyles.label}>{children}</span>
    </Link>
  );
}
