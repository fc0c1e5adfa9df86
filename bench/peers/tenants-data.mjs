/**
 * The 100 tenants of the page-load comparison (bench/page-load.ts): the peers bundle them, and the bench
 * creates the same ones in the real server through `POST /api/tenant`. Deterministic (a seeded
 * PRNG, no clock), plain JavaScript with no imports so both a browser bundle and Node can use it.
 *
 * Every tenant satisfies the server's `TenantCreate` (contracts/openapi.yaml): a slug name
 * (`^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$`), a numeric CNPJ with valid check digits (the modulus-11
 * rule of src/domain/cnpj.ts), a plan the contract lists, and limits in range.
 */

export const TENANT_COUNT = 100;
export const PLANS = ['starter', 'professional', 'enterprise'];

const BRANDS = [
  'alfa',
  'brisa',
  'cidade',
  'delta',
  'estrela',
  'farol',
  'granja',
  'horizonte',
  'ipe',
  'jatoba',
  'lago',
  'mar',
  'norte',
  'oeste',
  'prado',
  'rio',
  'serra',
  'sol',
  'terra',
  'vale',
];
const TRADES = [
  'farmacia',
  'drogaria',
  'mercado',
  'padaria',
  'clinica',
  'escola',
  'oficina',
  'livraria',
  'otica',
  'pet',
];
const FEATURES = ['campaigns', 'chat', 'chatbot', 'analytics', 'webhooks', 'blacklist'];
const USER_LIMITS = { starter: 5, professional: 25, enterprise: 200 };
const TICKET_LIMITS = { starter: 1000, professional: 10000, enterprise: 100000 };

/** A 32-bit xorshift generator: the same seed gives the same sequence in every engine. */
function generator(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}

/** One modulus-11 check digit over `digits` with the CNPJ weights (…, 9, 8, …, 2 from the right). */
function checkDigit(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += digits[digits.length - 1 - i] * ((i % 8) + 2);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** A masked numeric CNPJ (`12.345.678/0001-95`) from 8 random root digits, branch 0001 (so never one digit repeated). */
function cnpj(random) {
  const base = [];
  for (let i = 0; i < 8; i += 1) base.push(Math.floor(random() * 10));
  base.push(0, 0, 0, 1);
  base.push(checkDigit(base));
  base.push(checkDigit(base));
  const s = base.join('');
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}

/**
 * The tenants, `id` 1…count. `name`, `cnpj`, `plan`, `userLimit`, `ticketLimit`, `features`,
 * `template` and `pool` are what the server is sent; `id` is the peers' own key (the server assigns its own).
 */
export function makeTenants(count = TENANT_COUNT, seed = 20261125) {
  const random = generator(seed);
  const tenants = [];
  for (let id = 1; id <= count; id += 1) {
    const trade = TRADES[Math.floor(random() * TRADES.length)];
    const brand = BRANDS[Math.floor(random() * BRANDS.length)];
    const plan = PLANS[Math.floor(random() * PLANS.length)];
    const features = FEATURES.filter(() => random() < 0.5);
    tenants.push({
      id,
      // The id keeps names unique; the prefix keeps them apart from the demo seed's tenants.
      name: `bench-${trade}-${brand}-${String(id).padStart(3, '0')}`,
      cnpj: cnpj(random),
      plan,
      userLimit: USER_LIMITS[plan] + Math.floor(random() * 10),
      ticketLimit: TICKET_LIMITS[plan],
      features: features.length ? features : ['chat'],
      template: trade,
      pool: `pool-${(id % 3) + 1}`,
    });
  }
  return tenants;
}

/** What `POST /api/tenant` takes for one of them (contracts/openapi.yaml `TenantCreate`). */
export function tenantCreateBody(tenant) {
  const { name, cnpj: masked, features, template, pool, userLimit, plan, ticketLimit } = tenant;
  return { name, cnpj: masked, features, template, pool, userLimit, plan, ticketLimit };
}

/**
 * One page of tenants as both peers' in-memory data providers ask for it: `q` matches the name or the
 * CNPJ (case-insensitive), sorted by `field` in `order` (ties by id), 1-based `page` of `perPage`.
 */
export function queryTenants(rows, { q = '', field = 'id', order = 'asc', page = 1, perPage = 100 } = {}) {
  const needle = String(q).trim().toLowerCase();
  const matched = needle ? rows.filter((r) => r.name.includes(needle) || r.cnpj.toLowerCase().includes(needle)) : rows;
  const sign = String(order).toLowerCase() === 'desc' ? -1 : 1;
  const sorted = [...matched].sort((a, b) => {
    const x = a[field];
    const y = b[field];
    const d = x < y ? -1 : x > y ? 1 : a.id - b.id;
    return d * sign;
  });
  return { data: sorted.slice((page - 1) * perPage, page * perPage), total: matched.length };
}
