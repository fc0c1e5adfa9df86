import type { TFunction } from 'i18next';
import type { I18nKey } from '../../domain/i18n-key';

/** Templates the product ships (server/src/db/seed-random.ts `TEMPLATES`), each with its label. */
const TEMPLATE_KEYS: Readonly<Record<string, I18nKey>> = {
  farmacia: 'tenants.screen.templates.farmacia',
  drogaria: 'tenants.screen.templates.drogaria',
  padrao: 'tenants.screen.templates.padrao',
};

/** `pool-a` → `A`: the provider names its server pools `pool-<letter or number>`. */
const NAMED_POOL = /^pool[-_]([a-z0-9]+)$/;

/**
 * A slug written for people: `minha-loja` → `Minha loja`. Template and pool are free slugs
 * (docs/product.md, Tenants); a view never prints them raw (docs/product.md, Glossary).
 */
export function humanizeSlug(slug: string): string {
  const words = slug.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : slug;
}

/** Labels of a tenant's template and pool: the known ones from src/i18n, any other one humanized. */
export function tenantValueLabels(t: TFunction): {
  template: (value: string) => string;
  pool: (value: string) => string;
} {
  return {
    template: (value) => {
      const key = TEMPLATE_KEYS[value];
      return key ? t(key) : humanizeSlug(value);
    },
    pool: (value) => {
      const named = NAMED_POOL.exec(value)?.[1];
      return named ? t('tenants.screen.pools.named', { name: named.toUpperCase() }) : humanizeSlug(value);
    },
  };
}
