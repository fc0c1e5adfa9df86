import { buildUrl, deref, sample, typeOf, wrongValues, type ContractOperation, type Schema } from './openapi-schema';
import { MALFORMED_JSON, oversizedBody } from './ordering';

/** REST requests each operation must refuse as invalid, for the order-of-checks suites (./ordering.ts). */

// ------------------------------------------------------------------------------------------------------
// REST: invalid requests per operation, from its own schemas
// ------------------------------------------------------------------------------------------------------

export interface InvalidRestCase {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  /** The path's `id`, when the operation has one (for `x-permission-for-others`). */
  pathId: unknown;
  payload?: string;
  contentType?: string;
  /** What a caller allowed to call the operation gets: 400, or 413 (size) / 415 (media type). */
  status: 400 | 413 | 415;
  /** No body at all where the contract requires one. */
  absentBody?: true;
}

const isString = (schema: Schema) => typeOf(schema) === 'string';

/**
 * Requests the contract calls invalid, each broken in one place, built on the operation's examples:
 * path and query parameters of the wrong type, holding NUL, or missing; bodies of the wrong type,
 * missing a required property, with an unknown property, holding NUL, not JSON, of another media type
 * or over the size limit. `pathValues` chooses path parameters (the target of the call).
 */
export function invalidRestCases(op: ContractOperation, pathValues: Record<string, unknown> = {}): InvalidRestCase[] {
  const method = op.method.toUpperCase() as InvalidRestCase['method'];
  const path = Object.fromEntries(
    op.params.filter((p) => p.in === 'path').map((p) => [p.name, pathValues[p.name] ?? p.example ?? sample(p.schema)]),
  );
  const query = Object.fromEntries(
    op.params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, p.example ?? sample(p.schema)]),
  );
  const example = op.body?.example;
  const payload = example === undefined ? undefined : JSON.stringify(example);
  const cases: InvalidRestCase[] = [];
  const add = (
    name: string,
    url: string,
    body: string | undefined,
    status: InvalidRestCase['status'] = 400,
    contentType?: string,
    id: unknown = path.id,
  ) =>
    cases.push({
      name,
      method,
      url,
      pathId: id,
      status,
      ...(body === undefined ? {} : { payload: body }),
      ...(contentType ? { contentType } : {}),
    });
  const url = buildUrl(op.path, path, query);

  for (const p of op.params) {
    const wrong = wrongValues(p.schema, true)[0];
    const at = (value: unknown) =>
      p.in === 'path'
        ? buildUrl(op.path, { ...path, [p.name]: value }, query)
        : buildUrl(op.path, path, { ...query, [p.name]: value });
    const id = (value: unknown) => (p.in === 'path' && p.name === 'id' ? value : path.id);
    if (wrong !== undefined)
      add(`${p.in} ${p.name}=${JSON.stringify(wrong)}`, at(wrong), payload, 400, undefined, id(wrong));
    if (isString(p.schema)) {
      const nul = `${String(p.in === 'path' ? path[p.name] : (query[p.name] ?? p.example ?? sample(p.schema)))}\u0000`;
      add(`${p.in} ${p.name} holds NUL`, at(nul), payload, 400, undefined, id(nul));
    }
    if (p.in === 'query' && p.required) {
      const { [p.name]: _dropped, ...rest } = query;
      add(`query ${p.name} missing`, buildUrl(op.path, path, rest), payload);
    }
  }

  if (op.body) {
    const schema = deref(op.body.schema);
    const branches = (schema.oneOf ?? schema.anyOf ?? [schema]).map(deref);
    const properties = Object.fromEntries(branches.flatMap((b) => Object.entries(b.properties ?? {})));
    const required = branches.map((b) => b.required ?? []).reduce((a, b) => a.filter((k) => b.includes(k)));
    const object =
      example !== null && typeof example === 'object' && !Array.isArray(example)
        ? (example as Record<string, unknown>)
        : {};
    add('body is not JSON', url, MALFORMED_JSON);
    add('body is a JSON array', url, '[]');
    add('body as text/plain', url, payload ?? '{}', 415, 'text/plain');
    add('body over 1 MiB', url, oversizedBody(), 413);
    add('body has an unknown property', url, JSON.stringify({ ...object, sneaky: 1 }));
    if (op.body.required)
      cases.push({ name: 'body missing', method, url, pathId: path.id, status: 400, absentBody: true });
    const missing = required.find((key) => key in object);
    if (missing) {
      const { [missing]: _dropped, ...rest } = object;
      add(`body ${missing} missing`, url, JSON.stringify(rest));
    }
    const typed = Object.keys(object).find((key) => wrongValues(properties[key] ?? {}, false).length > 0);
    if (typed)
      add(
        `body ${typed} of the wrong type`,
        url,
        JSON.stringify({ ...object, [typed]: wrongValues(properties[typed] ?? {}, false)[0] }),
      );
    const text = Object.keys(properties).find((key) => isString(properties[key] ?? {}));
    if (text) add(`body ${text} holds NUL`, url, JSON.stringify({ ...object, [text]: 'nul\u0000byte' }));
  } else if (method !== 'GET') {
    // No body in the contract, but whatever is sent is read as JSON or refused.
    add('body is not JSON', url, MALFORMED_JSON);
    add('body as text/plain', url, '{}', 415, 'text/plain');
    add('body over 1 MiB', url, oversizedBody(), 413);
  }
  return cases;
}
