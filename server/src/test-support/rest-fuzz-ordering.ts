import fc from 'fast-check';
import { HOSTILE_STRINGS } from './arbitraries';
import { validateResponse } from './contract';
import { buildUrl, type ContractOperation } from './openapi-schema';
import { oversizedBody, UNAUTHORIZED_BODIES } from './ordering';
import { run } from './rest-fuzz-state';
import { requestArbitrary, safeJson } from './rest-fuzz-requests';
import type { Request } from './rest-fuzz-requests';

// ------------------------------------------------------------------------------------------------------
// Order of checks (contracts/openapi.yaml conventions): identity, then permission, then input
// ------------------------------------------------------------------------------------------------------

export type Who =
  | { kind: 'no token'; header: string | undefined }
  | { kind: 'bad token'; header: string }
  | { kind: 'no permission'; header: string };

/** Bodies of any kind and media type, on the operation's own path and query (valid ones, so only the body is wild). */
function rawRequest(op: ContractOperation): fc.Arbitrary<Request> {
  const base = requestArbitrary(op, true);
  const raw = fc.oneof(
    { weight: 4, arbitrary: fc.json() },
    { weight: 3, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).map((s) => JSON.stringify({ s })) },
    { weight: 1, arbitrary: fc.constant(oversizedBody()) },
  );
  const type = fc.constantFrom(
    'application/json',
    'application/json',
    'text/plain',
    'text/csv',
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  );
  return fc
    .tuple(base, raw, type)
    .map(([request, body, contentType]) => ({ input: { ...request.input, body: undefined }, raw: body, contentType }));
}

const anyRequests = new Map<ContractOperation, fc.Arbitrary<Request>>();
/** Whatever a client may send: contract-valid requests, ones broken in one place, and wild bodies (built once per operation). */
export function anyRequest(op: ContractOperation): fc.Arbitrary<Request> {
  let arbitrary = anyRequests.get(op);
  if (!arbitrary) {
    arbitrary = fc.oneof(requestArbitrary(op, true), requestArbitrary(op, false), rawRequest(op));
    anyRequests.set(op, arbitrary);
  }
  return arbitrary;
}

export const orderingStats = { requests: 0, noToken: 0, badToken: 0, forbidden: 0, operations: new Set<string>() };

export async function orderingCheck(op: ContractOperation, request: Request, who: Who): Promise<void> {
  const url = buildUrl(op.path, request.input.path, request.input.query);
  const response = await run.t.app.fastify.inject({
    method: op.method.toUpperCase() as 'GET',
    url,
    headers: {
      ...(who.header === undefined ? {} : { authorization: who.header }),
      ...(request.raw === undefined ? {} : { 'content-type': request.contentType ?? 'application/json' }),
      ...(request.accept ? { accept: request.accept } : {}),
    },
    ...(request.raw === undefined ? {} : { payload: request.raw }),
  });
  orderingStats.requests += 1;
  orderingStats.operations.add(op.operationId);
  const label = `${who.kind} (${String(who.header).slice(0, 60)}): ${op.operationId} ${op.method.toUpperCase()} ${url.slice(0, 120)} ${request.contentType ?? ''} body=${(request.raw ?? '').slice(0, 120)}`;
  const body = safeJson(response.body);
  if (who.kind === 'no permission') {
    orderingStats.forbidden += 1;
    if (response.statusCode !== 403)
      throw new Error(`${label} → ${response.statusCode}, expected 403: ${response.body.slice(0, 200)}`);
    const check = validateResponse(op.operationId, 403, body);
    if (!check.valid || (body as { message?: unknown }).message !== 'Forbidden')
      throw new Error(`${label} → 403 body ${response.body.slice(0, 200)} breaks the contract`);
    return;
  }
  const expected = who.kind === 'no token' ? UNAUTHORIZED_BODIES.noToken : UNAUTHORIZED_BODIES.invalid;
  orderingStats[who.kind === 'no token' ? 'noToken' : 'badToken'] += 1;
  if (response.statusCode !== 401 || JSON.stringify(body) !== JSON.stringify(expected)) {
    throw new Error(
      `${label} → ${response.statusCode} ${response.body.slice(0, 200)}, expected 401 ${JSON.stringify(expected)}`,
    );
  }
}
