/**
 * Deterministic randomness and pt-BR vocabulary for the demo seed. Same seed and same `now` →
 * byte-for-byte the same rows (apart from password salts).
 */

/** mulberry32: a tiny, fast 32-bit PRNG; plenty for synthetic data, useless for secrets. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('pick from an empty list');
    return item;
  }

  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    const total = pairs.reduce((sum, [, w]) => sum + w, 0);
    let r = this.next() * total;
    for (const [value, weight] of pairs) {
      r -= weight;
      if (r < 0) return value;
    }
    const last = pairs[pairs.length - 1];
    if (last === undefined) throw new RangeError('weighted pick from an empty list');
    return last[0];
  }

  /** A random subset of at least `min` items, in the original order. */
  subset<T>(items: readonly T[], min = 1): T[] {
    const chosen = items.filter(() => this.chance(0.5));
    for (const item of items) {
      if (chosen.length >= Math.min(min, items.length)) break;
      if (!chosen.includes(item)) chosen.push(item);
    }
    return items.filter((item) => chosen.includes(item));
  }

  /** Skewed positive value around `median` (log-normal-ish), clamped to [min, max]. */
  skewed(median: number, min: number, max: number): number {
    const u = (this.next() + this.next() + this.next()) / 3 - 0.5;
    return Math.min(max, Math.max(min, Math.round(median * Math.exp(u * 2.4))));
  }
}

export const FIRST_NAMES = [
  'Ana',
  'Beatriz',
  'Camila',
  'Daniela',
  'Eduarda',
  'Fernanda',
  'Gabriela',
  'Helena',
  'Isabela',
  'Juliana',
  'Larissa',
  'Mariana',
  'Natália',
  'Patrícia',
  'Rafaela',
  'Sofia',
  'Tatiane',
  'Vitória',
  'Aline',
  'Bruna',
  'André',
  'Bruno',
  'Carlos',
  'Diego',
  'Eduardo',
  'Felipe',
  'Gustavo',
  'Henrique',
  'Igor',
  'João',
  'Lucas',
  'Marcelo',
  'Nicolas',
  'Otávio',
  'Paulo',
  'Rafael',
  'Samuel',
  'Thiago',
  'Vinícius',
  'Wagner',
] as const;

export const LAST_NAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
] as const;

/**
 * Customer tenants: pharmacy-like slugs; the two marked `deleted` are soft-deleted. The newest were
 * registered after July 2026, with alphanumeric CNPJs (src/domain/cnpj.ts): `alphanumeric` draws one,
 * `cnpj` fixes one (checked by hand in seed.test.ts).
 */
export const CUSTOMER_TENANTS: readonly { name: string; deleted?: true; alphanumeric?: true; cnpj?: string }[] = [
  { name: 'farmacia-central' },
  { name: 'drogaria-sao-joao' },
  { name: 'farmacia-bem-estar' },
  { name: 'drogaria-vida-e-saude' },
  { name: 'farmacia-popular-do-bairro' },
  { name: 'drogaria-esperanca', deleted: true },
  { name: 'farmacia-santa-luzia' },
  { name: 'drogaria-nova-era' },
  { name: 'farmacia-do-trabalhador' },
  { name: 'drogaria-familia', deleted: true },
  { name: 'farmacia-natural' },
  { name: 'drogaria-cuidar', alphanumeric: true },
  { name: 'farmacia-sao-bento', alphanumeric: true },
  { name: 'drogaria-boa-saude', cnpj: 'AB.12C.D34/0001-84' },
];

export const DEPARTMENTS = ['Atendimento', 'Vendas', 'Farmácia', 'Entregas', 'Financeiro', 'Suporte'] as const;

export const INSTANCE_NAMES = [
  'WhatsApp Balcão',
  'WhatsApp Delivery',
  'WhatsApp Oficial',
  'WhatsApp Manipulação',
] as const;

export const TEMPLATES = ['farmacia', 'drogaria', 'padrao'] as const;
export const POOLS = ['pool-a', 'pool-b', 'pool-c'] as const;

/** Lower-case ASCII for usernames and e-mail local parts: 'Natália' → 'natalia'. */
export function asciiSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '.')
    .replace(/^\.+|\.+$/g, '');
}

/** Splits rows into chunks for multi-row INSERTs (keeps each statement well under 65,535 parameters). */
export function* chunks<T>(rows: readonly T[], size = 1000): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
