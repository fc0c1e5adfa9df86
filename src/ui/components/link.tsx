import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { Link as WouterLink, useRouter } from 'wouter';
import * as buttonStyles from './button.css';
import type { ButtonSize, ButtonVariant } from './button';
import { cx } from './class-names';
import * as styles from './link.css';
import * as native from './native-controls.css';

interface BaseLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'className' | 'children'> {
  /** An app path (wouter adds the `/{tenant}` base, so the address works in a new tab too). */
  href: string;
  children: ReactNode;
  className?: string;
}

/** A URL with a scheme (`https:`, `mailto:`) or a protocol-relative one: another site, not an app path. */
const OTHER_SITE = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

/**
 * wouter's `Link`, except for what the browser must open itself, as React Aria's router left it
 * (`shouldClientNavigate`): another window or frame (a `target` other than `_self`), a download,
 * or another site. wouter would take a plain click on those for a navigation inside this window
 * (and put the tenant base before another site's URL).
 */
function RouterLink({ href, ...props }: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string }) {
  const router = useRouter();
  const otherSite = OTHER_SITE.test(href);
  const byBrowser =
    otherSite ||
    (props.target !== undefined && props.target !== '_self') ||
    (props.download !== undefined && props.download !== false);
  if (!byBrowser) return <WouterLink {...props} href={href} />;
  // The same href as wouter's (the base, or none after `~`), so the new tab opens the same address.
  const full = otherSite ? href : router.hrefs(href.startsWith('~') ? href.slice(1) : router.base + href, router);
  return <a {...props} href={full} />;
}

/** Props of {@link Link}. */
export interface LinkProps extends BaseLinkProps {
  /** Shown muted, announced disabled, and goes nowhere (no `href`). */
  isDisabled?: boolean;
}

/**
 * An inline text link on `<a>` (wouter's `Link`: client-side navigation, modifier-click still opens
 * a tab): underlined, the keyboard-only focus ring, bold and not underlined while `aria-current`.
 */
export function Link({ className, isDisabled, href, ...props }: LinkProps) {
  const className_ = cx(styles.link, className);
  // An <a> without href is not a link to assistive technology: the role says it still is one. It does
  // nothing when clicked, as React Aria's disabled link did not.
  if (isDisabled) {
    const { onClick: _onClick, ...inert } = props;
    return <a {...inert} role="link" aria-disabled="true" className={className_} />;
  }
  return <RouterLink {...props} href={href} className={className_} />;
}

export interface LinkButtonProps extends BaseLinkProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  icon?: ReactNode;
}

/**
 * Navigation that looks like a {@link Button} ("Voltar ao início", "Novo tenant", the blank pages'
 * way on): the same classes as the native button, on a real link (role link, opens in a new tab with
 * the modifier keys). Use `Button` for actions that do not change the address.
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
    <RouterLink
      {...props}
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
    </RouterLink>
  );
}
