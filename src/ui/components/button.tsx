import type { ReactNode } from 'react';
import { Button as RACButton, type ButtonProps as RACButtonProps } from 'react-aria-components/Button';
import { useTranslation } from 'react-i18next';
import * as styles from './button.css';
import { cx } from './class-names';
import { Spinner } from './spinner';

export type ButtonVariant = keyof typeof styles.variant;
export type ButtonSize = keyof typeof styles.size;

interface BaseButtonProps extends Omit<RACButtonProps, 'className' | 'style' | 'children' | 'render'> {
  /** primary: the one main action; secondary: others; danger: destructive; ghost: toolbars. */
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** Accessible name of the spinner while `isPending`; defaults to "Carregando…". */
  pendingLabel?: string;
  /** Marks the current item of a set (the current page in Pagination). */
  'aria-current'?: 'page' | 'step' | 'location' | 'true';
}

export interface ButtonProps extends BaseButtonProps {
  children: ReactNode;
  /** Optional icon before the label (decorative). */
  icon?: ReactNode;
  fullWidth?: boolean;
}

/*
 * RAC forwards only known DOM props, so `aria-busy` and `aria-current` go through its `render`
 * hook: the element stays RAC's own <button>, with every prop and ref RAC computed, plus these.
 */
function renderButton(ariaCurrent: ButtonProps['aria-current']): NonNullable<RACButtonProps['render']> {
  return function render(domProps, { isPending }) {
    return <button {...domProps} aria-busy={isPending || undefined} aria-current={ariaCurrent} />;
  };
}

/**
 * The action button (RAC `Button`). `isPending` keeps it focusable but inert, shows a spinner that
 * RAC adds to the button's name, sets `aria-busy` and stops Enter in a form from submitting twice.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  className,
  children,
  icon,
  fullWidth,
  isPending,
  pendingLabel,
  'aria-current': ariaCurrent,
  ...props
}: ButtonProps) {
  const { t } = useTranslation();
  return (
    <RACButton
      {...props}
      isPending={isPending}
      render={renderButton(ariaCurrent)}
      className={cx(styles.base, styles.variant[variant], styles.size[size], fullWidth && styles.fullWidth, className)}
    >
      {isPending ? <Spinner size="sm" label={pendingLabel ?? t('common.loading')} /> : icon}
      <span className={styles.label}>{children}</span>
    </RACButton>
  );
}

export interface IconButtonProps extends Omit<BaseButtonProps, 'aria-label' | 'aria-labelledby'> {
  /**
   * Accessible name, required: an icon alone says nothing to a screen reader. Pass translated text
   * (e.g. `t('shell.toggleTheme')`).
   */
  label: string;
  /** The icon (decorative; see `icons.tsx`). */
  icon: ReactNode;
}

/** A square, icon-only button. Its accessible name is `label`; the type makes it impossible to omit. */
export function IconButton({
  label,
  icon,
  variant = 'ghost',
  size = 'md',
  className,
  isPending,
  pendingLabel,
  'aria-current': ariaCurrent,
  ...props
}: IconButtonProps) {
  const { t } = useTranslation();
  return (
    <RACButton
      {...props}
      aria-label={label}
      isPending={isPending}
      render={renderButton(ariaCurrent)}
      className={cx(styles.base, styles.variant[variant], styles.iconSize[size], className)}
    >
      {isPending ? <Spinner size="sm" label={pendingLabel ?? t('common.loading')} /> : icon}
    </RACButton>
  );
}
