import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isValidCnpj } from '../../../src/domain/cnpj';
import { passwordStrength } from '../../../src/domain/password-strength';
import { searchText } from '../support/service';
import { hostRefusal } from '../webhooks/addresses';
import { deref, OPENAPI_DOCUMENT, typeOf, type ContractOperation, type Schema } from './openapi-schema';
import { existing, run } from './rest-fuzz-state';
import type { Explain, Input } from './rest-fuzz-state';

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

export function contractValid(op: ContractOperation, input: Input, rawBody: string | undefined): boolean {
  for (const p of op.params) {
    const value = p.in === 'path' ? input.path[p.name] : input.query[p.name];
    if (value === undefined) {
      if (p.required) return false;
      continue;
    }
    if (!textValidator(p.schema)({ v: value })) return false;
  }
  // Conventions of the contract, in prose: a number in a query or path is decimal digits
  // (server/src/app-validation.ts withDecimalNumbers)...
  for (const p of op.params) {
    const value = p.in === 'path' ? input.path[p.name] : input.query[p.name];
    const own = deref(p.schema);
    const type = typeOf(own) === 'array' && own.items ? typeOf(deref(own.items)) : typeOf(own);
    if (value === undefined || (type !== 'integer' && type !== 'number')) continue;
    if (!(type === 'integer' ? /^-?\d+$/ : /^-?\d+(?:\.\d+)?$/).test(value)) return false;
  }
  // ...and text never holds U+0000.
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
export const DAY = 86_400_000;
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
/**
 * auditList's stated rules the schema cannot say: `to` after `from`, and `after` a cursor the list
 * handed out (a record id; contracts/openapi.yaml).
 */
const auditRules: Explain = ({ status, body, input }) => {
  if (status !== 400) return null;
  const q = input.query as { from?: string; to?: string; after?: string };
  const toBroken = q.from !== undefined && q.to !== undefined && Date.parse(q.to) <= Date.parse(q.from);
  const afterBroken = q.after !== undefined && (!/^[1-9][0-9]{0,9}$/.test(q.after) || Number(q.after) > 2 ** 31 - 1);
  const bad = fields(body);
  return bad.length > 0 && bad.every((f) => (f === 'query/to' && toBroken) || (f === 'query/after' && afterBroken))
    ? '`to` not after `from`, or `after` not a cursor (stated)'
    : null;
};
/** A webhook page's `after` that is not a cursor the list hands out (a record id in decimal). */
const webhookCursor: Explain = ({ status, body, input }) => {
  if (status !== 400) return null;
  const after = (input.query as { after?: string }).after;
  const broken = after !== undefined && (!/^[1-9][0-9]{0,9}$/.test(after) || Number(after) > 2 ** 31 - 1);
  return broken && fields(body).every((f) => f === 'query/after') ? '`after` is not a cursor (stated)' : null;
};
const tenantMissing =
  (where: 'query' | 'body', key = 'tenantName'): Explain =>
  async ({ status, input }) => {
    if (status !== 404) return null;
    const name = ((where === 'query' ? input.query : input.body) as Record<string, unknown>)[key];
    if (typeof name !== 'string') return null;
    const row = await run.t.db
      .selectFrom('tenants')
      .select('id')
      .where('name', '=', name)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? null : 'the named tenant does not exist (or is deleted)';
  };
/**
 * Whether a request asks for one's own two-factor off or one's own enrolment requirement, which is
 * refused (403) whatever the caller holds and whatever the other values, valid or not: permission comes
 * before input (stated in the contract, userSettingsUpdate; server/src/access/self-service.ts).
 */
export function ownTwoFactorAsked(operationId: string, input: Pick<Input, 'path' | 'body'>): boolean {
  if (operationId !== 'userSettingsUpdate' || Number(input.path.id) !== run.caller.id) return false;
  const settings = input.body;
  if (settings === null || typeof settings !== 'object') return false;
  const { two_factor_enabled: enabled, two_factor_enrolment_required: required } = settings as Record<string, unknown>;
  return enabled === false || (required !== undefined && required !== null);
}
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
/**
 * No live user with this id in a live tenant: a deleted tenant's users take no change either
 * (docs/lists.md, "A deleted tenant's users take no change"; server/src/users/repository.ts findLiveUser).
 */
async function userIdMissing(id: unknown): Promise<boolean> {
  if (typeof id !== 'number' && typeof id !== 'string') return true;
  const row = await run.t.db
    .selectFrom('users')
    .innerJoin('tenants', 'tenants.id', 'users.tenant_id')
    .select('users.id')
    .where('users.id', '=', Number(id))
    .where('users.deleted_at', 'is', null)
    .where('tenants.deleted_at', 'is', null)
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
      !(await run.t.db.selectFrom('roles').select('id').where('id', '=', b.role_id).executeTakeFirst())
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
  return (await run.t.db
    .selectFrom('tenants')
    .select('id')
    .where('id', '=', id ?? 0)
    .executeTakeFirst())
    ? null
    : 'no tenant with this id';
};
/** No user row with the body's id, live or deleted (never was, or purged). */
const userByIdMissing: Explain = async ({ status, input }) => {
  if (status !== 404) return null;
  const id = (input.body as { id?: number }).id;
  return (await run.t.db
    .selectFrom('users')
    .select('id')
    .where('id', '=', id ?? 0)
    .executeTakeFirst())
    ? null
    : 'no user with this id';
};
const pathUserMissing: Explain = async ({ status, input }) =>
  status === 404 && (await userIdMissing(input.path.id)) ? 'no such user (or its tenant is deleted)' : null;
const blankName =
  (where: string): Explain =>
  ({ status, body, input }) =>
    status === 400 &&
    fields(body).every((f) => f === where) &&
    typeof (input.body as { name?: unknown }).name === 'string' &&
    !(input.body as { name: string }).name.trim()
      ? 'the name is blank after trimming (stated in the contract)'
      : null;

/** A department or connection change naming neither `name` nor `activated` (only `version`): stated in the contract. */
const nothingToChange: Explain = ({ status, body, input }) => {
  const asked = (input.body ?? {}) as { name?: unknown; activated?: unknown };
  return status === 400 &&
    fields(body).every((f) => f === 'body/name') &&
    asked.name === undefined &&
    asked.activated === undefined
    ? 'neither name nor activated: nothing to change (stated in the contract)'
    : null;
};

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

/**
 * One's own record through userUpdate (server/src/users/service.ts `update`): a password is refused
 * (403: it changes on the account screen, with the current one), so is another role (403: nobody
 * changes its own role), and a new e-mail needs the right current password (400 on
 * `body/current_password`). A refused change changes nothing, so the stored row is the one it met.
 */
const ownRecordRules: Explain = async ({ status, body, input }) => {
  if (Number(input.path.id) !== run.caller.id || (status !== 403 && status !== 400)) return null;
  const asked = (input.body ?? {}) as { password?: unknown; role_id?: unknown; email?: unknown };
  const stored = await run.t.db
    .selectFrom('users')
    .select(['role_id', 'email'])
    .where('id', '=', run.caller.id)
    .executeTakeFirstOrThrow();
  if (status === 403 && asked.password !== undefined) return "one's own password, here (stated)";
  if (status === 403 && asked.role_id !== undefined && asked.role_id !== stored.role_id)
    return "one's own role (stated)";
  const refused = fields(body);
  if (
    status === 400 &&
    refused.length > 0 &&
    refused.every((f) => f === 'body/current_password') &&
    typeof asked.email === 'string' &&
    asked.email.trim().toLowerCase() !== stored.email.toLowerCase()
  )
    return "a new e-mail of one's own without the right current password (stated)";
  return null;
};

/** No user row with the path's id, live or deleted (the support desk acts on deleted users too). */
const pathAnyUserMissing: Explain = async ({ status, input }) => {
  if (status !== 404) return null;
  const id = Number(input.path.id);
  return (await run.t.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst())
    ? null
    : 'no user with this id, live or deleted';
};
/** The support desk's refusals of a person (server/src/support/service.ts; contracts/openapi.yaml `Conflict.error`). */
const supportRefusals = anyOf(
  pathAnyUserMissing,
  statusIs(403, 'who may act on whom: the user holds what the caller does not (state)'),
  statusIs(
    409,
    'own account, nothing to change, deleted or not, e-mail or username taken, tenant deleted or full (state)',
  ),
);

/**
 * A save that sent a version other than the record's current one (docs/lists.md, Versions): 409 `stale`
 * naming a current version that is not the one sent.
 */
const staleVersion: Explain = ({ status, body, input }) => {
  if (status !== 409) return null;
  const answer = body as { error?: unknown; version?: unknown };
  const sent = (input.body as { version?: unknown } | undefined)?.version;
  return answer.error === 'stale' &&
    typeof sent === 'number' &&
    typeof answer.version === 'number' &&
    answer.version !== sent
    ? "the version sent is not the record's current one (stale, stated)"
    : null;
};

/**
 * Saved views' stated rules the schema cannot say (contracts/openapi.yaml `ViewName`, `ViewState`): every
 * refused field breaks one, checked here apart from the service (server/src/views/service.ts) — a name
 * blank after trimming, longer than 60 characters or holding control or invisible characters; a query
 * longer than 2,000 characters without its `?` or holding control characters; a column the list cannot
 * hide, or named twice; a state over 4 KB as JSON.
 */
const HIDEABLE: Readonly<Record<string, readonly string[]>> = {
  users: ['email', 'role', 'department', 'presence', 'status'],
  tenants: ['cnpj', 'plan', 'userLimit', 'ticketLimit', 'template', 'pool', 'created_at', 'deleted_at'],
  audit: ['when', 'who', 'target', 'tenant', 'address'],
};
const VIEW_NAME_FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the rule is about control characters
  /[\u0000-\u001f\u007f-\u009f\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;
// eslint-disable-next-line no-control-regex -- the rule is about control characters
const VIEW_QUERY_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f]/u;
async function viewListOf(input: Input): Promise<string | undefined> {
  const list = (input.body as { list?: unknown } | undefined)?.list;
  if (typeof list === 'string') return list;
  const id = Number(input.path.id);
  if (!Number.isInteger(id)) return undefined;
  const row = await run.t.db.selectFrom('saved_views').select('list').where('id', '=', id).executeTakeFirst();
  return row?.list;
}
const viewRules: Explain = async ({ status, body, input }) => {
  if (status !== 400) return null;
  const values = (input.body ?? {}) as { name?: unknown; state?: { query?: unknown; columns?: unknown } };
  const list = await viewListOf(input);
  const breaks = (field: string): boolean => {
    if (field === 'body/name') {
      if (typeof values.name !== 'string') return false;
      const name = values.name.normalize('NFC').trim();
      return !name || [...name].length > 60 || VIEW_NAME_FORBIDDEN.test(name);
    }
    const state = values.state;
    if (!state) return false;
    const query = typeof state.query === 'string' ? state.query.replace(/^\?/, '') : '';
    if (field === 'body/state.query') return query.length > 2000 || VIEW_QUERY_FORBIDDEN.test(query);
    if (field === 'body/state.columns') {
      const columns = Array.isArray(state.columns) ? (state.columns as unknown[]) : [];
      const hideable = HIDEABLE[list ?? ''] ?? [];
      return (
        columns.some((c) => typeof c !== 'string' || !hideable.includes(c)) || new Set(columns).size !== columns.length
      );
    }
    if (field === 'body/state') {
      const columns = Array.isArray(state.columns) ? [...new Set(state.columns as string[])] : [];
      return Buffer.byteLength(JSON.stringify({ query, columns }), 'utf8') > 4096;
    }
    return false;
  };
  const bad = fields(body);
  return bad.length > 0 && bad.every(breaks) ? 'a saved view breaks a rule its contract states (stated)' : null;
};
/** A bulk run's `batch_id` that names no batch the caller started for this action within the hour (docs/lists.md). */
const batchRefused: Explain = ({ status, body }) =>
  status === 400 && fields(body).length > 0 && fields(body).every((f) => f.endsWith('batch_id'))
    ? "batch_id is no batch of the caller's for this action, opened within the hour (state)"
    : null;

/**
 * Webhook endpoints' stated rules the schema cannot say (contracts/openapi.yaml `webhookEndpointCreate`,
 * `webhookEndpointUpdate`): every refused field breaks one, checked here apart from the service
 * (server/src/webhooks/endpoints.ts) — an address that is not an absolute `https` URL once trimmed, holds a
 * user name, password, fragment or control character, or names a host that is not public
 * (server/src/webhooks/addresses.ts `hostRefusal`); a description longer than 200 characters once trimmed or
 * holding control characters; a change that names none of url, types, description and active.
 */
// eslint-disable-next-line no-control-regex -- the rule is about control characters
const WEBHOOK_CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
function webhookUrlBroken(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const text = value.trim();
  if (!text || text.length > 2048 || WEBHOOK_CONTROL.test(text)) return true;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return true;
  }
  return (
    url.protocol !== 'https:' ||
    url.username !== '' ||
    url.password !== '' ||
    url.href.includes('#') ||
    url.href.length > 2048 ||
    hostRefusal(url.hostname, { allowLoopback: false }) !== null
  );
}
const webhookEndpointRules =
  (change: boolean): Explain =>
  ({ status, body, input }) => {
    if (status !== 400) return null;
    const values = (input.body ?? {}) as Record<string, unknown>;
    const breaks = (field: string): boolean => {
      if (field === 'body/url')
        return (
          (change && ['url', 'types', 'description', 'active'].every((key) => values[key] === undefined)) ||
          webhookUrlBroken(values.url)
        );
      if (field === 'body/description') {
        if (typeof values.description !== 'string') return false;
        const description = values.description.trim();
        return [...description].length > 200 || WEBHOOK_CONTROL.test(description);
      }
      return false;
    };
    const bad = fields(body);
    return bad.length > 0 && bad.every(breaks) ? 'a webhook endpoint breaks a rule its contract states (stated)' : null;
  };
/** No live endpoint of a live tenant with this id (a deleted one, or a deleted tenant's, is unknown: 404). */
const webhookEndpointMissing: Explain = async ({ status, input }) => {
  if (status !== 404) return null;
  const id = Number(input.path.id);
  if (!Number.isInteger(id) || id < 1 || id > 2 ** 31 - 1) return 'no such webhook endpoint (state)';
  const row = await run.t.db
    .selectFrom('webhook_endpoints')
    .innerJoin('tenants', 'tenants.id', 'webhook_endpoints.tenant_id')
    .select('webhook_endpoints.id')
    .where('webhook_endpoints.id', '=', id)
    .where('webhook_endpoints.deleted_at', 'is', null)
    .where('tenants.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? null : 'no such live webhook endpoint of a live tenant (state)';
};
const webhookEndpointConflict: Explain = ({ status, body }) => {
  const code = (body as { error?: unknown }).error;
  return status === 409 && (code === 'webhook_endpoint_taken' || code === 'webhook_endpoint_limit')
    ? 'the tenant has an endpoint at this address, or 10 endpoints (state)'
    : null;
};

export const ACCEPTABLE: Partial<Record<string, Explain>> = {
  userBulk: batchRefused,
  tenantFeatureBulk: anyOf(batchRefused, ({ status, input }) =>
    status === 404 && !existing.options.includes(String((input.body as { option?: string }).option))
      ? 'a feature not in the catalogue (state)'
      : null,
  ),
  supportSearch: ({ status, body, input }) =>
    status === 400 && fields(body).every((f) => f === 'query/q') && searchText(String(input.query.q ?? '')) === ''
      ? 'blank once control characters and surrounding spaces are taken off (stated)'
      : null,
  supportPerson: supportRefusals,
  supportLiftThrottle: supportRefusals,
  supportTwoFactor: supportRefusals,
  supportEndSessions: anyOf(supportRefusals, statusIs(404, 'no such live session of the user (state)')),
  supportBlock: supportRefusals,
  supportRestore: supportRefusals,
  supportTemporaryPassword: anyOf(supportRefusals, statedValueRules),
  supportResetLink: anyOf(supportRefusals, statusIs(503, 'the server cannot send mail (mail_disabled, stated)')),
  authLogin: anyOf(
    statusIs(401, 'credentials do not match a user (state)'),
    statusIs(429, 'throttled after earlier failures (state)'),
  ),
  passwordResetRequest: statusIs(429, 'more requests from this address within the hour than the limit (state)'),
  passwordResetConfirm: anyOf(({ status, body }) =>
    status === 400 && (body as { error?: unknown }).error === 'reset_link_invalid'
      ? 'the token is no live reset link of this server (state)'
      : null,
  ),
  userFindByEmail: statusIs(404, 'no user with this e-mail (state)'),
  userList: tenantMissing('query'),
  // The list on the server (docs/lists.md): more than 100,000 matching ids is refused as a whole (stated).
  userPage: tenantMissing('query'),
  userIds: anyOf(tenantMissing('query'), ({ status, body }) =>
    status === 400 && fields(body).every((f) => f === 'query') ? 'more than 100,000 users match (stated)' : null,
  ),
  userExport: tenantMissing('query'),
  tenantPaginated: ({ status, body, input }) =>
    status === 400 &&
    fields(body).every((f) => f === 'body/deleted') &&
    (input.body as { only_deleted?: unknown }).only_deleted === true
      ? 'only_deleted: true with a deleted other than only (stated)'
      : null,
  tenantIds: ({ status, body, input }) =>
    status === 400 &&
    fields(body).every((f) => f === 'body/deleted' || f === 'body') &&
    ((input.body as { only_deleted?: unknown }).only_deleted === true || fields(body).includes('body'))
      ? 'only_deleted: true with a deleted other than only, or more than 100,000 tenants match (stated)'
      : null,
  userCreate: anyOf(
    statusIs(409, 'duplicate e-mail or username, or the tenant is at its user limit (state)'),
    missingRefs,
    statedValueRules,
  ),
  userUpdate: anyOf(
    pathUserMissing,
    staleVersion,
    ownRecordRules,
    statusIs(409, 'duplicate e-mail or username (state)'),
    missingRefs,
    statedValueRules,
  ),
  userSetBlocked: anyOf(pathUserMissing, statusIs(409, 'a user cannot block itself')),
  userDelete: anyOf(pathUserMissing, statusIs(409, 'a user cannot delete itself')),
  userPurge: anyOf(userByIdMissing, statusIs(409, 'not deleted: deleted first, or the caller itself (state)')),
  userSettingsUpdate: anyOf(
    pathUserMissing,
    ({ status, input }) =>
      status === 403 && ownTwoFactorAsked('userSettingsUpdate', input)
        ? "one's own two-factor off or enrolment requirement (stated)"
        : null,
    statusIs(
      409,
      'two-factor can only be turned on by enrolling, and enrolment is not required of a user who has it (stated)',
    ),
  ),
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
  tenantPurge: anyOf(tenantByIdMissing, statusIs(409, 'not deleted: deleted first (state)')),
  tenantSetPlan: anyOf(tenantByIdMissing, staleVersion),
  tenantUpdate: anyOf(
    tenantByIdMissing,
    staleVersion,
    statusIs(409, 'another tenant has this name (state)'),
    ({ status, body, input }) =>
      status === 400 &&
      fields(body).every((f) => f === 'body/cnpj') &&
      !isValidCnpj(String((input.body as { cnpj?: string }).cnpj))
        ? 'CNPJ check digits are wrong (stated)'
        : null,
  ),
  sheetOrders: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  sheetAttendances: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  sheetInstanceLogs: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  sheetReasons: rangeRule('startAt', 'finishAt', 'query'),
  sheetLoginFailures: rangeRule('startAt', 'finishAt', 'query'),
  auditList: auditRules,
  // auditNames's stated rule the schema cannot say: a target's kind with `of=target`.
  auditNames: ({ status, body, input }) => {
    const q = input.query as { of?: string; targetType?: string };
    return status === 400 &&
      fields(body).every((f) => f === 'query/targetType') &&
      q.of === 'target' &&
      q.targetType === undefined
      ? '`targetType` is required with `of=target` (stated)'
      : null;
  },
  // Undo (server/src/undo/service.ts): a fuzzed id names no record, or one that cannot be undone now.
  auditUndo: anyOf(
    async ({ status, input }) =>
      status === 404 &&
      !(await run.t.db.selectFrom('audit_log').select('id').where('id', '=', Number(input.path.id)).executeTakeFirst())
        ? 'no audit record with this id (state)'
        : null,
    statusIs(404, "another tenant's record, not visible to the caller (state)"),
    statusIs(403, 'the undone operation needs a permission the caller lacks (state)'),
    statusIs(409, 'not undoable, undone already, past its window or changed since (state)'),
  ),
  featureList: tenantMissing('query'),
  featureUpdate: anyOf(tenantMissing('body'), staleVersion, ({ status, input }) =>
    status === 404 && !existing.options.includes(String((input.body as { option?: string }).option))
      ? 'no such feature (state)'
      : null,
  ),
  tenantSyncAnalytics: anyOf(rangeRule('fromDate', 'toDate', 'query'), tenantMissing('query')),
  tenantGenerateCampaignStatusWebhook: anyOf(
    rangeRule('startAt', 'finishAt', 'query'),
    tenantMissing('query'),
    statusIs(409, 'no active endpoint of the tenant receives the type (state)'),
  ),
  // Webhook history and redelivery (docs/webhooks.md): pages as the audit log's; fuzzed ids name nothing.
  webhookRunList: anyOf(webhookCursor, tenantMissing('query')),
  webhookDeliveryList: anyOf(webhookCursor, tenantMissing('query')),
  webhookRunGet: statusIs(404, "no such run of the caller's tenant (state)"),
  webhookRunRedeliverFailed: statusIs(404, "no such run of the caller's tenant (state)"),
  webhookDeliveryGet: statusIs(404, "no such delivery of the caller's tenant (state)"),
  webhookDeliveryRedeliver: anyOf(
    statusIs(404, "no such delivery of the caller's tenant (state)"),
    statusIs(409, 'the delivery is in progress, or its endpoint is paused or deleted (state)'),
  ),
  dashboardReport: rangeRule('start_at', 'finish_at', 'body'),
  dashboardReportUsers: tenantMissing('query'),
  dashboardSummary: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  dashboardTimeseries: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  dashboardProductivity: anyOf(rangeRule('startAt', 'finishAt', 'query'), tenantMissing('query')),
  permissionByEmail: statusIs(404, 'no user with this e-mail (state)'),
  permissionUpdate: anyOf(
    staleVersion,
    statusIs(404, 'no such role, or a route name not in the catalogue (state)'),
    statusIs(409, 'the administrador role always holds every permission (stated)'),
  ),
  roleCreate: statusIs(409, 'a role with this name exists (state)'),
  roleGet: statusIs(404, 'no such role (state)'),
  roleRename: anyOf(statusIs(404, 'no such role (state)'), staleVersion),
  roleDelete: anyOf(
    statusIs(404, 'no such role (state)'),
    statusIs(409, 'users hold the role, or it is administrador (stated)'),
  ),
  viewCreate: anyOf(viewRules, statusIs(409, 'a view of this name, or 50 views, the caller has for the list (state)')),
  viewUpdate: anyOf(
    viewRules,
    statusIs(404, "no such view of the caller's (state)"),
    statusIs(409, 'a view of this name the caller has for the list (state)'),
  ),
  viewDelete: statusIs(404, "no such view of the caller's (state)"),
  webhookEndpointList: tenantMissing('query'),
  webhookEndpointCreate: anyOf(tenantMissing('body'), webhookEndpointRules(false), webhookEndpointConflict),
  webhookEndpointUpdate: anyOf(
    webhookEndpointMissing,
    webhookEndpointRules(true),
    webhookEndpointConflict,
    staleVersion,
  ),
  webhookEndpointRotateSecret: anyOf(webhookEndpointMissing, staleVersion),
  webhookEndpointDelete: webhookEndpointMissing,
  departmentList: tenantMissing('query'),
  departmentCreate: anyOf(
    tenantMissing('query'),
    statusIs(409, 'a department with this name exists in the tenant (state)'),
    blankName('body/name'),
  ),
  departmentUpdate: anyOf(
    tenantMissing('query'),
    staleVersion,
    nothingToChange,
    statusIs(404, 'no such department in the tenant (state)'),
    statusIs(409, 'a department with this name exists in the tenant (state)'),
    blankName('body/name'),
  ),
  instanceList: tenantMissing('query'),
  instanceCreate: anyOf(
    tenantMissing('body'),
    statusIs(409, 'an instance with this name exists in the tenant (state)'),
    blankName('body/name'),
  ),
  instanceUpdate: anyOf(
    tenantMissing('body'),
    staleVersion,
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
  connectionCreate: anyOf(
    tenantMissing('body'),
    statusIs(409, 'a connection with this name exists in the instance (state)'),
    blankName('body/name'),
    async ({ status, body, input }) => {
      if (status !== 400 || !fields(body).every((f) => f === 'body/instance_id')) return null;
      const { tenantName, instance_id } = input.body as { tenantName: string; instance_id: number };
      const row = await run.t.db
        .selectFrom('instances as i')
        .innerJoin('tenants as t', 't.id', 'i.tenant_id')
        .select('i.id')
        .where('i.id', '=', instance_id)
        .where('t.name', '=', tenantName)
        .executeTakeFirst();
      return row ? null : 'the instance is not one of the tenant (state)';
    },
  ),
  connectionUpdate: anyOf(
    tenantMissing('body'),
    staleVersion,
    nothingToChange,
    statusIs(404, 'no such connection in the tenant (state)'),
    statusIs(409, 'a connection with this name exists in the instance (state)'),
    blankName('body/name'),
  ),
  twoFactorEnrol: statusIs(409, 'two-factor already on (state)'),
  twoFactorVerify: anyOf(statusIs(409, 'no pending enrolment (state)'), ({ status, body }) =>
    status === 400 && fields(body).every((f) => f === 'body/code') ? 'the code does not match the secret' : null,
  ),
  twoFactorDisable: anyOf(statusIs(409, 'two-factor is off (state)'), ({ status, body }) =>
    status === 400 && fields(body).every((f) => f === 'body/code') ? 'the code does not match the secret' : null,
  ),
};
