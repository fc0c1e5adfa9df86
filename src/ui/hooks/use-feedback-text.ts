import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../domain/i18n-key';
import type { ActionError } from '../../machines/shared/request-error';

/** A machine's refusal of a form: i18n keys by field (as the contracts name them) and the call's failure. */
export interface FormFeedbackKeys {
  fieldErrors?: Partial<Record<string, I18nKey>>;
  error: ActionError | null;
}

/** The screens' "{{what}} {{why}}" messages, one per feature group of src/i18n/pt-BR.json. */
export type FailureKey = Extract<I18nKey, `${string}.failure`>;

/**
 * A form's machine feedback as the Form primitive takes it: translated field errors and the form's
 * failure (`failureKey` with the action and its reason). The field errors are the same object until
 * the machine reports new refusals: React Aria shows server errors again whenever that object
 * changes, so a fresh one per render would keep them after the user has edited the field.
 */
export function useFeedbackText(
  { fieldErrors, error }: FormFeedbackKeys,
  failureKey: FailureKey,
): { validationErrors: Record<string, string>; formError: string | null } {
  const { t } = useTranslation();
  const validationErrors = useMemo(() => {
    const out: Record<string, string> = {};
    for (const [field, key] of Object.entries(fieldErrors ?? {})) if (key) out[field] = t(key);
    return out;
  }, [fieldErrors, t]);
  const formError = error ? t(failureKey, { what: t(error.key), why: t(error.reason) }) : null;
  return { validationErrors, formError };
}
