import type ptBR from './pt-BR.json';

/** Dot paths of the string leaves of a nested message object. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/**
 * A key of `src/i18n/pt-BR.json` (the source of truth for keys). Machines and the domain hold these,
 * never translated text, and typing them makes a misspelt or missing key a compile error.
 */
export type I18nKey = Leaves<typeof ptBR>;
