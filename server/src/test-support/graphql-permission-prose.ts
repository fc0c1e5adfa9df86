import type { GraphQLSchema } from 'graphql';

/**
 * Tests only: the "Permission:" lines of contracts/schema.graphql are documentation, and
 * server/src/graphql/field-policies.test.ts holds them equal to the policies the server enforces
 * (server/src/access/policies.ts). Nothing authorizes from them.
 *
 * What each root field's description says it requires, read from contracts/schema.graphql ("Permission:
 * route `users`", "any one of routes `a`, `b`", "any signed-in user", "none"), so the schema is the
 * one place it is written. A field whose permission depends on its arguments ("…; without it, a
 * signed-in user may still…") requires a signed-in user here; its service decides the rest.
 */
export type FieldAccess = { kind: 'public' } | { kind: 'signed-in' } | { kind: 'routes'; routes: readonly string[] };

export function accessOf(description: string | null | undefined): FieldAccess {
  const line = /Permission:\s*([^\n]*)/.exec(description ?? '')?.[1] ?? '';
  if (/^none\b/.test(line)) return { kind: 'public' };
  if (/without it/.test(line) || /^any signed-in user/.test(line)) return { kind: 'signed-in' };
  // The names before any aside: "any one of routes `a`, `b`, `c` (why…)".
  const stated = line.split(/[(;]/)[0] ?? '';
  const routes = [...stated.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1] ?? '').filter(Boolean);
  if (/^(any one of )?routes?\b/.test(line) && routes.length > 0) return { kind: 'routes', routes };
  throw new Error(`contracts/schema.graphql: cannot read the permission "${line}"`);
}

/** Root field name → access, for `Query` and `Mutation`; throws when a root field states no permission. */
export function fieldAccessTable(schema: GraphQLSchema): {
  query: ReadonlyMap<string, FieldAccess>;
  mutation: ReadonlyMap<string, FieldAccess>;
} {
  const table = (type: ReturnType<GraphQLSchema['getQueryType']>) =>
    new Map(Object.values(type?.getFields() ?? {}).map((field) => [field.name, accessOf(field.description)] as const));
  return { query: table(schema.getQueryType()), mutation: table(schema.getMutationType()) };
}
