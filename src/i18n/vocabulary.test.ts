import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { routes } from '../domain/paths';
import en from './en.json';
import pt from './pt.json';
import ptBR from './pt-BR.json';
import { createI18n } from './setup';

/**
 * One vocabulary (docs/product.md, Glossary): the glossary's table is read here, so a word it bans
 * cannot come back into pt-BR copy unnoticed.
 */

const locales = { 'pt-BR': ptBR, pt, en } as const;

/** Texts docs/product.md (Errors) fixes word for word, "(s)" and English included. */
const FIXED = new Set(['auth.login.failed', 'auth.login.noToken']);

/** "Perfil" is the person's own profile (the glossary's Perfil row), never a role. */
const OWN_PROFILE = /^(shell\.profile|settings\.profile\.|settings\.errors\.profile$|settings\.notices\.profileSaved$)/;

function flatten(value: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else if (typeof value === 'string') {
    out.set(prefix, value);
  }
  return out;
}

/** The glossary table: each row's pt-BR word and the words pt-BR copy must not use for it. */
export function readGlossary(markdown: string): { word: string; banned: string[] }[] {
  const start = markdown.indexOf('\n## Glossary\n');
  if (start < 0) throw new Error('docs/product.md has no Glossary section');
  const end = markdown.indexOf('\n## ', start + 1);
  const rows = markdown
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .slice(2)
    .map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return rows.map((cells) => ({
    word: cells[0] ?? '',
    banned: [...(cells[4] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''),
  }));
}

/** A whole word (or phrase), any case: letters, digits and hyphens on either side make another word. */
function wordPattern(word: string): RegExp {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}-])${escaped}(?![\\p{L}\\p{N}-])`, 'iu');
}

/** "falha(s)", "registro(s) novo(s)", "operador(es)": a plural written by hand instead of `count`. */
const HAND_PLURAL = /\p{L}\((?:s|es|as|os)\)/u;

/** Every text of a locale that is not fixed by docs/product.md, with its key. */
function texts(messages: unknown): [string, string][] {
  return [...flatten(messages)].filter(([key]) => !FIXED.has(key));
}

export function vocabularyProblems(messages: unknown, glossary: { word: string; banned: string[] }[]): string[] {
  const problems: string[] = [];
  const banned = glossary.flatMap(({ word, banned: words }) =>
    words.map((w) => ({ word, w, pattern: wordPattern(w) })),
  );
  // Route names that read as keys (`dashboard-analytics`, `roles-edit`): a view shows the page title.
  const routeKeys = routes.map((r) => r.name).filter((name) => name.includes('-'));
  for (const [key, raw] of texts(messages)) {
    // Placeholder names (`{{tenant}}`) are code, not copy.
    const text = raw.replace(/\{\{[^}]*\}\}/g, '{}');
    if (HAND_PLURAL.test(text)) problems.push(`${key}: "${text}" writes a plural by hand; use _one/_other and count`);
    for (const { word, w, pattern } of banned) {
      if (w.toLowerCase() === 'perfil' && OWN_PROFILE.test(key)) continue;
      if (pattern.test(text)) problems.push(`${key}: "${text}" says "${w}"; the glossary says "${word}"`);
    }
    for (const name of routeKeys) {
      if (wordPattern(name).test(text)) problems.push(`${key}: "${text}" shows the raw route name ${name}`);
    }
    if (/^[a-z][\w-]*(\.[\w-]+)+$/.test(text)) problems.push(`${key}: "${text}" reads as a raw i18n key`);
  }
  return problems;
}

/** Words after a count that do not change with it: prepositions and units ("3 de 10", "5 min", "2 more"). */
const INVARIANT_AFTER_COUNT = new Set(['de', 'com', 'min', 'of', 'failed', 'more']);

/** A plural form's suffix (i18next's `_one`, `_other`, …). */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * Texts that put `{{count}}` before a word that agrees with it ("{{count}} registros") without being
 * a plural form: the word is then wrong for one of the counts. A figure after a colon or in
 * parentheses ("Filtros ({{count}})") needs no forms.
 */
export function countProblems(messages: unknown): string[] {
  const problems: string[] = [];
  for (const [key, text] of texts(messages)) {
    if (PLURAL_SUFFIX.test(key)) continue;
    for (const match of text.matchAll(/\{\{\s*count\s*\}\}\s+(\p{L}+)/gu)) {
      const word = match[1] ?? '';
      if (!INVARIANT_AFTER_COUNT.has(word.toLowerCase()))
        problems.push(`${key}: "${text}" puts {{count}} before "${word}" without _one/_other forms`);
    }
  }
  return problems;
}

const glossary = readGlossary(readFileSync(resolve(import.meta.dirname, '../../docs/product.md'), 'utf8'));

describe('one vocabulary (docs/product.md, Glossary)', () => {
  it('reads the glossary: a pt-BR word per concept and the words it replaces', () => {
    const words = glossary.map((row) => row.word);
    expect(words).toEqual(expect.arrayContaining(['Empresa', 'Função', 'E-mail', 'Relatório inteligente']));
    const banned = glossary.flatMap((row) => row.banned);
    expect(banned).toEqual(expect.arrayContaining(['Tenant', 'Email', 'Pool', 'Smart', 'Perfis', 'Rotas']));
  });

  it('pt-BR copy uses only the glossary words, no hand-written plural and no raw route name', () => {
    expect(vocabularyProblems(ptBR, glossary)).toEqual([]);
  });

  it('European Portuguese copy avoids the same words (the glossary gives both Portuguese columns)', () => {
    expect(vocabularyProblems(pt, glossary)).toEqual([]);
  });

  it('the check catches each kind of slip', () => {
    const slips = {
      menu: { tenants: 'Tenants', roles: 'Perfis' },
      reports: { total: '{{rows}} falha(s) no período.', attendants: '{{rows}} atendente(s)' },
      routes: { smart: 'Relatório Smart', allowed: 'Rotas permitidas', raw: 'dashboard-analytics' },
      users: { email: 'Email', pool: 'Pool', key: 'routes.users' },
      settings: { profile: { heading: 'Perfil' } },
    };
    expect(vocabularyProblems(slips, glossary).map((p) => p.split(':')[0])).toEqual([
      'menu.tenants',
      'menu.roles',
      'reports.total',
      'reports.attendants',
      'routes.smart',
      'routes.allowed',
      'routes.raw',
      'users.email',
      'users.pool',
      'users.key',
    ]);
  });

  it('no locale writes a plural by hand', () => {
    for (const messages of Object.values(locales)) {
      const hand = texts(messages).filter(([, text]) => HAND_PLURAL.test(text));
      expect(hand).toEqual([]);
    }
  });
});

describe('plural forms', () => {
  it('no locale puts a count before a word that agrees with it without plural forms', () => {
    for (const [locale, messages] of Object.entries(locales))
      expect([locale, countProblems(messages)]).toEqual([locale, []]);
  });

  it('the count check catches a count with a noun and passes figures, prepositions and plural forms', () => {
    const slips = {
      a: { noun: '{{count}} registros novos', first: 'Mostrando as {{count}} primeiras' },
      b: { colon: 'Entregas geradas: {{count}}', parens: 'Filtros ({{count}})', of: '{{count}} de {{limit}}' },
      c: { rows_one: '{{count}} linha', rows_other: '{{count}} linhas', unit: 'Liberada em {{count}} min' },
    };
    expect(countProblems(slips).map((p) => p.split(':')[0])).toEqual(['a.noun', 'a.first']);
  });

  it('counts that were plain numbers before read with count: one and other', () => {
    const i18n = createI18n();
    const en = createI18n('en');
    const sync = (count: number) => ({ count, name: 'Loja', messages: String(count) });
    expect(i18n.t('instances.live.done', sync(1))).toBe('Sincronização de Loja concluída: 1 mensagem.');
    expect(i18n.t('instances.live.done', sync(2))).toBe('Sincronização de Loja concluída: 2 mensagens.');
    expect(en.t('instances.live.done', sync(1))).toBe('Sync of Loja finished: 1 message.');
    expect(i18n.t('webhooks.generator.progress', { count: 1, done: 0, total: 1 })).toBe('0 de 1 tipo');
    expect(en.t('webhooks.generator.progress', { count: 3, done: 2, total: 3 })).toBe('2 of 3 types');
    const partial = (count: number, total: number) => ({ count, failed: count, total });
    expect(i18n.t('features.editor.outcome.partial', partial(1, 3))).toMatch(/^1 de 3 não foi salva;/);
    expect(i18n.t('features.editor.outcome.partial', partial(2, 3))).toMatch(/^2 de 3 não foram salvas;/);
    expect(en.t('features.editor.outcome.partial', partial(1, 3))).toMatch(/^1 of 3 was not saved;/);
    expect(i18n.t('webhooks.generator.outcome.partial', partial(1, 3))).toBe(
      '1 de 3 tipos falhou; tente de novo só esse.',
    );
    expect(i18n.t('webhooks.generator.outcome.partial', partial(2, 3))).toMatch(/^2 de 3 tipos falharam;/);
    expect(en.t('webhooks.generator.outcome.partial', partial(1, 3))).toMatch(/retry just that one\.$/);
    expect(i18n.t('selection.selectMatching', { count: 1, n: '1' })).toBe('Selecionar o 1 correspondente');
    expect(en.t('selection.selectMatching', { count: 1200, n: '1,200' })).toBe('Select all 1,200 matching');
  });

  it('every _one key has its _other, in every locale', () => {
    for (const [locale, messages] of Object.entries(locales)) {
      const keys = new Set(flatten(messages).keys());
      for (const key of keys) {
        const base = /^(.*)_(one|other)$/.exec(key)?.[1];
        if (base) expect([locale, keys.has(`${base}_one`) && keys.has(`${base}_other`)]).toEqual([locale, true]);
      }
    }
  });

  it('follow Intl.PluralRules: pt-BR counts 0 as one, Portugal as other, English as other', () => {
    const say = (lng: string, count: number) => createI18n(lng).t('audit.unseen', { count });
    expect(say('pt-BR', 0)).toBe('0 registro novo desde que a lista foi carregada.');
    expect(say('pt-BR', 1)).toBe('1 registro novo desde que a lista foi carregada.');
    expect(say('pt-BR', 2)).toBe('2 registros novos desde que a lista foi carregada.');
    expect(say('pt', 0)).toBe('0 registos novos desde que a lista foi carregada.');
    expect(say('pt', 1)).toBe('1 registo novo desde que a lista foi carregada.');
    expect(say('en', 0)).toBe('0 new records since the list was loaded.');
    expect(say('en', 1)).toBe('1 new record since the list was loaded.');
  });

  it('a formatted number is shown while count picks the form', () => {
    const i18n = createI18n();
    expect(i18n.t('reports.screen.loginFailures.total', { count: 1200, rows: '1.200' })).toBe(
      '1.200 falhas no período.',
    );
    expect(i18n.t('users.list.total', { count: 1, total: '1' })).toBe('1 usuário');
  });
});
