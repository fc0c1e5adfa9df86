import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../../domain/i18n-key';
import type { FormFeedback } from '../../../../machines/account/user-settings.machine';

/**
 * A form's machine feedback as the Form primitive takes it: translated field errors (a new object
 * only when the machine reports new refusals, so React Aria shows them again) and the form error.
 */
export function useFormFeedback(feedback: FormFeedback): {
  validationErrors: Record<string, string>;
  formError: string | null;
} {
  const { t } = useTranslation();
  const { fieldErrors, error } = feedback;
  const validationErrors = useMemo(() => translateAll(fieldErrors, t), [fieldErrors, t]);
  const formError = error ? t('settings.failure', { what: t(error.key), why: t(error.reason) }) : null;
  return { validationErrors, formError };
}

function translateAll(fieldErrors: Partial<Record<string, I18nKey>>, t: TFunction): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, key] of Object.entries(fieldErrors)) if (key) out[field] = t(key);
  return out;
}
