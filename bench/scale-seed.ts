import type pg from 'pg';

/**
 * Bulk data for the scale bench, generated inside PostgreSQL (`insert … select generate_series`):
 * no rows cross the wire, so 1,000,000 orders take seconds. Tenant names and CNPJs look like the
 * product's (`farmacia-boa-vista-12345`, `12.345.678/0001-90`, one in ten alphanumeric as issued since
 * July 2026, `BC.DEF.GHA/0001-90`) so substring searches hit realistic trigram distributions; orders
 * spread evenly over the last 89 days across every bench tenant, inserted in time order as an
 * append-only table fills up.
 */
const PREFIXES = ['farmacia', 'drogaria', 'droga', 'farma', 'botica', 'manipulacao'];
const WORDS = [
  'central',
  'sao-joao',
  'bem-estar',
  'vida',
  'saude',
  'popular',
  'bairro',
  'esperanca',
  'santa-luzia',
  'nova-era',
  'trabalhador',
  'familia',
  'natural',
  'cuidar',
  'sao-bento',
  'boa-vista',
  'do-povo',
  'express',
  'mais',
  'real',
  'avenida',
  'praca',
  'jardim',
  'estrela',
  'aurora',
  'primavera',
  'lider',
  'unica',
  'economica',
  'total',
];

const arrayLiteral = (items: readonly string[]) => `array[${items.map((w) => `'${w}'`).join(',')}]`;

export interface ScaleSeed {
  tenants: number;
  orders: number;
  seconds: number;
}

export async function seedScale(client: pg.Client, counts: { tenants: number; orders: number }): Promise<ScaleSeed> {
  const started = Date.now();
  await client.query('begin');
  // Generated rows are consistent by construction: skip the per-row foreign-key triggers (a throwaway
  // cluster where the bench is superuser), which otherwise cost more than the inserts themselves.
  await client.query(`set local session_replication_role = replica`);
  const { rows } = await client.query<{ id: number }>(`select coalesce(max(id), 0)::int as id from tenants`);
  const firstId = (rows[0]?.id ?? 0) + 1;
  await client.query(
    `insert into tenants (id, name, cnpj, template, pool, plan, user_limit, ticket_limit, created_at, deleted_at)
     select $1::int + g - 1,
            (${arrayLiteral(PREFIXES)})[1 + g % ${PREFIXES.length}] || '-' || (${arrayLiteral(WORDS)})[1 + (g / ${PREFIXES.length}) % ${WORDS.length}] || '-' || g,
            regexp_replace(case when g % 10 = 0 then translate(left(c.d, 8), '0123456789', 'ABCDEFGHJK') || right(c.d, 6) else c.d end, '^(..)(...)(...)(....)(..)$', '\\1.\\2.\\3/\\4-\\5'),
            'default', 'pool-' || (g % 8), (array['starter','professional','enterprise'])[1 + g % 3], 5 + g % 50, 100 + g % 900,
            now() - (g % 1000) * interval '1 hour',
            case when g % 20 = 0 then now() else null end
       from generate_series(1, $2::int) as g,
            lateral (select lpad(((g::bigint * 7919 * 1000003) % 100000000000000)::text, 14, '0') as d) as c`,
    [firstId, counts.tenants],
  );
  await client.query(`select setval(pg_get_serial_sequence('tenants', 'id'), (select max(id) from tenants))`);
  await client.query(
    `insert into orders (tenant_id, created_at, customer_name, website_id, status, items, total)
     select $1::int + (g * 7) % $2::int,
            now() - interval '89 days' + (g::float8 / $3::int) * interval '88.99 days',
            (array['Ana','Bruno','Carla','Diego','Elisa','Fábio','Gabriela','Heitor'])[1 + g % 8] || ' ' || (array['Silva','Souza','Oliveira','Santos','Lima','Pereira'])[1 + g % 6],
            case when g % 3 = 0 then null else 1 + g % 5 end,
            (array['pending','confirmed','delivered','cancelled'])[1 + g % 4],
            1 + g % 12,
            round((5 + random() * 495)::numeric, 2)
       from generate_series(1, $3::int) as g`,
    [firstId, counts.tenants, counts.orders],
  );
  await client.query('commit');
  // The state autovacuum reaches minutes after a bulk load (it vacuums insert-only tables too, PG 13+):
  // planner statistics, and the visibility map that lets counts and sorted pages read indexes alone.
  // Measuring before it would time a transient that no running database stays in. The first pass right
  // after the load leaves the visibility map empty here (relallvisible 0 until a second pass; autovacuum
  // keeps passing), so tenants, which the search counts, are vacuumed until their pages are marked, at
  // most three times. Orders are read through (created_at, id) index ranges with heap fetches either way.
  for (let pass = 0; pass < 3; pass++) {
    await client.query('vacuum (analyze) tenants');
    const { rows } = await client.query<{ pages: number; visible: number }>(
      `select relpages as pages, relallvisible as visible from pg_class where relname = 'tenants'`,
    );
    if ((rows[0]?.visible ?? 0) >= (rows[0]?.pages ?? 0)) break;
  }
  await client.query('vacuum (analyze) orders');
  return { tenants: counts.tenants, orders: counts.orders, seconds: (Date.now() - started) / 1000 };
}
