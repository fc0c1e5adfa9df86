import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { decodeJwt } from 'jose';
import { cnpjCheckDigits, isValidCnpj } from '../../../src/domain/cnpj';
import { passwordStrength } from '../../../src/domain/password-strength';
import { PERMISSION_ROUTES } from '../db/catalog';
import { startTestApp, type TestApp } from './app';
import { HOSTILE_STRINGS, invalidArbitrary, invalidText, validArbitrary, type Hints } from './arbitraries';
import { validateResponse } from './contract';
import { buildUrl, OPENAPI_DOCUMENT, OPERATIONS, type ContractOperation, type Schema } from './openapi-schema';
import {
  declaredAccess,
  forgedToken,
  NO_TOKEN_HEADERS,
  oversizedBody,
  refusedBeforeInput,
  tamperedToken,
  UNAUTHORIZED_BODIES,
  unsignedToken,
  type Caller,
} from './ordering';
import { createTestUser, type TestUser } from './users';

/**
 * Schemathesis-style contract fuzzing of every REST operation with fast-check.
 * Requests are generated from the operation's own schemas in contracts/openapi.yaml (valid ones, and ones
 * broken in one place: wrong types, missing and extra fields, huge strings, Unicode, negative and
 * overflowing numbers, SQL and script payloads), then CLASSIFIED by the contract itself (ajv over the
 * parameter and body schemas, as an OpenAPI validator reads them). The oracle:
 * - nothing answers 5xx;
 * - every answer is one the contract lists for the operation, with a body matching its schema;
 * - a request the contract calls invalid gets 400 (413/415 for size and media type);
 * - a request the contract calls valid is accepted: 2xx, or a 4xx that depends on the database state
 *   or on a rule the contract states in prose, each listed per operation in ACCEPTABLE below with the
 *   reason, and where possible checked independently (a 400 for a date range is only accepted when the
 *   range really breaks the stated rule; a 404 for a tenant only when that tenant does not exist).
 * A second property proves the order of checks (contracts/openapi.yaml conventions): whatever is sent
 * (valid, broken in one place, or any body of any media type), no token and a bad token get 401 with the
 * contract's body, and a signed-in caller without the operation's permission 403.
 * The seed is printed (FUZZ_SEED=… reproduces a run).
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

export interface RestFuzzSize {
  /** Valid and invalid requests per operation. Invalid ones end at validation (no database): cheap, so more of them. */
  validRuns: number;
  invalidRuns: number;
  /** Operations whose valid calls hash passwords (argon2, ~20–60 ms each) get fewer valid runs. */
  heavy: Partial<Record<string, number>>;
  /** The run must send at least this many requests. */
  minRequests: number;
  /** Runs of the order-of-checks property (no token, a bad token, a caller without the permission). */
  orderingRuns: number;
}

/** `npm run test:reliability`: at least 10 000 requests. */
export const FULL_REST_FUZZ: RestFuzzSize = {
  validRuns: 90,
  invalidRuns: 125,
  heavy: { authLogin: 30, userCreate: 50, userUpdate: 60 },
  minRequests: 10_000,
  orderingRuns: 3_000,
};

type Answer = { status: number; body: unknown; input: Input };
interface Input {
  path: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}
/** Why a valid request may get this 4xx, or null when it may not. */
type Explain = (answer: Answer) => Promise<string | null> | string | null;

let t: TestApp;
let caller: TestUser;
let token: string;
/** A user of a customer tenant (not back-office staff) whose role holds no route permission. */
let outsider: TestUser;
let outsiderToken: string;
const existing = { tenants: [] as string[], emails: [] as string[], ids: [] as number[], options: [] as string[] };

// ------------------------------------------------------------------------------------------------------
// Contract classification: ajv over the document, as any OpenAPI validator reads it.
// ------------------------------------------------------------------------------------------------------

const DOC_ID = 'https://contract.local/fuzz.json';
function validatorFactory(coerce: boolean) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: false,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: false,
  });
  addFormats.default(ajv);
  ajv.addSchema({ ...OPENAPI_DOCUMENT, $id: DOC_ID });
  const cache = new Map<Schema, ValidateFunction>();
  return (schema: Schema): ValidateFunction => {
    let compiled = cache.get(schema);
    if (!compiled) {
      const absolute = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', `"${DOC_ID}#/components/`),
      ) as object;
      compiled = ajv.compile({ type: 'object', properties: { v: absolute } });
      cache.set(schema, compiled);
    }
    return compiled;
  };
}
const textValidator = validatorFactory(true);
const jsonValidator = validatorFactory(false);

function contractValid(op: ContractOperation, input: Input, rawBody: string | undefined): boolean {
  for (const p of op.params) {
    const value = p.in === 'path' ? input.path[p.name] : input.query[p.name];
    if (value === undefined) {
      if (p.required) return false;
      continue;
    }
    if (!textValidator(p.schema)({ v: value })) return false;
  }
  // Conventions of the contract, in prose: text never holds U+0000.
  if (
    Object.values(input.query).some((v) => v.includes('\u0000')) ||
    Object.values(input.path).some((v) => v.includes('\u0000'))
  )
    return false;
  if (rawBody?.includes('\\u0000')) return false;
  if (op.body) {
    if (rawBody === undefined) return !op.body.required;
    let parsed: unknown;
    try {
      parsed = JSON.parse(rawBody);
    } catch {
      return false;
    }
    if (!jsonValidator(op.body.schema)({ v: parsed })) return false;
  }
  return true;
}

// ------------------------------------------------------------------------------------------------------
// What a valid request may get besides 2xx, per operation, and why.
// ------------------------------------------------------------------------------------------------------

const fields = (body: unknown): string[] =>
  ((body as { errors?: { field: string }[] }).errors ?? []).map((e) => e.field);
const DAY = 86_400_000;
/** The date-range rule the contract states on `finishAt`-like parameters: not before the start, at most 366 days. */
function rangeBroken(start: string | undefined, finish: string | undefined): boolean {
  if (!start || !finish) return false;
  const days = (Date.parse(`${finish}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / DAY + 1;
  return days < 1 || days > 366;
}
const rangeRule =
  (startKey: string, finishKey: string, where: 'query' | 'body'): Explain =>
  ({ status, body, input }) => {
    const source = (where === 'query' ? input.query : input.body) as Record<string, string | undefined>;
    return status === 400 &&
      fields(body).every((f) => f === `${where}/${finishKey}`) &&
      rangeBroken(source[startKey], source[finishKey])
      ? 'date range breaks the stated rule'
      : null;
  };
const tenantMissing =
  (where: 'query' | 'body', key = 'tenantName'): Explain =>
  async ({ status, input }) => {
    if (status !== 404) return null;
    const name = ((where === 'query' ? input.query : input.body) as Record<string, unknown>)[key];
    if (typeof name !== 'string') return null;
    const row = await t.db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? null : 'the named tenant does not exist (or is deleted)';
  };
const statusIs =
  (status: number, reason: string): Explain =>
  (answer) =>
    answer.status === status ? reason : null;
const anyOf =
  (...explains: Explain[]): Explain =>
  async (answer) => {
    for (const explain of explains) {
      const reason = await explain(answer);
      if (reason) return reason;
    }
    return null;
  };
async function userIdMissing(id: unknown): Promise<boolean> {
  if (typeof id !== 'number' && typeof id !== 'string') return true;
  const row = await t.db
    .selectFrom('users')
    .select('id')
    .where('id', '=', Number(id))
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return !row;
}
const missingRefs: Explain = async ({ status, body, input }) => {
  if (status !== 400) return null;
  const b = input.body as { role_id?: number; user_department_id?: number | null; chosen_instances?: number[] };
  for (const field of fields(body)) {
    if (
      field === 'body/role_id' &&
      b.role_id !== undefined &&
      !(await t.db.selectFrom('roles').select('id').where('id', '=', b.role_id).executeTakeFirst())
    )
      continue;
    if (field === 'body/user_department_id' && b.user_department_id != null) continue; // a department of another tenant or none: checked by id below
    if (field === 'body/chosen_instances' && b.chosen_instances?.length) continue;
    return null;
  }
  return 'a referenced role, department or instance does not exist in the tenant';
};
const tenantByIdMissing: Explain = async ({ status, input }) => {
  if (status !== 404) return null;
  const id = (input.body as { id?: number }).id;
  return (await t.db
    .selectFrom('tenants')
    .select('id')
    .where('id', '=', id ?? 0)
    .executeTakeFirst())
    ? null
    : 'no tenant with this id';
};
const pathUserMissing: Explain = async ({ status, input }) =>
  status === 404 && (await userIdMissing(input.path.id)) ? 'no such user' : null;
const blankName =
  (where: string): Explain =>
  ({ status, body, input }) =>
    status === 400 &&
    fields(body).every((f) => f === where) &&
    typeof (input.body as { name?: unknown }).name === 'string' &&
    !(input.body as { name: string }).name.trim()
      ? 'the name is blank after trimming (stated in the contract)'
      : null;

/**
 * The value rules contracts/openapi.yaml states with `x-rule` on a user's fields: every refused field
 * breaks one — a weak password (src/domain/password-strength.ts, score 50), a blank name, an avatar that is not http(s).
 */
const statedValueRules: Explain = ({ status, body, input }) => {
  if (status !== 400) return null;
  const values = (input.body ?? {}) as { password?: unknown; name?: unknown; image?: unknown };
  const breaks = (field: string): boolean => {
    if (field === 'body/password')
      return typeof values.password === 'string' && passwordStrength(values.password) === 50;
    if (field === 'body/name') return typeof values.name === 'string' && values.name.trim() === '';
    if (field === 'body/image') return typeof values.image === 'string' && !/^https?:\/\//i.test(values.image);
    return false;
  };
  const refused = fields(body);
  return refused.length > 0 && refused.every(breaks) ? 'a value breaks a rule the contract states (x-rule)' : null;
};

const ACCEPTABLE: Partial<Record<string, Explain>> = {
  authLogin: anyOf(
    statusIs(401, 'credentials do not match a user (state)'),
    statusIs(429, 'throttled after earlier failures (state)'),
  ),
  userFindByEmail: statusIs(404, 'no user with this e-mail (state)'),
  userList: tenantMissing('query'),
  userCreate: anyOf(
    statusIs(409, 'duplicate e-mail or username, or the tenant is at its user limit (state)'),
    missingRefs,
    statedValueRules,
  ),
  userUpdate: anyOf(
    pathUserMissing,
    statusIs(409, 'duplicate e-mail or username (state)'),
    missingRefs,
    statedValueRules,
  ),
  userSetBlocked: anyOf(pathUserMissing, statusIs(409, 'a user cannot block itself')),
  userDelete: anyOf(pathUserMissing, statusIs(409, 'a user cannot delete itself')),
  userSettingsUpdate: anyOf(pathUserMissing, statusIs(409, 'two-factor can only be turned on by enrolling (stated)')),
  tenantCreate: anyOf(
    statusIs(409, 'a tenant with this name exists (state)'),
    ({ status, body, input }) =>
      status === 400 &&
      fields(body).every((f) => f === 'body/cnpj') &&
      !isValidCnpj(String((input.body as { cnpj?: string }).cnpj))
        ? 'CNPJ check digits are wrong (stated)'
        : null,
    ({ status, body, input }) =>
      status === 400 &&
      fields(body).every((f) => f === 'body/features') &&
      ((input.body as { features?: string[] }).features ?? []).some((f) => !existing.options.includes(f))
        ? 'a feature not in the catalogue (state)'
        : null,
  ),
  tenantDelete: anyOf(tenantByIdMissing, statusIs(409, "already deleted, or the caller's own tenant (state)")),
  tenantRestore: anyOf(tenantByIdMissing, statusIs(409, 'not deleted (state)')),
  tenantSetPlan: tenantByIdMissing,
  sheetOrders: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  sheetAttendances: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  sheetInstanceLogs: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  sheetReasons: rangeRule('startAt', 'finishAt', 'query'),
  featureList: tenantMissing('query'),
  featureUpdate: anyOf(tenantMissing('body'), ({ status, input }) =>
    status === 404 && !existing.options.includes(String((input.body as { option?: string }).option))
      ? 'no such feature (state)'
      : null,
  ),
  tenantSyncAnalytics: anyOf(rangeRule('fromDate', 'toDate', 'query'), tenantMissing('query')),
  tenantGenerateCampaignStatusWebhook: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  dashboardReport: rangeRule('start_at', 'finish_at', 'body'),
  dashboardReportUsers: tenantMissing('query'),
  dashboardSummary: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  dashboardTimeseries: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  dashboardProductivity: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  permissionByEmail: statusIs(404, 'no user with this e-mail (state)'),
  permissionUpdate: anyOf(
    statusIs(404, 'no such role, or a route name not in the catalogue (state)'),
    statusIs(409, 'the administrador role always holds every permission (stated)'),
  ),
  roleCreate: statusIs(409, 'a role with this name exists (state)'),
  roleGet: statusIs(404, 'no such role (state)'),
  roleRename: statusIs(404, 'no such role (state)'),
  departmentList: tenantMissing('query'),
  instanceList: tenantMissing('query'),
  instanceCreate: anyOf(
    tenantMissing('body'),
    statusIs(409, 'an instance with this name exists in the tenant (state)'),
    blankName('body/name'),
  ),
  instanceUpdate: anyOf(
    tenantMissing('body'),
    statusIs(404, 'no such instance in the tenant (state)'),
    statusIs(409, 'an instance with this name exists (state)'),
    blankName('body/name'),
  ),
  instanceSyncMessages: anyOf(
    tenantMissing('body'),
    statusIs(404, 'no such instance in the tenant (state)'),
    statusIs(409, 'a sync of this instance is already running (state)'),
    ({ status, body, input }) =>
      status === 400 &&
      fields(body).every((f) => f === 'body/daysAgo') &&
      (input.body as { daysAgo?: unknown; unlimitedSync?: boolean }).daysAgo === null &&
      !(input.body as { unlimitedSync?: boolean }).unlimitedSync
        ? 'daysAgo null needs unlimitedSync (stated)'
        : null,
  ),
  connectionList: tenantMissing('query'),
  twoFactorEnrol: statusIs(409, 'two-factor already on (state)'),
  twoFactorVerify: anyOf(statusIs(409, 'no pending enrolment (state)'), ({ status, body }) =>
    status === 400 && fields(body).every((f) => f === 'body/code') ? 'the code does not match the secret' : null,
  ),
  twoFactorDisable: anyOf(statusIs(409, 'two-factor is off (state)'), ({ status, body }) =>
    status === 400 && fields(body).every((f) => f === 'body/code') ? 'the code does not match the secret' : null,
  ),
};

// ------------------------------------------------------------------------------------------------------
// Requests
// ------------------------------------------------------------------------------------------------------

/**
 * Half of the valid bodies of some operations are made to satisfy a rule the schema cannot express, so
 * the fuzz also reaches past it (random CNPJs almost never have the right check digits).
 */
const FIXERS: Partial<Record<string, (body: unknown) => unknown>> = {
  tenantCreate: (body) => {
    const b = body as { cnpj?: string };
    const digits = (b.cnpj ?? '').replace(/\D/g, '').slice(0, 12).padEnd(12, '7');
    return { ...b, cnpj: `${digits}${cnpjCheckDigits(digits)}` };
  },
};

interface Request {
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
    Id: fc.constantFrom(...existing.ids),
    TenantName: fc.constantFrom(...existing.tenants),
    Email: fc.constantFrom(...existing.emails),
    FeatureOption: fc.constantFrom(...existing.options),
    RouteName: fc.constantFrom(...PERMISSION_ROUTES),
  };
}

function requestArbitrary(op: ContractOperation, valid: boolean): fc.Arbitrary<Request> {
  const h = hints();
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

const stats = { requests: 0, server5xx: 0, valid: 0, invalid: 0, accepted2xx: 0, stateful4xx: 0 };
const problems: string[] = [];
const reasons = new Map<string, number>();
const timing = new Map<string, number>();

/** The caller must stay an administrator with a working token whatever the fuzz did to it. */
async function keepCallerIntact(): Promise<void> {
  const verified = await t.app.tokens.verify(token);
  const row = await t.db
    .selectFrom('users as u')
    .innerJoin('roles as r', 'r.id', 'u.role_id')
    .select(['r.name', 'u.blocked', 'u.deleted_at'])
    .where('u.id', '=', caller.id)
    .executeTakeFirstOrThrow();
  if (verified.ok && row.name === 'administrador' && !row.blocked && !row.deleted_at) return;
  const admin = await t.db
    .selectFrom('roles')
    .select('id')
    .where('name', '=', 'administrador')
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('users')
    .set({ role_id: admin.id, blocked: false, deleted_at: null })
    .where('id', '=', caller.id)
    .execute();
  const { token_version } = await t.db
    .selectFrom('users')
    .select('token_version')
    .where('id', '=', caller.id)
    .executeTakeFirstOrThrow();
  token = (await t.app.tokens.issue(caller.id, token_version)).token;
}

async function send(op: ContractOperation, request: Request, expectValid: boolean): Promise<void> {
  const url = buildUrl(op.path, request.input.path, request.input.query);
  // Logout revokes the session it is called with: give it one of its own.
  const bearer =
    op.operationId === 'authLogout'
      ? (
          await t.app.tokens.issue(
            caller.id,
            (
              await t.db
                .selectFrom('users')
                .select('token_version')
                .where('id', '=', caller.id)
                .executeTakeFirstOrThrow()
            ).token_version,
          )
        ).token
      : token;
  const response = await t.app.fastify.inject({
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
    if (![400, 413, 415].includes(status))
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

// ------------------------------------------------------------------------------------------------------
// Order of checks (contracts/openapi.yaml conventions): identity, then permission, then input
// ------------------------------------------------------------------------------------------------------

type Who =
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
function anyRequest(op: ContractOperation): fc.Arbitrary<Request> {
  let arbitrary = anyRequests.get(op);
  if (!arbitrary) {
    arbitrary = fc.oneof(requestArbitrary(op, true), requestArbitrary(op, false), rawRequest(op));
    anyRequests.set(op, arbitrary);
  }
  return arbitrary;
}

const orderingStats = { requests: 0, noToken: 0, badToken: 0, forbidden: 0, operations: new Set<string>() };

async function orderingCheck(op: ContractOperation, request: Request, who: Who): Promise<void> {
  const url = buildUrl(op.path, request.input.path, request.input.query);
  const response = await t.app.fastify.inject({
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

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Registers the fuzz run (hooks and tests) in the calling test file: the normal suite runs a smaller
 * size, `npm run test:reliability` {@link FULL_REST_FUZZ}.
 */
export function describeRestFuzz(size: RestFuzzSize): void {
  beforeAll(async () => {
    t = await startTestApp({ seed: { days: 1 }, config: { loginMaxFailures: 1_000_000 } });
    caller = await createTestUser(t.db, {
      email: 'fuzz-admin@demo.local',
      tenant: 'backoffice',
      role: 'administrador',
    });
    const { token_version } = await t.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', caller.id)
      .executeTakeFirstOrThrow();
    token = (await t.app.tokens.issue(caller.id, token_version)).token;
    existing.tenants = (await t.db.selectFrom('tenants').select('name').execute()).map((r) => r.name);
    existing.emails = (await t.db.selectFrom('users').select('email').execute()).map((r) => r.email);
    existing.options = (await t.db.selectFrom('feature_options').select('option').execute()).map((r) => r.option);
    const ids = new Set<number>();
    for (const table of ['users', 'tenants', 'roles', 'instances', 'departments'] as const) {
      for (const row of await t.db.selectFrom(table).select('id').execute()) ids.add(row.id);
    }
    existing.ids = [...ids];
    // After the pools: no fuzzed id names this role or this user, so nothing the fuzz does can grant it a route.
    const customer = await t.db
      .selectFrom('tenants')
      .select('name')
      .where('name', '!=', 'backoffice')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('roles').values({ name: 'fuzz_no_routes', display_name: 'Fuzz: no routes' }).execute();
    outsider = await createTestUser(t.db, {
      email: 'fuzz-outsider@demo.local',
      tenant: customer.name,
      role: 'fuzz_no_routes',
      originBackoffice: false,
    });
    const version = await t.db
      .selectFrom('users')
      .select('token_version')
      .where('id', '=', outsider.id)
      .executeTakeFirstOrThrow();
    outsiderToken = (await t.app.tokens.issue(outsider.id, version.token_version)).token;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  describe('contract fuzzing of every REST operation', () => {
    // First, while nothing the fuzz did can have touched the principals: every request below is refused
    // before its input is read, so nothing of it runs.
    it('refuses any request without a token (401), with a bad token (401) and without the permission (403), whatever its input', async () => {
      const started = Date.now();
      const claims = decodeJwt(token);
      const forged = await Promise.all([0, 1, 2].map(() => forgedToken(claims)));
      const badTokens = fc.oneof(
        fc.constantFrom(...forged, unsignedToken(claims), tamperedToken(token, claims), 'not.a.jwt'),
        fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,300}$/),
      );
      const outsiderCaller: Caller = { id: outsider.id, administrador: false, staff: false, routes: new Set() };
      const guarded = OPERATIONS.filter((op) => declaredAccess(op).permission !== 'public');
      const who = (op: ContractOperation): fc.Arbitrary<Who> =>
        fc.oneof(
          fc.constantFrom(...NO_TOKEN_HEADERS).map((header): Who => ({ kind: 'no token', header })),
          badTokens.map((bad): Who => ({ kind: 'bad token', header: `Bearer ${bad}` })),
          // Operations any signed-in user may call have no caller without their permission.
          ...(refusedBeforeInput(outsiderCaller, declaredAccess(op), 0)
            ? [fc.constant<Who>({ kind: 'no permission', header: `Bearer ${outsiderToken}` })]
            : []),
        );
      // Per operation: its id (short counterexamples), what may be sent, and by whom.
      const cases = fc.oneof(
        ...guarded.map((op) =>
          fc.record({ operationId: fc.constant(op.operationId), request: anyRequest(op), who: who(op) }),
        ),
      );
      await fc.assert(
        fc.asyncProperty(cases, async ({ operationId, request, who: principal }) => {
          const op = guarded.find((o) => o.operationId === operationId) as ContractOperation;
          // x-permission-for-others: the outsider aimed at its own record holds the operation (never generated: its id is in no pool).
          fc.pre(
            principal.kind !== 'no permission' ||
              refusedBeforeInput(outsiderCaller, declaredAccess(op), request.input.path.id),
          );
          await orderingCheck(op, request, principal);
        }),
        { numRuns: size.orderingRuns, seed: SEED },
      );
      console.info(
        `REST order of checks (seed ${SEED}): ${orderingStats.requests} fuzzed requests on ${orderingStats.operations.size} operations in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
          `${orderingStats.noToken} without a token → 401, ${orderingStats.badToken} with a bad token → 401, ${orderingStats.forbidden} without the permission → 403`,
      );
      expect(orderingStats.operations.size).toBe(guarded.length);
      expect(Math.min(orderingStats.noToken, orderingStats.badToken, orderingStats.forbidden)).toBeGreaterThan(
        size.orderingRuns / 10,
      );
    }, 600_000);

    it('answers no 5xx, only contract answers, refuses every invalid request and accepts every valid one', async () => {
      const started = Date.now();
      for (const [index, op] of OPERATIONS.entries()) {
        for (const valid of [true, false]) {
          const count = valid ? (size.heavy[op.operationId] ?? size.validRuns) : size.invalidRuns;
          const samples = fc.sample(requestArbitrary(op, valid), {
            numRuns: count,
            seed: SEED + index * 2 + (valid ? 0 : 1),
          });
          const opStarted = performance.now();
          for (const request of samples) await send(op, request, valid);
          timing.set(op.operationId, (timing.get(op.operationId) ?? 0) + performance.now() - opStarted);
        }
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.info(
        `REST contract fuzz (seed ${SEED}): ${stats.requests} requests in ${seconds} s, ${stats.server5xx} answered 5xx; ` +
          `${stats.valid} valid (${stats.accepted2xx} 2xx, ${stats.stateful4xx} state-dependent 4xx), ${stats.invalid} invalid (all 400/413/415 unless listed below)`,
      );
      console.info([...reasons].map(([reason, n]) => `  ${n}× ${reason}`).join('\n'));
      console.info(
        `slowest: ${[...timing]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 8)
          .map(([id, ms]) => `${id} ${(ms / 1000).toFixed(1)} s`)
          .join(', ')}`,
      );
      // One example per kind of problem (kind, operation, status), with how often it happened.
      const kinds = new Map<string, { n: number; example: string }>();
      for (const problem of problems) {
        const key = /^([^:]+): (\w+) .* → (\d+)/.exec(problem)?.slice(1).join(' ') ?? problem.slice(0, 60);
        const seen = kinds.get(key);
        kinds.set(key, { n: (seen?.n ?? 0) + 1, example: seen?.example ?? problem });
      }
      expect([...kinds].map(([key, { n, example }]) => `${n}× ${key} — e.g. ${example}`)).toEqual([]);
      expect(stats.server5xx).toBe(0);
      expect(stats.requests).toBeGreaterThanOrEqual(size.minRequests);
      // Enough of both kinds, and valid requests mostly get past "not found" into the handlers.
      expect(stats.valid).toBeGreaterThan(stats.requests * 0.33);
      expect(stats.invalid).toBeGreaterThan(stats.requests * 0.4);
      expect(stats.accepted2xx).toBeGreaterThan(stats.valid / 2);
    }, 600_000);

    it('stored hostile strings verbatim: SQL and script payloads are data, not code', async () => {
      // The tables the fuzz wrote into are all still there and readable.
      for (const table of ['users', 'tenants', 'roles', 'instances', 'login_attempts'] as const) {
        expect(
          Number(
            (
              await t.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ).toBeGreaterThan(0);
      }
      const payload = HOSTILE_STRINGS[1] ?? '';
      // The fuzz may have soft-deleted any tenant (tenantDelete with random ids): write into one that
      // is live now, so this checks storage, not which tenants the random run happened to leave.
      const live = await t.db
        .selectFrom('tenants')
        .select('name')
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .executeTakeFirstOrThrow();
      const created = await t.app.fastify.inject({
        method: 'POST',
        url: '/api/instance',
        headers: { authorization: `Bearer ${token}` },
        payload: { name: payload, tenantName: live.name, isOfficial: false, isUnlimited: false },
      });
      expect([201, 409]).toContain(created.statusCode);
      const row = await t.db.selectFrom('instances').select('name').where('name', '=', payload).executeTakeFirst();
      expect(row?.name).toBe(payload);
    });
  });
}
