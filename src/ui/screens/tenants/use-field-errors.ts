import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../domain/format';
import type { I18nKey } from '../../../domain/i18n-key';
import type { FieldProblem } from './tenant-form-checks';

const NONE: readonly string[] = [];

export interface FormErrors {
  /** Messages by field name, for the form's `validationErrors`. */
  errors: Record<string, string>;
  /** The form's own refusals on submit (empty: none). */
  refuse: (problems: Record<string, FieldProblem>) => void;
  /** The field was edited: its message goes away at once (not only on blur). */
  touch: (field: string) => void;
}

/**
 * The messages a tenant form shows by field: its own refusals and the server's (`fieldErrors` of
 * the machine). A message stays until its field is edited; a new refusal shows again whatever it
 * names. The result keeps its identity between changes: React Aria treats a new object as new errors.
 */
export function useFormErrors(server: Record<string, I18nKey>): FormErrors {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [local, setLocal] = useState<Record<string, FieldProblem>>({});
  const [cleared, setCleared] = useState<{ from: Record<string, I18nKey>; fields: readonly string[] }>({
    from: server,
    fields: [],
  });
  // A new refusal from the machine is a new object: nothing of it has been edited yet.
  const clearedFields = cleared.from === server ? cleared.fields : NONE;

  const errors = useMemo(() => {
    const out: Record<string, string> = {};
    for (const [field, key] of Object.entries(server)) if (!clearedFields.includes(field)) out[field] = t(key);
    for (const [field, problem] of Object.entries(local)) {
      if (problem.kind === 'limit')
        out[field] = t('tenants.screen.form.errors.limit', {
          min: formatNumber(problem.min, locale),
          max: formatNumber(problem.max, locale),
        });
      else if (problem.kind === 'cnpj') out[field] = t(`tenants.errors.cnpj.${problem.problem}`);
      else out[field] = t(`tenants.screen.form.errors.${problem.kind}`);
    }
    return out;
  }, [local, server, clearedFields, t, locale]);

  const touch = (field: string) => {
    if (field in local) setLocal(({ [field]: _gone, ...rest }) => rest);
    if (field in server && !clearedFields.includes(field))
      setCleared({ from: server, fields: [...clearedFields, field] });
  };
  return { errors, refuse: setLocal, touch };
}

/**
 * After a refusal (each new `errors` object with entries that the previous one lacked), moves
 * focus to the first field that says why, so keyboard and screen-reader users land on the problem.
 */
export function useFocusFirstInvalid(container: RefObject<HTMLElement | null>, errors: Record<string, string>): void {
  const seen = useRef(errors);
  useEffect(() => {
    const before = seen.current;
    seen.current = errors;
    if (!Object.keys(errors).some((field) => !(field in before))) return;
    container.current
      ?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid] input, [data-invalid] button')
      ?.focus();
  }, [container, errors]);
}
