import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OPENAPI_PATH } from '../app';

/**
 * Walking contracts/openapi.yaml for tests that derive their cases from it: the malformed-input test
 * (fixed cases) and the contract fuzzer (fast-check arbitraries). `deref` follows `#/components/...`,
 * `sample` builds a valid value, `wrongValues` lists values no reading of a schema accepts, and
 * `OPERATIONS` lists every operation with its parameters and JSON body schema.
 */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  uniqueItems?: boolean;
  pattern?: string;
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  example?: unknown;
  default?: unknown;
};
export interface Parameter {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
  example?: unknown;
}
export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: {
    $ref?: string;
    content?: Record<string, { schema: Schema; example?: unknown; examples?: Record<string, { value: unknown }> }>;
  };
  responses?: Record<string, unknown>;
  security?: unknown[];
  'x-permission'?: string | string[];
}
export interface Document {
  paths: Record<string, Record<string, Operation> & { parameters?: Parameter[] }>;
  components: Record<string, Record<string, unknown>>;
}

export const OPENAPI_DOCUMENT = parse(readFileSync(OPENAPI_PATH, 'utf8')) as Document;
const doc = OPENAPI_DOCUMENT;
export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function deref<T extends { $ref?: string }>(value: T): T {
  if (!value.$ref) return value;
  const [, , section, name] = value.$ref.split('/');
  const target = doc.components[section ?? '']?.[name ?? ''];
  if (!target) throw new Error(`unresolved ${value.$ref}`);
  return deref(target as T);
}

/** The name of the component a schema refers to (`Id` for `#/components/schemas/Id`), if any. */
export const refName = (schema: Schema): string | undefined => schema.$ref?.split('/').pop();

export function typeOf(schema: Schema): string | undefined {
  const s = deref(schema);
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  return s.type;
}

/** A value of the schema, for the valid baseline a case then breaks in one place. */
export function sample(schema: Schema): unknown {
  const s = deref(schema);
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  if (s.oneOf?.[0]) return sample(s.oneOf[0]);
  if (s.anyOf?.[0]) return sample(s.anyOf[0]);
  switch (typeOf(s)) {
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries((s.required ?? []).map((key) => [key, sample(s.properties?.[key] ?? {})]));
    default:
      return s.format === 'date'
        ? '2026-01-01'
        : s.format === 'date-time'
          ? '2026-01-01T00:00:00Z'
          : 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

/** Values no reading of the schema accepts (as JSON values; query strings are their String()). */
export function wrongValues(schema: Schema, inQuery: boolean): unknown[] {
  const s = deref(schema);
  const out: unknown[] = [];
  const type = typeOf(s);
  if (type === 'integer' || type === 'number') {
    out.push(inQuery ? 'abc' : 'abc', inQuery ? '1e999' : { n: 1 });
    if (type === 'integer') out.push(inQuery ? '1.5' : 1.5);
    // A number in a query or path is decimal digits (server/src/app-validation.ts withDecimalNumbers):
    // what `Number()` would also read is refused.
    if (inQuery) out.push('0x10', '5e0', '+5', ' 5');
    if (s.minimum !== undefined) out.push(s.minimum - 1);
    if (s.maximum !== undefined) out.push(s.maximum + 1);
  } else if (type === 'boolean') {
    out.push(inQuery ? 'maybe' : 'yes');
  } else if (type === 'array') {
    if (!inQuery) out.push('not-an-array', { a: 1 });
  } else if (type === 'object') {
    out.push('not-an-object', [1]);
  } else if (type === 'string') {
    if (!inQuery) out.push(12345, ['x']);
    if (s.enum) out.push('not-one-of-the-enum');
    if (s.format === 'date') out.push('2026-13-45');
    if (s.format === 'date-time') out.push('yesterday');
    if (s.format === 'email') out.push('not-an-email');
    if (s.pattern && !new RegExp(s.pattern).test('Not Valid!!')) out.push('Not Valid!!');
    if (s.maxLength !== undefined) out.push('a'.repeat(s.maxLength + 1));
    if (s.minLength !== undefined && s.minLength > 0 && !inQuery) out.push('');
  }
  return out;
}

export function buildUrl(path: string, pathValues: Record<string, unknown>, query: Record<string, unknown>): string {
  const filled = path.replace(/\{(\w+)\}/g, (_m, key: string) => encodeURIComponent(String(pathValues[key])));
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return qs ? `${filled}?${qs}` : filled;
}

export interface ContractOperation {
  path: string;
  method: (typeof METHODS)[number];
  op: Operation;
  operationId: string;
  /** Path and query parameters, dereferenced (headers left out). */
  params: Parameter[];
  /** The JSON request body, when the operation takes one. */
  body?: { schema: Schema; example: unknown; required: boolean };
  /** Whether the operation needs no token (`security: []`). */
  public: boolean;
}

/** Every operation of the contract, in document order. */
export const OPERATIONS: ContractOperation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => {
    const op = item[method] as Operation;
    const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref).filter((p) => p.in !== 'header');
    const requestBody = op.requestBody ? deref(op.requestBody) : undefined;
    const content = requestBody?.content?.['application/json'];
    const example = content
      ? (content.example ?? Object.values(content.examples ?? {})[0]?.value ?? sample(content.schema))
      : undefined;
    return {
      path,
      method,
      op,
      operationId: op.operationId,
      params,
      ...(content
        ? {
            body: {
              schema: content.schema,
              example,
              required: (requestBody as { required?: boolean }).required ?? false,
            },
          }
        : {}),
      public: Array.isArray(op.security) && op.security.length === 0,
    };
  }),
);
