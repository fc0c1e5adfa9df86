import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The app's own messages (src/i18n/*.json), so specs look for what the screens say instead of
 * hard-coding copies of it. `{{name}}` interpolation as i18next does it.
 */
export type Locale = 'pt-BR' | 'pt' | 'en';

const DIR = resolve(import.meta.dirname, '../../../src/i18n');
const cache = new Map<Locale, Record<string, unknown>>();

function messages(locale: Locale): Record<string, unknown> {
  let value = cache.get(locale);
  if (!value) {
    value = JSON.parse(readFileSync(resolve(DIR, `${locale}.json`), 'utf8')) as Record<string, unknown>;
    cache.set(locale, value);
  }
  return value;
}

function lookup(locale: Locale, key: string): string | undefined {
  let node: unknown = messages(locale);
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** The translated text of `key` (pt-BR by default), falling back like the app (pt-BR → pt → en). */
export function t(key: string, vars: Record<string, string | number> = {}, locale: Locale = 'pt-BR'): string {
  const chain: Locale[] = locale === 'pt-BR' ? ['pt-BR', 'pt', 'en'] : locale === 'pt' ? ['pt', 'en'] : ['en'];
  const count = vars.count;
  for (const candidate of chain) {
    const plural = count === undefined ? undefined : lookup(candidate, `${key}_${count === 1 ? 'one' : 'other'}`);
    const text = plural ?? lookup(candidate, key);
    if (text !== undefined)
      return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(vars[name] ?? `{{${name}}}`));
  }
  throw new Error(`i18n key not found: ${key} (${locale})`);
}

/** `t` for English. */
export const en = (key: string, vars?: Record<string, string | number>): string => t(key, vars, 'en');

/** Escapes text for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
