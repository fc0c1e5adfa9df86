import type { ReactNode } from 'react';
import { Link as RACLink, type LinkProps as RACLinkProps } from 'react-aria-components/Link';
import * as buttonStyles from './button.css';
import type { ButtonSize, ButtonVariant } from './button';
import { cx } from './class-names';
import * as styles from './link.css';

interface BaseLinkProps extends Omit<RACLinkProps, 'className' | 'style' | 'children'> {
  children: ReactNode;
  className?: string;
}

/** Props of {@link Link}. `href` is an app path; client-side routing comes from RAC's `RouterProvider` in the shell. */
export type LinkProps = BaseLinkProps;

/**
 * An inline text link (RAC `Link`): underlined, keyboard focusable, `aria-current` when marked
 * current. Navigation goes through the `RouterProvider` the shell installs, so no full reload.
 */
export function Link({ className, ...props }: LinkProps) {
  return <RACLink {...props} className={cx(styles.link, className)} />;
}

export interface LinkButtonProps extends BaseLinkProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  icon?: ReactNode;
}

/**
 * Navigation that looks like a button ("Voltar ao início", "Novo tenant"). It stays a link for
 * assistive technology (role link, opens in a new tab with the modifier keys) — use `Button` for
 * actions that do not change the address.
 */
export function LinkButton({
  variant = 'secondary',
  size = 'md',
  icon,
  children,
  className,
  ...props
}: LinkButtonProps) {
  return (
    <RACLink
      {...props}
      className={cx(buttonStyles.base, buttonStyles.variant[variant], buttonStyles.size[size], className)}
    >
      {icon}
      <span className={buttonStyles.label}>{children}</span>
    </RACLink>
  );
}
