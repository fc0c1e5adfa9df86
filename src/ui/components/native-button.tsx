import { useId, type ButtonHTMLAttributes, type ReactNode, type Ref } from 'react';
import * as styles from './button.css';
import type { ButtonSize, ButtonVariant } from './button';
import { cx } from './class-names';
import * as native from './native-controls.css';
import { NativeSpinner } from './native-spinner';

interface BaseNativeButtonProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'className' | 'style' | 'children' | 'disabled' | 'onClick'
> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** Called on activation (click, Enter, Space), never while pending or disabled. */
  onPress?: () => void;
  isDisabled?: boolean;
  /** Focusable but inert, with a spinner in its name, `aria-busy`, and no second submit on Enter. */
  isPending?: boolean;
  /** The spinner's name, needed while pending (translated, e.g. "Carregando…"). */
  pendingLabel?: string;
  ref?: Ref<HTMLButtonElement>;
}

export interface NativeButtonProps extends BaseNativeButtonProps {
  children: ReactNode;
  icon?: ReactNode;
  fullWidth?: boolean;
}

/**
 * {@link Button}'s look and pending behaviour on a plain `<button>`, for the routes that must load
 * without React Aria (login, the blank pages, the theme toggle) and for buttons on every row of a
 * long list (mounted while scrolling: no React Aria, no i18next subscription): same classes,
 * `:hover` and `:focus-visible` instead of RAC's data attributes (keyboard-only focus ring either way).
 */
export function NativeButton({
  variant = 'primary',
  size = 'md',
  className,
  children,
  icon,
  fullWidth,
  ...props
}: NativeButtonProps) {
  const { spinner, buttonProps } = useNativeButton(props);
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

export interface NativeIconButtonProps extends Omit<BaseNativeButtonProps, 'aria-label' | 'aria-labelledby'> {
  /** Accessible name, required (translated text). */
  label: string;
  icon: ReactNode;
}

/** {@link IconButton} on a plain `<button>`: square, named by `label`. */
export function NativeIconButton({
  label,
  icon,
  variant = 'ghost',
  size = 'md',
  className,
  ...props
}: NativeIconButtonProps) {
  const { spinner, buttonProps } = useNativeButton({ ...props, 'aria-label': label });
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

function useNativeButton({
  onPress,
  isDisabled,
  isPending,
  pendingLabel,
  type = 'button',
  id,
  ...rest
}: BaseNativeButtonProps) {
  const ownId = useId();
  const progressId = useId();
  const buttonId = id ?? ownId;
  const spinner = isPending ? <NativeSpinner id={progressId} size="sm" label={pendingLabel} /> : null;
  // As RAC: an aria-label would hide the spinner's name, so the pending name is "label + spinner".
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
