import { useId, type ButtonHTMLAttributes, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import * as styles from './button.css';
import { cx } from './class-names';
import * as native from './native-controls.css';
import { Spinner } from './spinner';

export type ButtonVariant = keyof typeof styles.variant;
export type ButtonSize = keyof typeof styles.size;

interface BaseButtonProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'className' | 'style' | 'children' | 'disabled' | 'onClick'
> {
  /** primary: the one main action; secondary: others; danger: destructive; ghost: toolbars. */
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** Called on activation (click, Enter, Space), never while pending or disabled. */
  onPress?: () => void;
  isDisabled?: boolean;
  /** Focusable but inert, with a spinner in its name, `aria-busy`, and no second submit on Enter. */
  isPending?: boolean;
  /** The spinner's name while pending (translated); "Carregando…" (`common.loading`) when absent. */
  pendingLabel?: string;
  ref?: Ref<HTMLButtonElement>;
}

export interface ButtonProps extends BaseButtonProps {
  children: ReactNode;
  /** Optional icon before the label (decorative). */
  icon?: ReactNode;
  fullWidth?: boolean;
}

/**
 * The action button, a plain `<button>` (no React Aria: it is on the login route and on every row of
 * long lists). `:hover` and `:focus-visible` give the look React Aria's data attributes gave
 * (native-controls.css.ts; keyboard-only focus ring). `isPending` keeps it focusable but inert,
 * shows a named spinner in its name, sets `aria-busy` and stops Enter in a form from submitting twice.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  className,
  children,
  icon,
  fullWidth,
  ...props
}: ButtonProps) {
  const { spinner, buttonProps } = useButton(props);
  return (
    <button
      {...buttonProps}
      className={cx(
        styles.base,
        styles.variant[variant],
        styles.size[size],
        native.buttonState,
        native.buttonHover[variant],
        fullWidth && styles.fullWidth,
        className,
      )}
    >
      {spinner ?? icon}
      <span className={styles.label}>{children}</span>
    </button>
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
export function IconButton({ label, icon, variant = 'ghost', size = 'md', className, ...props }: IconButtonProps) {
  const { spinner, buttonProps } = useButton({ ...props, 'aria-label': label });
  return (
    <button
      {...buttonProps}
      className={cx(
        styles.base,
        styles.variant[variant],
        styles.iconSize[size],
        native.buttonState,
        native.buttonHover[variant],
        className,
      )}
    >
      {spinner ?? icon}
    </button>
  );
}

/** The default pending name, read only while pending: an idle button subscribes to no translation. */
function LoadingSpinner({ id }: { id: string }) {
  const { t } = useTranslation();
  return <Spinner id={id} size="sm" label={t('common.loading')} />;
}

function useButton({ onPress, isDisabled, isPending, pendingLabel, type = 'button', id, ...rest }: BaseButtonProps) {
  const ownId = useId();
  const progressId = useId();
  const buttonId = id ?? ownId;
  const spinner = !isPending ? null : pendingLabel ? (
    <Spinner id={progressId} size="sm" label={pendingLabel} />
  ) : (
    <LoadingSpinner id={progressId} />
  );
  // As React Aria did: an aria-label would hide the spinner's name, so the pending name is "label + spinner".
  const labelledBy = isPending && rest['aria-label'] ? `${buttonId} ${progressId}` : undefined;
  return {
    spinner,
    buttonProps: {
      ...rest,
      id: buttonId,
      // Pending: Enter in a field must not submit again, and the button stays in the tab order.
      type: isPending && type === 'submit' ? ('button' as const) : type,
      disabled: isDisabled,
      'aria-disabled': isPending ? ('true' as const) : undefined,
      'aria-busy': isPending || undefined,
      'aria-labelledby': labelledBy,
      onClick: isPending || !onPress ? undefined : () => onPress(),
    },
  };
}
