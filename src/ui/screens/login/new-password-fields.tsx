import { Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../components/text-field';
import { guardedLazy } from '../../components/preloadable';
import { ensureAppLocale } from '../../../i18n/runtime';
import type { NewPasswordProblem } from '../../../domain/new-password';
import type { I18nKey } from '../../../domain/i18n-key';

// The strength meter and its words ("fraca", "média", "forte") come with the complete messages: loaded
// when a new password is asked for, off the login page's first load. Without them the fields still work.
const StrengthMeter = guardedLazy(
  () =>
    Promise.all([import('../../components/password-strength-meter'), ensureAppLocale()]).then(([meter]) => ({
      default: meter.PasswordStrengthMeter,
    })),
  () => null,
);

/** The message of a refused new password, by its problem, for a form's alert. */
export const NEW_PASSWORD_MESSAGES: Record<NewPasswordProblem, I18nKey> = {
  weak: 'auth.passwordChange.weak',
  mismatch: 'auth.passwordChange.mismatch',
  same: 'auth.passwordChange.same',
};

/**
 * A new password typed twice, with the strength meter the user form shows (src/ui/components/
 * password-strength-meter.tsx): the sign-in's new-password step and the reset-password page. The field
 * at fault is marked invalid; the form's alert says why.
 */
export function NewPasswordFields({
  password,
  confirmation,
  onPassword,
  onConfirmation,
  problem,
  labels,
}: {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  problem: NewPasswordProblem | null;
  labels: { password: I18nKey; confirmation: I18nKey };
}) {
  const { t } = useTranslation();
  const strengthId = useId();
  return (
    <>
      <PasswordField
        label={t(labels.password)}
        name="new_password"
        autoComplete="new-password"
        isRequired
        value={password}
        onChange={onPassword}
        isInvalid={problem === 'weak' || problem === 'same' || undefined}
        errorMessage={problem === 'weak' || problem === 'same' ? t(NEW_PASSWORD_MESSAGES[problem]) : undefined}
        autoFocus
      />
      <Suspense fallback={null}>
        <StrengthMeter password={password} id={strengthId} />
      </Suspense>
      <PasswordField
        label={t(labels.confirmation)}
        name="confirmation"
        autoComplete="new-password"
        isRequired
        value={confirmation}
        onChange={onConfirmation}
        isInvalid={problem === 'mismatch' || undefined}
        errorMessage={problem === 'mismatch' ? t(NEW_PASSWORD_MESSAGES.mismatch) : undefined}
      />
    </>
  );
}
