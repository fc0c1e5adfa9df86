import type { Resource } from 'i18next';
import en from './en.json';
import pt from './pt.json';
import ptBR from './pt-BR.json';
import { createI18n, DEFAULT_LOCALE, SUPPORTED_LOCALES } from './setup';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const locales: Record<string, unknown> = { 'pt-BR': ptBR, pt, en };

/** Flattens nested objects into dot keys; non-string leaves are kept so they can be reported. */
function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      flatten(child, prefix ? `${prefix}.${key}` : key, out);
    }
  } else {
    out.set(prefix, value);
  }
  return out;
}

function placeholders(text: string): string[] {
  const names = [...text.matchAll(/\{\{\s*([^,}\s]+)[^}]*\}\}/g)].map((m) => m[1] ?? '');
  return [...new Set(names)].sort();
}

describe('locale files', () => {
  const source = flatten(ptBR);

  it('covers exactly the supported locales', () => {
    expect(Object.keys(locales).sort()).toEqual([...SUPPORTED_LOCALES].sort());
  });

  it('have the same keys, no empty values and the same placeholders as pt-BR', () => {
    const problems: string[] = [];
    for (const [locale, messages] of Object.entries(locales)) {
      const flat = flatten(messages);
      for (const [key, sourceValue] of source) {
        const value = flat.get(key);
        if (!flat.has(key)) {
          problems.push(`${locale}: missing key "${key}"`);
        } else if (typeof value !== 'string') {
          problems.push(`${locale}: "${key}" is not a string`);
        } else if (value.trim() === '') {
          problems.push(`${locale}: empty value for "${key}"`);
        } else if (typeof sourceValue === 'string') {
          const expected = placeholders(sourceValue).join(', ');
          const actual = placeholders(value).join(', ');
          if (expected !== actual) {
            problems.push(`${locale}: "${key}" has placeholders [${actual}], pt-BR has [${expected}]`);
          }
        }
      }
      for (const key of flat.keys()) {
        if (!source.has(key)) problems.push(`${locale}: extra key "${key}" (not in pt-BR)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps the texts docs/product.md fixes verbatim', () => {
    const i18n = createI18n();
    expect(i18n.t('auth.login.failed')).toBe('Email ou/e senha errado(s)');
    expect(i18n.t('auth.login.noToken')).toBe('Wrong Email or Password');
    expect(i18n.t('auth.login.successTitle')).toBe('Logado com sucesso!');
    expect(i18n.t('auth.login.successBody')).toBe('Você entrou na plataforma com sucesso!');
    for (const lng of ['pt', 'en']) {
      expect(createI18n(lng).t('auth.login.noToken')).toBe('Wrong Email or Password');
    }
  });
});

describe('createI18n', () => {
  it('defaults to pt-BR and is ready synchronously', () => {
    const i18n = createI18n();
    expect(DEFAULT_LOCALE).toBe('pt-BR');
    expect(i18n.isInitialized).toBe(true);
    expect(i18n.language).toBe('pt-BR');
    expect(i18n.resolvedLanguage).toBe('pt-BR');
    expect(i18n.t('app.name')).toBe(ptBR.app.name);
  });

  it('interpolates without HTML-escaping (React escapes on render)', () => {
    const i18n = createI18n();
    expect(i18n.t('common.pagination', { page: '<1>', total: 3 })).toBe('Página <1> de 3');
  });

  it('falls back pt-BR → pt → en for a missing key', () => {
    // Precondition: the three texts differ, so each assertion shows which locale answered.
    expect(new Set([ptBR.routes.users, pt.routes.users, en.routes.users]).size).toBe(3);

    const noPtBR = resourcesWithout(['pt-BR'], ['routes', 'users']);
    expect(createI18n('pt-BR', { resources: noPtBR }).t('routes.users')).toBe(pt.routes.users);

    const noPortuguese = resourcesWithout(['pt-BR', 'pt'], ['routes', 'users']);
    expect(createI18n('pt-BR', { resources: noPortuguese }).t('routes.users')).toBe(en.routes.users);
    expect(createI18n('pt', { resources: noPortuguese }).t('routes.users')).toBe(en.routes.users);
  });

  it('falls back to pt-BR for an unsupported language', () => {
    const i18n = createI18n('de');
    expect(i18n.t('app.tagline')).toBe(ptBR.app.tagline);
  });

  it('only accepts keys that exist in pt-BR.json (type-level)', () => {
    const i18n = createI18n();
    // @ts-expect-error — unknown keys must not typecheck.
    expect(i18n.t('missing.key')).toBe('missing.key');
  });
});

/** A deep copy of the bundled resources with one key removed from the given locales. */
function resourcesWithout(from: readonly string[], path: readonly [string, ...string[]]): Resource {
  const copy = structuredClone({ 'pt-BR': ptBR, pt, en }) as Record<string, { [key: string]: Json }>;
  for (const locale of from) {
    let node: Json | undefined = copy[locale];
    for (const segment of path.slice(0, -1)) {
      node = isObject(node) ? node[segment] : undefined;
    }
    const last = path[path.length - 1] ?? '';
    if (!isObject(node) || !(last in node)) throw new Error(`${locale} has no key ${path.join('.')}`);
    delete node[last];
  }
  return Object.fromEntries(Object.entries(copy).map(([locale, translation]) => [locale, { translation }]));
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
