import {
  createContext,
  useContext,
  useEffect,
  useId,
  useState,
  type ComponentProps,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './class-names';
import * as styles from './field.css';
import { FieldLabelText } from './field-label';
import { EyeIcon, EyeOffIcon } from './form-icons';
import * as native from './native-controls.css';
import { useHydrated } from './use-hydrated';

/** A field's validation as React Aria reports it (`ValidationResult`), so one `errorMessage` serves both kinds of field. */
export interface FieldValidation {
  isInvalid: boolean;
  /** App text (from `validate` or the server) or, for a native constraint, the browser's message. */
  validationErrors: string[];
  validationDetails: ValidityState;
}

/**
 * Translated error text. A string replaces the browser's native messages (required, type=email,
 * min/max) and shows when `isInvalid` is set; messages from `validate` or from the form's
 * `validationErrors` (server errors) are already app text and show as they are. A function
 * receives the validation result and decides alone.
 */
export type FieldErrorMessage = string | ((validation: FieldValidation) => ReactNode);

/** What a form tells the text fields inside it (`Form` provides it; outside one, nothing). */
export interface FormFields {
  /** The server's errors by field `name` that still show: each until its field is committed. */
  validationErrors?: Record<string, string | string[]> | undefined;
  /** All the server's errors as `Form` got them, for React Aria's fields (aria-form.tsx), which clear their own. */
  serverErrors?: Record<string, string | string[]> | undefined;
  /** `native` (the default): constraints block the submit; `aria`: fields only say what is wrong. */
  validationBehavior?: 'native' | 'aria' | undefined;
  /** The field of that `name` was committed (an edit left it, or a refused submit): its server error goes. */
  onCommit?: (name: string) => void;
}

export const FormFieldsContext = createContext<FormFields>({});

/** Native constraint failures: their browser text is untranslated, so the caller's text replaces it. */
const NATIVE = [
  'valueMissing',
  'typeMismatch',
  'patternMismatch',
  'tooShort',
  'tooLong',
  'rangeOverflow',
  'rangeUnderflow',
  'stepMismatch',
  'badInput',
] as const;

/** A still copy of a (live) `ValidityState`. */
function validitySnapshot(validity: Partial<Record<keyof ValidityState, boolean>>): ValidityState {
  const copy: Record<string, boolean> = {};
  for (const key of [...NATIVE, 'customError', 'valid'] as const) copy[key] = validity[key] === true;
  return copy as unknown as ValidityState;
}

/** The text under an invalid field (see {@link FieldErrorMessage}); `null` or `undefined`: none. */
export function errorText(validation: FieldValidation, errorMessage: FieldErrorMessage | undefined): ReactNode {
  if (typeof errorMessage === 'function') return errorMessage(validation);
  if (
    errorMessage &&
    (NATIVE.some((key) => validation.validationDetails[key]) || validation.validationErrors.length === 0)
  ) {
    return errorMessage;
  }
  return validation.validationErrors.join(' ');
}

type InputProps = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  | 'name'
  | 'autoComplete'
  | 'autoCorrect'
  | 'autoFocus'
  | 'inputMode'
  | 'maxLength'
  | 'minLength'
  | 'pattern'
  | 'placeholder'
  | 'spellCheck'
  | 'aria-describedby'
>;

export interface TextFieldProps extends InputProps, Pick<FormFields, 'validationBehavior'> {
  /** Visible label, translated by the caller. */
  label: ReactNode;
  /** Help text under the input, linked by `aria-describedby`. */
  description?: ReactNode;
  errorMessage?: FieldErrorMessage | undefined;
  type?: 'text' | 'email' | 'tel' | 'url' | 'search';
  /** Controlled: the value and its change. Leave `value` out for an uncontrolled input (`defaultValue`; read the form on submit). */
  value?: string;
  onChange?: (value: string) => void;
  /**
   * The first value of an uncontrolled input. Uncontrolled inputs keep what was typed into a
   * prerendered page before it hydrated: React neither resets nor rewrites their value.
   */
  defaultValue?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  isReadOnly?: boolean;
  /** Controlled validity: `true` shows `errorMessage`, `false` shows no error whatever else says so. */
  isInvalid?: boolean | undefined;
  /** A check of the (controlled) `value`: an error text (or several), or nothing when it is good. */
  validate?: (value: string) => string | string[] | true | null | undefined;
  className?: string;
}

/**
 * A labelled single-line text input on the platform's `<input>`: email, name, CNPJ… Validation
 * comes from `isRequired`, `type`, `maxLength`, `validate`, a controlled `isInvalid` or the
 * surrounding form's `validationErrors` (server errors keyed by `name`); the error shows under the
 * input, linked by `aria-describedby`, with `aria-invalid` on the input.
 */
export function TextField({ type = 'text', ...props }: TextFieldProps) {
  return (
    <FieldOfInput {...props} type={type}>
      {(input) => <input {...input} type={type} className={cx(styles.input, native.inputState)} />}
    </FieldOfInput>
  );
}

const CUSTOM = validitySnapshot({ customError: true });

/** Error texts as React Aria takes them: one or several; nothing for an empty text or a boolean. */
function messages(value: string | readonly string[] | boolean | null | undefined): string[] {
  return !value || value === true ? [] : typeof value === 'string' ? [value] : [...value];
}

/**
 * Label, input, description and error of {@link TextField} and `PasswordField`: the input's props
 * go to `children`, which draws the control. The rules are React Aria's (its
 * `useFormValidationState` and `useFormValidation`), so these fields say the same as the select and
 * number fields beside them:
 * - `native` validation (the default): the input carries the constraints (`required`, `type`,
 *   `maxLength`) and, as its custom validity, the message of a server error, of `validate` or of a
 *   controlled `isInvalid`, so the form does not submit while one fails. What shows under it is
 *   the state at the last commit: the native `change` event (an edited value leaving the field)
 *   or a refused submit, which also focuses the first invalid input.
 * - `aria` validation: nothing blocks the submit (`aria-required` instead of `required`); the
 *   message of `validate` shows as the value changes.
 * - Either way, a server error for the field's `name` shows until the field is committed, and
 *   again with the form's next `validationErrors` object; a controlled `isInvalid` overrides all.
 */
function FieldOfInput({
  label,
  description,
  errorMessage,
  className,
  isRequired,
  isDisabled,
  isReadOnly,
  isInvalid,
  validate,
  validationBehavior,
  value,
  defaultValue,
  onChange,
  'aria-describedby': describedBy,
  autoFocus,
  type,
  children,
  ...input
}: TextFieldProps & { children: (input: ComponentProps<'input'>) => ReactNode }) {
  const { t } = useTranslation();
  const form = useContext(FormFieldsContext);
  const isNative = (validationBehavior ?? form.validationBehavior) !== 'aria';
  const id = useId();

  // `autoFocus` as React Aria does it: focus after mount, once the effects of a modal around the
  // field (its focus scope) have run — focused while React commits, the input would be taken back
  // by the focus trap of a dialog beneath. A prerendered page keeps the HTML attribute instead
  // (the browser applies it before any script; the login screen places focus after hydration).
  const hydrated = useHydrated();
  const [focusOnMount] = useState(autoFocus && hydrated);
  useEffect(() => {
    if (focusOnMount) document.getElementById(id)?.focus();
  }, [focusOnMount, id]);

  const server = messages(input.name ? form.validationErrors?.[input.name] : null);
  const client = messages(validate?.(value ?? ''));
  // What fails now, first of: a controlled `isInvalid`, the server, `validate` (the custom validity).
  const now =
    isInvalid !== undefined ? (isInvalid ? [] : null) : server.length ? server : client.length ? client : null;
  const nowError: FieldValidation | null = now && { isInvalid: true, validationErrors: now, validationDetails: CUSTOM };
  // What shows: that, or under native validation (when neither controlled nor the server's) the last commit.
  const [committed, setCommitted] = useState<FieldValidation | null>(null);
  const shown = isInvalid !== undefined || server.length || (!isNative && client.length) ? nowError : committed;

  const commit = (element: HTMLInputElement) => {
    if (isNative) {
      // The input's own constraints, without the server's message this commit clears (the render
      // that follows sets the custom validity again).
      if (!client.length) element.setCustomValidity('');
      setCommitted(
        client.length
          ? { isInvalid: true, validationErrors: client, validationDetails: CUSTOM }
          : element.validity.valid
            ? null
            : {
                isInvalid: true,
                validationErrors: [element.validationMessage],
                validationDetails: validitySnapshot(element.validity),
              },
      );
    }
    if (input.name) form.onCommit?.(input.name);
  };

  // Without the caller's text, a missing value or a malformed email is said in the app's language
  // (the browser's own message follows the browser's); other failures keep the browser's message.
  const text = shown
    ? errorText(
        shown,
        errorMessage ??
          (({ validationDetails: failed, validationErrors }) =>
            failed.valueMissing
              ? t('ui.field.required')
              : failed.typeMismatch && type === 'email'
                ? t('ui.field.email')
                : validationErrors.join(' ')),
      )
    : null;
  const descriptionId = `${id}d`;
  const errorId = `${id}e`;
  return (
    <div className={cx(styles.field, className)} data-invalid={shown ? true : undefined}>
      <FieldLabelText htmlFor={id} isRequired={isRequired}>
        {label}
      </FieldLabelText>
      {children({
        ...input,
        id,
        value,
        defaultValue,
        required: isRequired && isNative,
        'aria-required': (isRequired && !isNative) || undefined,
        disabled: isDisabled,
        readOnly: isReadOnly,
        'aria-invalid': shown ? true : undefined,
        'aria-describedby':
          [description ? descriptionId : null, text != null ? errorId : null, describedBy].filter(Boolean).join(' ') ||
          undefined,
        // No browser tooltip with the custom validity message (Firefox shows one on hover).
        title: isNative ? '' : undefined,
        // After each render (a new callback each time): the custom validity says what fails now,
        // and a commit (`change`) is heard with this render's values.
        autoFocus: autoFocus && !hydrated,
        ref: (element: HTMLInputElement | null) => {
          if (!element) return;
          if (isNative && !element.disabled) element.setCustomValidity(now ? now.join(' ') || 'Invalid value.' : '');
          const change = () => commit(element);
          element.addEventListener('change', change);
          return () => element.removeEventListener('change', change);
        },
        onChange: (event) => onChange?.(event.target.value),
        onInvalid: (event) => {
          const element = event.currentTarget;
          // Only a field that shows no error commits: a server error the user has not fixed stays.
          if (!shown) commit(element);
          // The message goes under the field instead of the browser's bubble; focus the first invalid one.
          if (
            element.form &&
            Array.from(element.form.elements).find((other) => (other as HTMLInputElement).validity?.valid === false) ===
              element
          )
            element.focus();
          event.preventDefault();
        },
      })}
      {description ? (
        <span id={descriptionId} className={styles.description}>
          {description}
        </span>
      ) : null}
      {text != null ? (
        <span id={errorId} className={styles.error}>
          {text}
        </span>
      ) : null}
    </div>
  );
}

export interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'autoComplete' | 'inputMode'> {
  /** `current-password` on login, `new-password` on create/change (password managers use it). */
  autoComplete?: 'current-password' | 'new-password';
}

/**
 * A password input (a {@link TextField} in all else) with a show/hide toggle. The toggle is a real
 * button whose name says what it will do ("Mostrar senha" / "Ocultar senha"); it never submits the
 * form.
 */
export function PasswordField({ autoComplete = 'current-password', ...props }: PasswordFieldProps) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  // Inert until hydrated on a prerendered page (use-hydrated.ts): nothing would listen to it.
  const hydrated = useHydrated();
  // Which input got its default value (once, at mount).
  const [seeded] = useState(() => new WeakSet<HTMLInputElement>());
  return (
    <FieldOfInput {...props}>
      {({ value, defaultValue, ref, ...input }) => (
        <div className={cx(styles.groupBox, native.groupState)} data-disabled={props.isDisabled || undefined}>
          <input
            {...input}
            // The value goes to the input's property only. React mirrors a controlled (or default)
            // value into the `value` attribute, where an attribute selector in a style sheet and
            // anything that reads the page's HTML (an extension, a session recorder) would find the
            // password as it is typed.
            ref={(element) => {
              if (element && value !== undefined && element.value !== String(value)) element.value = String(value);
              if (element && value === undefined && defaultValue !== undefined && !seeded.has(element)) {
                seeded.add(element);
                element.value = String(defaultValue);
              }
              return typeof ref === 'function' ? ref(element) : undefined;
            }}
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
      )}
    </FieldOfInput>
  );
}
