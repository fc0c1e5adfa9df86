export type { I18nKey } from '../i18n/keys';
