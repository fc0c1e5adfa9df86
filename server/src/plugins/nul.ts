import type { FastifyRequest } from 'fastify';

/**
 * PostgreSQL cannot store U+0000 in text: requests holding it are refused up front (contracts/openapi.yaml
 * conventions) rather than failing in the database with a 500.
 */

/** Where in a parsed value a string holds U+0000 (`a.b.0`, '' for the value itself), or null. */
export function nulPath(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : null;
  if (depth > 64 || typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return key.split('\u0000').join('\\0');
    const found = nulPath(inner, depth + 1);
    if (found !== null) return found ? `${key}.${found}` : key;
  }
  return null;
}

export const NUL_MESSAGE = 'must not contain NUL characters (U+0000)';

/** The first part of the request (path, query, body) holding U+0000, and where in it; null when none does. */
export function nulIn(request: FastifyRequest): { part: 'path' | 'query' | 'body'; where: string } | null {
  for (const [part, value] of [
    ['path', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const where = nulPath(value);
    if (where !== null) return { part, where };
  }
  return null;
}
