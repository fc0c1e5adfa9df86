import type ptBR from './pt-BR.json';

/** Dot paths of the string leaves of a nested message object. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** i18next's plural suffixes (`_one`, `_other`, …): a plural pair is one key, read with `count`. */
type PluralSuffix = '_zero' | '_one' | '_two' | '_few' | '_many' | '_other';
type WithoutPlural<K extends string> = K extends `${infer Base}${PluralSuffix}` ? Base : K;

/**
 * A key of `src/i18n/pt-BR.json` (the source of truth for keys). Machines and the domain hold these,
 * never translated text, and typing them makes a misspelt or missing key a compile error.
 */
export type I18nKey = WithoutPlural<Leaves<typeof ptBR>>;
