import { Kind } from 'graphql';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CONTRACTS_DIR } from './contracts-dir.js';
import { GRAPHQL_OPERATIONS, graphqlSchema } from './kit-contract.js';
import { asArray, asRecord } from './kit-client.js';
import type { ConformanceClient } from './kit-client.js';

/**
 * What the negative checks (./checks-negative.ts) and the token protocol (./checks-tokens.ts) read from
 * the contracts: each REST operation's permission (`x-permission`, `x-staff-only`,
 * `x-permission-for-others` in contracts/openapi.yaml), each GraphQL root field's "Permission:" line
 * (contracts/schema.graphql), and a GraphQL call at any tenant's path checked against the ERRORS table.
 */

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface RawOperation {
  operationId?: string;
  'x-permission'?: string[] | 'public';
  'x-staff-only'?: boolean;
  'x-permission-for-others'?: string[];
  requestBody?: unknown;
}

/** One REST operation and the permission the contract says it needs. */
export interface RestAccess {
  operationId: string;
  method: string;
  path: string;
  /** Any one suffices; empty: any signed-in user; 'public': no token. */
  permission: string[] | 'public';
  staffOnly: boolean;
  forOthers: string[] | null;
  hasBody: boolean;
}

const openapi = parseYaml(readFileSync(join(CONTRACTS_DIR, 'openapi.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, RawOperation>>;
};

export const REST_ACCESS: RestAccess[] = Object.entries(openapi.paths).flatMap(([path, item]) =>
  HTTP_METHODS.filter((m) => item[m]?.operationId).map((method) => {
    const op = item[method] as RawOperation;
    return {
      operationId: op.operationId as string,
      method: method.toUpperCase(),
      path,
      permission: op['x-permission'] ?? [],
      staffOnly: op['x-staff-only'] === true,
      forOthers: op['x-permission-for-others'] ?? null,
      hasBody: op.requestBody !== undefined,
    };
  }),
);

/** The route permissions a GraphQL operations file needs, from its root fields' "Permission:" lines. */
export interface GraphqlAccess {
  name: string;
  /** Per root field: the routes of which any one suffices; empty: any signed-in user or none. */
  fields: { field: string; routes: string[]; selfService: boolean }[];
}

/**
 * "Permission: route `users`.", "Permission: any one of routes `a`, `b` (…)", "Permission: route `users`;
 * without it, a signed-in user may still …" (the self-service rule), "Permission: any signed-in user.",
 * "Permission: none".
 */
export function permissionOf(description: string): { routes: string[]; selfService: boolean } {
  const match = /Permission:\s*([\s\S]*?)(?:\.\s|\.$|;|\(|$)/.exec(description);
  const sentence = match?.[1] ?? '';
  const routes = [...sentence.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1] as string);
  const rest = description.slice((match?.index ?? 0) + (match?.[0].length ?? 0) - 1);
  return { routes, selfService: /^;\s*without it/.test(rest) };
}

export const GRAPHQL_ACCESS: GraphqlAccess[] = GRAPHQL_OPERATIONS.map((op) => {
  const root = op.operation.operation === 'mutation' ? graphqlSchema.getMutationType() : graphqlSchema.getQueryType();
  const fields = root?.getFields() ?? {};
  return {
    name: op.name,
    fields: op.operation.selectionSet.selections
      .filter((s) => s.kind === Kind.FIELD)
      .map((s) => {
        const field = s.kind === Kind.FIELD ? s.name.value : '';
        return { field, ...permissionOf(fields[field]?.description ?? '') };
      }),
  };
});

export interface GraphqlAnswer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

/** One operations file (contracts/operations) at `/{tenant}/graphql`, unrecorded. */
export async function graphqlAt(
  c: ConformanceClient,
  tenant: string,
  name: string,
  variables: Record<string, unknown>,
  token: string | null,
): Promise<GraphqlAnswer> {
  const operation = GRAPHQL_OPERATIONS.find((op) => op.name === name);
  if (!operation) throw new Error(`contracts/operations has no operation ${name}`);
  const answer = await c.http('POST', `/${encodeURIComponent(tenant)}/graphql`, {
    token,
    body: { query: operation.source, operationName: name, variables },
    accept: 'application/graphql-response+json, application/json',
  });
  return { status: answer.status, body: asRecord(answer.json), text: answer.text };
}

/**
 * A GraphQL refusal during execution at any tenant's path, as contracts/schema.graphql ERRORS says:
 * HTTP 403 for FORBIDDEN (200 otherwise), `errors[0].extensions.code` (and `field`), a message, and
 * nothing in `data` for the refused field. Recorded as one check named `label`.
 */
export async function expectGraphqlRefusal(
  c: ConformanceClient,
  label: string,
  at: { tenant: string; token: string | null },
  name: string,
  variables: Record<string, unknown>,
  expected: { code: string; field?: string },
): Promise<void> {
  let answer: GraphqlAnswer;
  try {
    answer = await graphqlAt(c, at.tenant, name, variables, at.token);
  } catch (error) {
    c.check(label, 'graphql', 0, [`request failed: ${(error as Error).message}`]);
    return;
  }
  const problems: string[] = [];
  const status = expected.code === 'FORBIDDEN' ? 403 : 200;
  if (answer.status !== status)
    problems.push(`expected HTTP ${status}, got ${answer.status}: ${answer.text.slice(0, 300)}`);
  const first = asRecord(asArray(answer.body.errors)[0]);
  const extensions = asRecord(first.extensions);
  if (extensions.code !== expected.code)
    problems.push(
      `expected error code ${expected.code}, got ${JSON.stringify(answer.body.errors ?? null).slice(0, 300)}`,
    );
  if (expected.field !== undefined && extensions.field !== expected.field)
    problems.push(`expected extensions.field ${expected.field}, got ${JSON.stringify(extensions.field ?? null)}`);
  if (typeof first.message !== 'string' || first.message === '') problems.push('the error has no message');
  const data = asRecord(answer.body.data);
  if (data[name] !== undefined && data[name] !== null) problems.push(`data.${name} is set on a refusal`);
  c.check(label, 'graphql', answer.status, problems);
}

/** A REST call of the kit's own set-up or clean-up: the JSON body, or an error naming what failed. */
export async function fixture(
  c: ConformanceClient,
  what: string,
  method: string,
  path: string,
  expected: number,
  opts: { body?: unknown; query?: Record<string, string | number | boolean | undefined>; token?: string | null } = {},
): Promise<Record<string, unknown>> {
  const answer = await c.http(method, path, opts);
  if (answer.status !== expected)
    throw new Error(`${what}: ${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  return asRecord(answer.json);
}

/** The id of a record a fixture answered, or an error naming it. */
export function idOf(record: Record<string, unknown>, what: string): number {
  if (typeof record.id !== 'number') throw new Error(`${what}: the answer has no id: ${JSON.stringify(record)}`);
  return record.id;
}

/** The claims of a JWT (docs/security.md §1: one HS256 JWT per session), or null when it is none. */
export function jwtParts(token: string): { header: string; claims: Record<string, unknown>; signature: string } | null {
  const [header, payload, signature] = token.split('.');
  if (header === undefined || payload === undefined || signature === undefined) return null;
  try {
    return { header, claims: asRecord(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))), signature };
  } catch {
    return null;
  }
}

export const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
