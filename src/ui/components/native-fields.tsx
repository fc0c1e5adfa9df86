import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as styles from './field.css';
import { FieldLabelText } from './field-label';
import { EyeIcon, EyeOffIcon } from './form-icons';
import * as native from './native-controls.css';
import { useHydrated } from './use-hydrated';

type NativeInputProps = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'name' | 'autoComplete' | 'inputMode' | 'autoFocus' | 'placeholder'
>;

export interface NativeTextFieldProps extends NativeInputProps {
  label: ReactNode;
  description?: ReactNode;
  /** Translated text shown instead of the browser's own message when a native constraint fails. */
  errorMessage?: string;
  type?: 'text' | 'email' | 'tel' | 'url' | 'search';
  /** Controlled: the value and its change. Leave both out for an uncontrolled input (`defaultValue`; read the form on submit). */
  value?: string;
  onChange?: (value: string) => void;
  /**
   * The first value of an uncontrolled input. Uncontrolled inputs keep what was typed into a
   * prerendered page before it hydrated: React neither resets nor rewrites their value.
   */
  defaultValue?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  className?: string;
}

/**
 * {@link TextField} without React Aria, for the login route: the same label, box, description and
 * error, validated the way RAC's native validation does it — the browser's constraints decide; on a
 * submit attempt the bubble is replaced by the message under the field (linked with
 * `aria-describedby`, `aria-invalid` on the input) and the first invalid field gets focus; the
 * message is re-checked when the value is committed (the input's `change` event).
 */
export function NativeTextField({
  label,
  description,
  errorMessage,
  className,
  type = 'text',
  ...props
}: NativeTextFieldProps) {
  const field = useNativeField(props, errorMessage, description);
  return (
    <div className={cx(styles.field, className)} data-invalid={field.error !== null || undefined}>
      <FieldLabelText htmlFor={field.inputId} isRequired={props.isRequired}>
        {label}
      </FieldLabelText>
      <input {...field.inputProps} type={type} className={cx(styles.input, native.inputState)} />
      {field.help}
    </div>
  );
}

export interface NativePasswordFieldProps extends Omit<NativeTextFieldProps, 'type' | 'autoComplete' | 'inputMode'> {
  autoComplete?: 'current-password' | 'new-password';
}

/** {@link PasswordField} without React Aria: the input plus a show/hide button named by what it will do. */
export function NativePasswordField({
  label,
  description,
  errorMessage,
  className,
  autoComplete = 'current-password',
  ...props
}: NativePasswordFieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  // Inert until hydrated on a prerendered page (use-hydrated.ts): nothing would listen to it.
  const hydrated = useHydrated();
  const field = useNativeField(props, errorMessage, description);
  return (
    <div className={cx(styles.field, className)} data-invalid={field.error !== null || undefined}>
      <FieldLabelText htmlFor={field.inputId} isRequired={props.isRequired}>
        {label}
      </FieldLabelText>
      <div className={cx(styles.groupBox, native.groupState)} data-disabled={props.isDisabled || undefined}>
        <input
          {...field.inputProps}
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          spellCheck={false}
          autoCapitalize="none"
          className={styles.innerInput}
        />
        <button
          type="button"
          className={cx(styles.inputButton, native.inputButtonState)}
          aria-label={visible ? t('ui.password.hide') : t('ui.password.show')}
          disabled={props.isDisabled || !hydrated}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
      {field.help}
    </div>
  );
}

/** Native constraint failures: their browser text is untranslated, so the caller's text replaces it. */
function failedNatively(v: ValidityState): boolean {
  return (
    v.valueMissing ||
    v.typeMismatch ||
    v.patternMismatch ||
    v.tooShort ||
    v.tooLong ||
    v.rangeOverflow ||
    v.rangeUnderflow ||
    v.stepMismatch ||
    v.badInput
  );
}

/** What shows under the field: the caller's text for a native constraint, else the browser's. */
function messageOf(element: HTMLInputElement, errorMessage: string | undefined): string | null {
  if (element.validity.valid) return null;
  return errorMessage && failedNatively(element.validity) ? errorMessage : element.validationMessage;
}

/** By `validity`, not `:invalid` (matching that selector re-runs validation in some DOMs). */
function firstInvalid(form: HTMLFormElement): Element | undefined {
  return Array.from(form.elements).find(
    (element) => 'validity' in element && !(element as HTMLInputElement).validity.valid,
  );
}

function useNativeField(
  {
    value,
    onChange,
    isRequired,
    isDisabled,
    ...input
  }: Omit<NativeTextFieldProps, 'label' | 'description' | 'errorMessage' | 'className' | 'type'>,
  errorMessage: string | undefined,
  description: ReactNode,
) {
  const inputId = useId();
  const descriptionId = useId();
  const errorId = useId();
  const ref = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = error !== null;

  // A shown message follows the committed value (RAC commits on the native `change` event).
  useEffect(() => {
    const element = ref.current;
    if (!element || !shown) return;
    const recheck = () => setError(messageOf(element, errorMessage));
    element.addEventListener('change', recheck);
    element.form?.addEventListener('reset', () => setError(null), { once: true });
    return () => element.removeEventListener('change', recheck);
  }, [shown, errorMessage]);

  const describedBy =
    [description ? descriptionId : null, shown ? errorId : null].filter(Boolean).join(' ') || undefined;
  return {
    inputId,
    error,
    inputProps: {
      ...input,
      ref,
      id: inputId,
      ...(value !== undefined ? { value } : {}),
      required: isRequired,
      disabled: isDisabled,
      'aria-invalid': shown || undefined,
      'aria-describedby': describedBy,
      onChange: onChange ? (event: { target: HTMLInputElement }) => onChange(event.target.value) : undefined,
      onInvalid: (event: { currentTarget: HTMLInputElement; preventDefault(): void }) => {
        const element = event.currentTarget;
        // The message goes under the field instead of the browser's bubble; focus the first invalid one.
        event.preventDefault();
        setError(messageOf(element, errorMessage));
        if (element.form && firstInvalid(element.form) === element) element.focus();
      },
    },
    help: (
      <>
        {description ? (
          <span id={descriptionId} className={styles.description}>
            {description}
          </span>
        ) : null}
        {shown ? (
          <span id={errorId} className={styles.error}>
            {error}
          </span>
        ) : null}
      </>
    ),
  };
}
