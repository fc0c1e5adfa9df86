import fc from 'fast-check';
import { cnpjCheckDigits } from '../../../src/domain/cnpj';
import { PERMISSION_ROUTES } from '../db/catalog';
import { invalidArbitrary, invalidText, validArbitrary, type Hints } from './arbitraries';
import { validateResponse } from './contract';
import { buildUrl, type ContractOperation, type Schema } from './openapi-schema';
import { existing, run } from './rest-fuzz-state';
import type { Input } from './rest-fuzz-state';
import { ACCEPTABLE, DAY, contractValid, ownTwoFactorAsked } from './rest-fuzz-oracle';

// ------------------------------------------------------------------------------------------------------
// Requests
// ------------------------------------------------------------------------------------------------------

/**
 * Half of the valid bodies of some operations are made to satisfy a rule the schema cannot express, so
 * the fuzz also reaches past it (random CNPJs almost never have the right check digits).
 */
function fixCnpj(body: unknown): unknown {
  const b = body as { cnpj?: string };
  const digits = (b.cnpj ?? '').replace(/\D/g, '').slice(0, 12).padEnd(12, '7');
  return { ...b, cnpj: `${digits}${cnpjCheckDigits(digits)}` };
}

const FIXERS: Partial<Record<string, (body: unknown) => unknown>> = {
  tenantCreate: fixCnpj,
  tenantUpdate: fixCnpj,
};

export interface Request {
  input: Input;
  /** Raw body as sent (undefined: none). */
  raw: string | undefined;
  contentType?: string;
  accept?: string;
}

/** Days of the last month: two of them make a range the date rule accepts half the time (reversed otherwise). */
const recentDay = fc.integer({ min: 0, max: 40 }).map((n) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10));

function hints(): Hints {
  return {
    IsoDate: recentDay,
    // The caller's own id, often: the rules on one's own record (its role, its password, its e-mail,
    // itself) get met on every run, not once in a while (./rest-fuzz-oracle.ts ownRecordRules).
    Id: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(...existing.ids) },
      { weight: 1, arbitrary: fc.constant(run.caller.id) },
    ),
    TenantName: fc.constantFrom(...existing.tenants),
    Email: fc.constantFrom(...existing.emails),
    FeatureOption: fc.constantFrom(...existing.options),
    WebhookCursor: fc.constantFrom(...existing.cursors),
    // Addresses the endpoints' rules accept most of the time (a new one each), else any text.
    WebhookUrl: fc.oneof(
      { weight: 3, arbitrary: fc.nat({ max: 1_000_000 }).map((n) => `https://erp-${String(n)}.example.com/hooks`) },
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 60 }) },
    ),
    RouteName: fc.constantFrom(...PERMISSION_ROUTES),
  };
}

/**
 * Operations whose path id names a webhook record: their ids come from that table's records (the shared
 * pool's small ids are mostly other tables', so these would answer 404 to nearly every valid request).
 */
const WEBHOOK_PATH_IDS: Partial<Record<string, keyof typeof existing.webhookIds>> = {
  webhookEndpointUpdate: 'endpoints',
  webhookEndpointDelete: 'endpoints',
  webhookEndpointRotateSecret: 'endpoints',
  webhookRunGet: 'runs',
  webhookRunRedeliverFailed: 'runs',
  webhookDeliveryGet: 'deliveries',
  webhookDeliveryRedeliver: 'deliveries',
};

export function requestArbitrary(op: ContractOperation, valid: boolean): fc.Arbitrary<Request> {
  const table = WEBHOOK_PATH_IDS[op.operationId];
  const h = table ? { ...hints(), Id: fc.constantFrom(...existing.webhookIds[table]) } : hints();
  const text = (schema: Schema) => validArbitrary(schema, h).map((v) => String(v));
  const pathArb = fc.record(
    Object.fromEntries(op.params.filter((p) => p.in === 'path').map((p) => [p.name, text(p.schema)])),
  );
  const queryParams = op.params.filter((p) => p.in === 'query');
  const queryArb = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, text(p.schema)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  });
  const bodyArb = op.body ? validArbitrary(op.body.schema, h) : fc.constant(undefined);
  const csv =
    Object.values((op.op.responses?.['200'] as { content?: Record<string, unknown> } | undefined)?.content ?? {})
      .length > 1;
  const acceptArb = csv ? fc.constantFrom(undefined, 'text/csv') : fc.constant(undefined);
  const base = fc.record({ path: pathArb, query: queryArb, body: bodyArb, accept: acceptArb, fix: fc.boolean() });
  if (valid) {
    return base
      .map(({ path, query, body, accept, fix }) => {
        const fixed = fix ? (FIXERS[op.operationId]?.(body) ?? body) : body;
        return {
          input: { path, query, body: fixed },
          raw: fixed === undefined ? undefined : JSON.stringify(fixed),
          ...(accept ? { accept } : {}),
        };
      })
      .filter((request) => contractValid(op, request.input, request.raw));
  }

  // One part broken: a path or query parameter, the body, or the body's encoding.
  const breakers: fc.Arbitrary<
    (r: { path: Record<string, string>; query: Record<string, string>; body: unknown }) => Request
  >[] = [];
  for (const p of op.params) {
    breakers.push(
      invalidText(p.schema).map((bad) => (r) => ({
        input: { ...r, [p.in]: { ...r[p.in === 'path' ? 'path' : 'query'], [p.name]: bad } },
        raw: r.body === undefined ? undefined : JSON.stringify(r.body),
      })),
    );
    if (p.in === 'query' && p.required) {
      breakers.push(
        fc.constant((r) => {
          const { [p.name]: _dropped, ...query } = r.query;
          return { input: { ...r, query }, raw: r.body === undefined ? undefined : JSON.stringify(r.body) };
        }),
      );
    }
  }
  if (op.body) {
    const bodySchema = op.body.schema;
    breakers.push(
      invalidArbitrary(bodySchema, h).map((bad) => (r) => ({ input: { ...r, body: bad }, raw: JSON.stringify(bad) })),
    );
    breakers.push(
      fc
        .constantFrom('{"oops": ', '[1,2', '"text"', 'null', '{"a":1}{"b":2}', '\u0000')
        .map((raw) => (r) => ({ input: r, raw })),
    );
    breakers.push(fc.constant((r) => ({ input: r, raw: JSON.stringify(r.body ?? {}), contentType: 'text/plain' })));
  }
  if (breakers.length === 0) return fc.constant({ input: { path: {}, query: {}, body: undefined }, raw: undefined });
  return fc
    .tuple(base, fc.oneof(...breakers))
    .map(([r, breaker]) => breaker({ path: r.path, query: r.query, body: r.body }));
}

// ------------------------------------------------------------------------------------------------------
// The run
// ------------------------------------------------------------------------------------------------------

export const stats = { requests: 0, server5xx: 0, valid: 0, invalid: 0, accepted2xx: 0, stateful4xx: 0 };
export const problems: string[] = [];
export const reasons = new Map<string, number>();
export const timing = new Map<string, number>();

/** The caller must stay an administrator with a working token whatever the fuzz did to it. */
async function keepCallerIntact(): Promise<void> {
  const verified = await run.t.app.tokens.verify(run.token);
  const row = await run.t.db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['r.name', 'u.blocked', 'u.deleted_at'])
    .where('u.id', '=', run.caller.id)
    .executeTakeFirstOrThrow();
  if (verified.ok && row.name === 'administrador' && !row.blocked && !row.deleted_at) return;
  const admin = await run.t.db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', 'administrador')
    .executeTakeFirstOrThrow();
  await run.t.db
    .updateTable('users')
    .set({ role_id: admin.id, blocked: false, deleted_at: null })
    .where('id', '=', run.caller.id)
    .execute();
  const { token_version } = await run.t.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', run.caller.id)
    .executeTakeFirstOrThrow();
  run.token = (await run.t.app.tokens.issue(run.caller.id, token_version)).token;
}

export async function send(op: ContractOperation, request: Request, expectValid: boolean): Promise<void> {
  const url = buildUrl(op.path, request.input.path, request.input.query);
  // Logout revokes the session it is called with: give it one of its own.
  const bearer =
    op.operationId === 'authLogout'
      ? (
          await run.t.app.tokens.issue(
            run.caller.id,
            (
              await run.t.db
                .selectFrom('users')
                .select('token_version')
                .where('id', '=', run.caller.id)
                .executeTakeFirstOrThrow()
            ).token_version,
          )
        ).token
      : run.token;
  const response = await run.t.app.fastify.inject({
    method: op.method.toUpperCase() as 'GET',
    url,
    headers: {
      ...(op.public ? {} : { authorization: `Bearer ${bearer}` }),
      ...(request.raw === undefined ? {} : { 'content-type': request.contentType ?? 'application/json' }),
      ...(request.accept ? { accept: request.accept } : {}),
    },
    ...(request.raw === undefined ? {} : { payload: request.raw }),
  });
  stats.requests += 1;
  const status = response.statusCode;
  const label = `${op.operationId} ${op.method.toUpperCase()} ${url.slice(0, 160)} body=${(request.raw ?? '').slice(0, 160)}`;
  if (status >= 500) {
    stats.server5xx += 1;
    problems.push(`5xx: ${label} → ${status} ${response.body.slice(0, 200)}`);
    return;
  }
  const csv = (response.headers['content-type'] ?? '').toString().includes('text/csv');
  const body: unknown = csv ? response.body : safeJson(response.body);
  try {
    const check = validateResponse(op.operationId, status, body, csv ? 'text/csv' : 'application/json');
    if (!check.valid)
      problems.push(
        `contract: ${label} → ${status} ${response.body.slice(0, 200)} :: ${JSON.stringify(check.errors).slice(0, 200)}`,
      );
  } catch (error) {
    problems.push(`contract: ${label} → ${status} ${response.body.slice(0, 200)} :: ${(error as Error).message}`);
  }

  const valid = contractValid(op, request.input, request.raw) && request.contentType === undefined;
  if (valid) stats.valid += 1;
  else stats.invalid += 1;
  if (!valid) {
    // One's own two-factor settings are refused before their input is read (rest-fuzz-oracle.ts).
    if (![400, 413, 415].includes(status) && !(status === 403 && ownTwoFactorAsked(op.operationId, request.input)))
      problems.push(`invalid accepted: ${label} → ${status} ${response.body.slice(0, 200)}`);
  } else if (status >= 200 && status < 300) {
    stats.accepted2xx += 1;
  } else {
    const reason = await ACCEPTABLE[op.operationId]?.({ status, body, input: request.input });
    if (reason) {
      stats.stateful4xx += 1;
      reasons.set(
        `${op.operationId} ${status}: ${reason}`,
        (reasons.get(`${op.operationId} ${status}: ${reason}`) ?? 0) + 1,
      );
    } else problems.push(`valid refused: ${label} → ${status} ${response.body.slice(0, 240)}`);
  }
  if (expectValid && !valid)
    reasons.set(
      `(generator strayed: ${op.operationId})`,
      (reasons.get(`(generator strayed: ${op.operationId})`) ?? 0) + 1,
    );
  if (/^user(Update|SetBlocked|Delete|SettingsUpdate)$/.test(op.operationId)) await keepCallerIntact();
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
