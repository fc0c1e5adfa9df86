import { useTranslation } from 'react-i18next';
import type { I18nKey } from '../../../domain/i18n-key';

/**
 * A feature option's name for people (`chatbot` → "Chatbot", `blacklist` → "Contatos bloqueados").
 * The server may know options this build does not: those show their option name as is.
 */
export function useFeatureLabel(): (option: string) => string {
  const { t, i18n } = useTranslation();
  return (option) => {
    const key = `features.options.${option}`;
    return i18n.exists(key) ? t(key as I18nKey) : option;
  };
}
