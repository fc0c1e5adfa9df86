/**
 * Abusive GraphQL documents shared by the tests (server/src/graphql/limits.test.ts) and the bench
 * (bench/graphql-limits.ts).
 */

/**
 * Under the public `logIn` field (no token needed), fragments F0 … F{links-1} each spreading the next
 * twice, the last selecting `token`: 2^links fields once expanded, a few dozen tokens written.
 */
export function loginFragmentChain(links: number): string {
  const parts = ['mutation { logIn(email: "nobody@demo.local", password: "wrong-password") { ...F0 } }'];
  for (let i = 0; i < links; i += 1) parts.push(`fragment F${i} on AuthPayload { ...F${i + 1} ...F${i + 1} }`);
  parts.push(`fragment F${links} on AuthPayload { token }`);
  return parts.join('\n');
}
