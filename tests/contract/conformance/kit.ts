import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  Kind,
  buildSchema,
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { fragmentsOf, isFragmentFile, operationDocument, readOperationFiles } from '../graphql-documents';

/**
 * Conformance kit: drives ANY server that claims to implement the contracts (REST `contracts/openapi.yaml`,
 * GraphQL `contracts/schema.graphql` + `contracts/operations/`) over HTTP and checks every answer against
 * them. It imports nothing from `server/`: it discovers ids and names from the server itself and only
 * mutates throwaway records it creates (unique names).
 */

export interface Result {
  operation: string;
  kind: 'rest' | 'graphql' | 'auth';
  status: number;
  ok: boolean;
  problems: string[];
}

export interface ConformanceOptions {
  baseUrl: string;
  email: string;
  password: string;
  tenant?: string;
  fetch?: typeof globalThis.fetch;
}

// ---------------------------------------------------------------------------------------------------------
// Contract files
// ---------------------------------------------------------------------------------------------------------

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONTRACTS = join(ROOT, 'contracts');

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}
interface OperationObject {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { responses?: Record<string, ResponseObject> };
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
const openapi = parseYaml(readFileSync(join(CONTRACTS, 'openapi.yaml'), 'utf8')) as OpenApiDocument;

/** Every REST operationId of the contract. */
export const REST_OPERATION_IDS: string[] = Object.values(openapi.paths).flatMap((item) =>
  Object.entries(item)
    .filter(([method, op]) => HTTP_METHODS.has(method) && typeof op.operationId === 'string')
    .map(([, op]) => op.operationId as string),
);

const graphqlSchema: GraphQLSchema = buildSchema(readFileSync(join(CONTRACTS, 'schema.graphql'), 'utf8'));

export interface GraphqlOperationFile {
  name: string;
  file: string;
  source: string;
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

const operationFiles = readOperationFiles();
const operationFragments = fragmentsOf(operationFiles);

/**
 * Every operation file of `contracts/operations/` (one named operation each), its `source` and `document`
 * completed with the fragment files it spreads, as the SPA sends it (src/generated/graphql.ts).
 */
export const GRAPHQL_OPERATIONS: GraphqlOperationFile[] = operationFiles
  .filter((file) => !isFragmentFile(file.file))
  .map((file) => {
    const operation = operationDocument(file, operationFragments);
    if (!operation) throw new Error(`${file.file}: no named operation`);
    return operation;
  });

// ---------------------------------------------------------------------------------------------------------
// OpenAPI response validation (a copy of server/src/test-support/contract.ts, kept server-free)
// ---------------------------------------------------------------------------------------------------------

const DOC_ID = 'https://contract.local/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats.default(ajv);
ajv.addSchema({ ...openapi, $id: DOC_ID });
const compiled = new Map<string, ValidateFunction>();
const pointer = (...parts: string[]): string =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The statuses the contract lists for an operation. */
function listedStatuses(operationId: string): string[] {
  for (const item of Object.values(openapi.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (HTTP_METHODS.has(method) && op.operationId === operationId) return Object.keys(op.responses ?? {});
    }
  }
  return [];
}

function schemaPointer(operationId: string, status: number, mediaType: string): string {
  for (const [path, item] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || operation.operationId !== operationId) continue;
      const response = operation.responses?.[String(status)];
      if (!response) throw new Error(`the contract lists no ${status} answer`);
      const ref = response.$ref?.replace(/^#\//, '');
      const base = ref ? ref.split('/') : ['paths', path, method, 'responses', String(status)];
      const target = ref ? openapi.components.responses?.[base[2] ?? ''] : response;
      if (!target?.content?.[mediaType]?.schema)
        throw new Error(`the contract has no ${mediaType} schema for ${status}`);
      return `#/${pointer(...base, 'content', mediaType, 'schema')}`;
    }
  }
  throw new Error(`unknown operationId ${operationId}`);
}

/** Problems of `body` against the contract's schema for `operationId` answering `status`; [] when valid. */
export function validateRestResponse(
  operationId: string,
  status: number,
  body: unknown,
  mediaType = 'application/json',
): string[] {
  const key = `${operationId} ${status} ${mediaType}`;
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile({ $ref: `${DOC_ID}${schemaPointer(operationId, status, mediaType)}` });
    } catch (error) {
      return [(error as Error).message];
    }
    compiled.set(key, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) =>
      `schema: ${e.instancePath || '/'} ${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// GraphQL result validation: walk the operation's selection against the schema
// ---------------------------------------------------------------------------------------------------------

function checkScalar(typeName: string, value: unknown): boolean {
  switch (typeName) {
    case 'Int':
      return typeof value === 'number' && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'String':
      return typeof value === 'string';
    case 'Boolean':
      return typeof value === 'boolean';
    case 'ID':
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
    default:
      return value !== undefined; // custom scalars: any JSON value
  }
}

function checkValue(
  value: unknown,
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  path: string,
  fragments: Map<string, FragmentDefinitionNode>,
  problems: string[],
): void {
  if (isNonNullType(type)) {
    if (value === null || value === undefined) {
      problems.push(`graphql: ${path} is null but ${String(type)} is non-null`);
      return;
    }
    checkValue(value, type.ofType, selection, path, fragments, problems);
    return;
  }
  if (value === null) return;
  if (isListType(type)) {
    if (!Array.isArray(value)) {
      problems.push(`graphql: ${path} is not a list`);
      return;
    }
    value.forEach((item, i) =>
      checkValue(item, type.ofType as GraphQLOutputType, selection, `${path}[${i}]`, fragments, problems),
    );
    return;
  }
  if (isScalarType(type)) {
    if (!checkScalar(type.name, value))
      problems.push(`graphql: ${path} is ${JSON.stringify(value)}, not a ${type.name}`);
    return;
  }
  if (isEnumType(type)) {
    if (typeof value !== 'string' || !type.getValue(value))
      problems.push(`graphql: ${path} is ${JSON.stringify(value)}, not a ${type.name}`);
    return;
  }
  if (isObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      problems.push(`graphql: ${path} is not an object`);
      return;
    }
    if (selection) checkSelection(value as Record<string, unknown>, type, selection, path, fragments, problems);
    return;
  }
  // Interfaces and unions do not occur in this contract; accept any object.
  if (typeof value !== 'object') problems.push(`graphql: ${path} is not an object (${getNamedType(type).name})`);
}

function checkSelection(
  object: Record<string, unknown>,
  parent: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  path: string,
  fragments: Map<string, FragmentDefinitionNode>,
  problems: string[],
  seen = new Set<string>(),
  top = true,
): void {
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments.get(selection.name.value);
      if (fragment) checkSelection(object, parent, fragment.selectionSet, path, fragments, problems, seen, false);
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      checkSelection(object, parent, selection.selectionSet, path, fragments, problems, seen, false);
      continue;
    }
    const name = selection.name.value;
    const key = selection.alias?.value ?? name;
    seen.add(key);
    if (name === '__typename') {
      if (object[key] !== parent.name) problems.push(`graphql: ${path}.${key} is not ${parent.name}`);
      continue;
    }
    const field = parent.getFields()[name];
    if (!field) {
      problems.push(`graphql: ${parent.name}.${name} is not in the schema`);
      continue;
    }
    if (!(key in object)) {
      problems.push(`graphql: ${path}.${key} is missing`);
      continue;
    }
    checkValue(object[key], field.type, selection.selectionSet, `${path}.${key}`, fragments, problems);
  }
  if (top) {
    for (const key of Object.keys(object))
      if (!seen.has(key)) problems.push(`graphql: ${path}.${key} was not selected`);
  }
}

/** Problems of a GraphQL `data` object against the operation's selection; [] when it matches. */
export function validateGraphqlData(operation: GraphqlOperationFile, data: unknown): string[] {
  const root =
    operation.operation.operation === 'mutation' ? graphqlSchema.getMutationType() : graphqlSchema.getQueryType();
  if (!root) return [`graphql: the schema has no ${operation.operation.operation} type`];
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return ['graphql: data is not an object'];
  const fragments = new Map(
    operation.document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const problems: string[] = [];
  checkSelection(data as Record<string, unknown>, root, operation.operation.selectionSet, 'data', fragments, problems);
  return problems;
}

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

/** A random, valid, masked CNPJ (check digits computed). */
function randomCnpj(): string {
  const digits = Array.from({ length: 12 }, () => Math.floor(Math.random() * 10));
  const check = (base: number[]): number => {
    const weights = base.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const r = base.reduce((sum, d, i) => sum + d * (weights[i] ?? 0), 0) % 11;
    return r < 2 ? 0 : 11 - r;
  };
  digits.push(check(digits));
  digits.push(check(digits));
  const s = digits.join('');
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}

/**
 * A TOTP code (RFC 6238: HMAC-SHA1, 30 s, 6 digits) of a base32 secret, `steps` steps from now. Written
 * out here so the kit stays free of server code.
 */
function totpCode(secret: string, steps = 0): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of secret.toUpperCase().replace(/=+$/, '')) {
    value = ((value << 5) | alphabet.indexOf(char)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + steps));
  const mac = createHmac('sha1', Buffer.from(bytes)).update(counter).digest();
  const offset = (mac[mac.length - 1] ?? 0) & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

interface HttpAnswer {
  status: number;
  contentType: string;
  bytes: Uint8Array;
  text: string;
  json: unknown;
}

interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  token?: string | null;
  accept?: string;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

// ---------------------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------------------

export async function runConformance(options: ConformanceOptions): Promise<Result[]> {
  const { email, password, tenant = 'backoffice' } = options;
  const doFetch = options.fetch ?? globalThis.fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const results: Result[] = [];
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const today = new Date();
  const finishAt = isoDay(today);
  const startAt = isoDay(new Date(today.getTime() - 29 * 86_400_000));
  let token: string | null = null;

  async function http(method: string, path: string, opts: CallOptions = {}): Promise<HttpAnswer> {
    const url = new URL(`${baseUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: opts.accept ?? 'application/json' };
    const bearer = opts.token === undefined ? token : opts.token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const response = await doFetch(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', bytes, text, json };
  }

  /** Calls one REST operation, validates the answer, records a result and returns the JSON body. */
  async function rest(
    operationId: string,
    method: string,
    path: string,
    expected: number,
    opts: CallOptions = {},
    label = operationId,
  ): Promise<unknown> {
    const problems: string[] = [];
    let answer: HttpAnswer;
    try {
      answer = await http(method, path, opts);
    } catch (error) {
      results.push({
        operation: label,
        kind: 'rest',
        status: 0,
        ok: false,
        problems: [`request failed: ${(error as Error).message}`],
      });
      return undefined;
    }
    if (answer.status !== expected)
      problems.push(`expected HTTP ${expected}, got ${answer.status}: ${answer.text.slice(0, 300)}`);
    if (!listedStatuses(operationId).includes(String(answer.status))) {
      problems.push(`HTTP ${answer.status} is not an answer the contract lists`);
    } else if (answer.status !== 204) {
      if (!answer.contentType.includes('application/json'))
        problems.push(`content-type ${answer.contentType || '(none)'} is not application/json`);
      if (answer.json === undefined) problems.push('body is not JSON');
      else problems.push(...validateRestResponse(operationId, answer.status, answer.json));
    }
    results.push({ operation: label, kind: 'rest', status: answer.status, ok: problems.length === 0, problems });
    return answer.status === expected ? answer.json : undefined;
  }

  /**
   * Two-factor as a throwaway user: status, enrol, verify (recovery codes), login without a code (401
   * two_factor_required), login with a recovery code, disable with the next TOTP step.
   */
  async function twoFactorFlow(who: string, secret: string): Promise<void> {
    const own = await loginToken(who, secret);
    if (!own) {
      for (const id of ['twoFactorStatus', 'twoFactorEnrol', 'twoFactorVerify', 'twoFactorDisable'])
        check(id, 'rest', 0, ['could not sign in as the throwaway user']);
      return;
    }
    await rest('twoFactorStatus', 'GET', '/api/two-factor', 200, { token: own });
    const enrolment = asRecord(await rest('twoFactorEnrol', 'POST', '/api/two-factor/enrol', 200, { token: own }));
    const totpSecret = typeof enrolment.secret === 'string' ? enrolment.secret : '';
    const activated = asRecord(
      await rest('twoFactorVerify', 'POST', '/api/two-factor/verify', 200, {
        token: own,
        body: { code: totpCode(totpSecret) },
      }),
    );
    const recovery = asArray(activated.recovery_codes).filter((c): c is string => typeof c === 'string');
    const credentials = { email: who, password: secret, ip: null };
    const asked = asRecord(
      await rest(
        'authLogin',
        'POST',
        '/api/auth/login',
        401,
        { token: null, body: credentials },
        'authLogin (two-factor required)',
      ),
    );
    if (asked.error !== 'two_factor_required')
      check('authLogin (two-factor required)', 'auth', 401, [
        `expected error two_factor_required, got ${JSON.stringify(asked)}`,
      ]);
    await rest(
      'authLogin',
      'POST',
      '/api/auth/login',
      200,
      { token: null, body: { ...credentials, otp: recovery[0] ?? 'AAAAA-AAAAA' } },
      'authLogin (recovery code)',
    );
    await rest('twoFactorDisable', 'POST', '/api/two-factor/disable', 200, {
      token: own,
      body: { code: totpCode(totpSecret, 1) },
    });
  }

  /** The CSV variant of a sheet: BOM, `;` header, CRLF, text/csv. */
  async function csv(operationId: string, path: string, query: CallOptions['query']): Promise<void> {
    const label = `${operationId} (text/csv)`;
    const problems: string[] = [];
    let answer: HttpAnswer;
    try {
      answer = await http('GET', path, { query, accept: 'text/csv' });
    } catch (error) {
      results.push({
        operation: label,
        kind: 'rest',
        status: 0,
        ok: false,
        problems: [`request failed: ${(error as Error).message}`],
      });
      return;
    }
    if (answer.status !== 200) problems.push(`expected HTTP 200, got ${answer.status}: ${answer.text.slice(0, 300)}`);
    else {
      if (!answer.contentType.includes('text/csv'))
        problems.push(`content-type ${answer.contentType || '(none)'} is not text/csv`);
      const [b0, b1, b2] = answer.bytes;
      if (b0 !== 0xef || b1 !== 0xbb || b2 !== 0xbf) problems.push('CSV does not start with a UTF-8 BOM');
      const body = answer.text.replace(/^\uFEFF/, '');
      const lineEnd = body.indexOf('\r\n');
      const header = lineEnd >= 0 ? body.slice(0, lineEnd) : body;
      if (lineEnd < 0) problems.push('CSV header line does not end with CRLF');
      if (!header.includes(';'))
        problems.push(`CSV header is not ;-separated: ${JSON.stringify(header.slice(0, 120))}`);
      if (header.includes(',')) problems.push(`CSV header contains commas: ${JSON.stringify(header.slice(0, 120))}`);
      problems.push(...validateRestResponse(operationId, 200, answer.text, 'text/csv'));
    }
    results.push({ operation: label, kind: 'rest', status: answer.status, ok: problems.length === 0, problems });
  }

  /** A check that is not a single contract operation (401 table, soft-delete semantics). */
  function check(operation: string, kind: Result['kind'], status: number, problems: string[]): void {
    results.push({ operation, kind, status, ok: problems.length === 0, problems });
  }

  async function expect401(
    operation: string,
    method: string,
    path: string,
    bearer: string | null,
    expected: Record<string, string>,
    body?: unknown,
  ): Promise<void> {
    try {
      const answer = await http(method, path, { token: bearer, body });
      const problems: string[] = [];
      if (answer.status !== 401) problems.push(`expected HTTP 401, got ${answer.status}: ${answer.text.slice(0, 300)}`);
      if (JSON.stringify(answer.json) !== JSON.stringify(expected))
        problems.push(`expected body ${JSON.stringify(expected)}, got ${answer.text.slice(0, 300)}`);
      if (!answer.contentType.includes('application/json'))
        problems.push(`content-type ${answer.contentType || '(none)'} is not application/json`);
      check(operation, 'auth', answer.status, problems);
    } catch (error) {
      check(operation, 'auth', 0, [`request failed: ${(error as Error).message}`]);
    }
  }

  async function loginToken(who = email, secret = password): Promise<string | null> {
    const answer = await http('POST', '/api/auth/login', {
      token: null,
      body: { email: who, password: secret, ip: null },
    });
    const access = asRecord(answer.json).access_token;
    return answer.status === 200 && typeof access === 'string' ? access : null;
  }

  const graphqlByName = new Map(GRAPHQL_OPERATIONS.map((op) => [op.name, op]));
  /** Runs one operations file; returns its `data` when it succeeded. */
  async function graphql(
    name: string,
    variables: Record<string, unknown>,
    bearer?: string | null,
  ): Promise<Record<string, unknown> | undefined> {
    const operation = graphqlByName.get(name);
    if (!operation) {
      check(name, 'graphql', 0, [`contracts/operations has no operation ${name}`]);
      return undefined;
    }
    const problems: string[] = [];
    let answer: HttpAnswer;
    try {
      answer = await http('POST', `/${encodeURIComponent(tenant)}/graphql`, {
        token: bearer,
        body: { query: operation.source, operationName: name, variables },
        accept: 'application/graphql-response+json, application/json',
      });
    } catch (error) {
      check(name, 'graphql', 0, [`request failed: ${(error as Error).message}`]);
      return undefined;
    }
    const body = asRecord(answer.json);
    if (answer.status !== 200) problems.push(`expected HTTP 200, got ${answer.status}: ${answer.text.slice(0, 300)}`);
    if (answer.json === undefined) problems.push('body is not JSON');
    if ('errors' in body) problems.push(`errors: ${JSON.stringify(body.errors).slice(0, 400)}`);
    if (!('data' in body) || body.data === null) problems.push('no data');
    else problems.push(...validateGraphqlData(operation, body.data));
    check(name, 'graphql', answer.status, problems);
    return problems.length === 0 ? asRecord(body.data) : undefined;
  }

  // ----- health and sign-in ------------------------------------------------------------------------------
  await rest('healthLive', 'GET', '/healthz', 200, { token: null });
  await rest('healthReady', 'GET', '/readyz', 200, { token: null });
  const login = asRecord(
    await rest('authLogin', 'POST', '/api/auth/login', 200, { token: null, body: { email, password, ip: null } }),
  );
  token = typeof login.access_token === 'string' ? login.access_token : null;
  if (!token) {
    check('sign-in', 'auth', 0, ['could not sign in; the remaining operations were not exercised']);
    return finish();
  }
  const me = asRecord(asRecord(await rest('authUserInfo', 'GET', '/api/auth/userInfo', 200)).user);
  await rest('userIsFuncionalUser', 'GET', '/api/users/is-funcional-user', 200);

  // ----- 401 table (docs/product.md, Sessions) ------------------------------------------------------------
  await expect401('401 no token (REST)', 'GET', '/api/auth/userInfo', null, {
    status: 'Authorization Token not found',
  });
  await expect401('401 garbage token (REST)', 'GET', '/api/auth/userInfo', 'garbage.token.value', {
    status: 'Token is Invalid',
  });
  await expect401(
    '401 no token (GraphQL)',
    'POST',
    `/${encodeURIComponent(tenant)}/graphql`,
    null,
    { status: 'Authorization Token not found' },
    { query: '{ userInfos { id } }' },
  );

  // ----- discovery ---------------------------------------------------------------------------------------
  const tenants = asArray(await rest('tenantList', 'GET', '/api/tenant/false', 200)).map(asRecord);
  const customer = tenants.find((t) => t.name !== tenant && typeof t.name === 'string') ?? tenants[0] ?? {};
  const customerName = typeof customer.name === 'string' ? customer.name : tenant;
  const customerId = typeof customer.id === 'number' ? customer.id : 1;
  await rest('tenantPaginated', 'POST', '/api/tenant/paginated', 200, { body: {} });

  // ----- throwaway tenant --------------------------------------------------------------------------------
  const tenantName = `conf-${stamp}`;
  const createdTenant = asRecord(
    await rest('tenantCreate', 'POST', '/api/tenant', 201, {
      body: {
        name: tenantName,
        cnpj: randomCnpj(),
        features: ['chat'],
        template: 'pharmacy',
        pool: 'pool-a',
        userLimit: 5,
        plan: 'starter',
        ticketLimit: 100,
      },
    }),
  );
  const tenantId = typeof createdTenant.id === 'number' ? createdTenant.id : undefined;
  if (tenantId)
    await rest('tenantSetPlan', 'POST', '/api/tenant/set-plan', 200, {
      body: { id: tenantId, plan: 'professional', user: 10, ticket: 1000 },
    });
  await rest('featureList', 'GET', '/api/tenant/feature', 200, { query: { tenantName } });
  await rest('featureUpdate', 'POST', '/api/tenant/feature', 200, {
    body: { option: 'chatbot', enabled: true, tenantName },
  });
  await rest('tenantSyncAnalytics', 'GET', '/api/tenant/syncAnalytics', 200, {
    query: { tenantName, fromDate: startAt, toDate: finishAt, forceUpdate: true },
  });
  await rest('tenantGenerateCampaignStatusWebhook', 'GET', '/api/tenant/generate-campaign-status-webhook', 200, {
    query: { tenantName, startAt, finishAt, type: 'delivered' },
  });

  // ----- instances and connections -----------------------------------------------------------------------
  await rest('instanceList', 'GET', '/api/instance', 200, { query: { tenantName: customerName } });
  const instance = asRecord(
    await rest('instanceCreate', 'POST', '/api/instance', 201, {
      body: { name: `Conformance ${stamp}`, tenantName, isOfficial: false, isUnlimited: false },
    }),
  );
  const instanceId = typeof instance.id === 'number' ? instance.id : undefined;
  if (instanceId) {
    await rest('instanceUpdate', 'POST', '/api/instance/update', 200, {
      body: { id: instanceId, tenantName, name: `Conformance ${stamp} renamed`, activated: true },
    });
    await rest('instanceSyncMessages', 'POST', '/api/instance/syncMessages', 202, {
      body: { id: instanceId, daysAgo: 30, tenantName, unlimitedSync: false },
    });
    // Let the background sync settle before the tenant is deleted (bounded wait).
    for (let i = 0; i < 50; i += 1) {
      const list = await http('GET', '/api/instance', { query: { tenantName } });
      const row = asArray(list.json)
        .map(asRecord)
        .find((r) => r.id === instanceId);
      if (!row || row.status !== 'syncing') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await rest('connectionList', 'GET', '/api/connection', 200, { query: { tenantName: customerName } });

  // ----- sheets and dashboards ---------------------------------------------------------------------------
  const range = { startAt, finishAt, tenantName: customerName };
  await rest('sheetOrders', 'GET', '/api/tenant/sheets/orders', 200, { query: { ...range, limit: 20 } });
  await csv('sheetOrders', '/api/tenant/sheets/orders', range);
  await rest('sheetAttendances', 'GET', '/api/tenant/sheets/attendances', 200, { query: { ...range, limit: 20 } });
  await csv('sheetAttendances', '/api/tenant/sheets/attendances', range);
  await rest('sheetInstanceLogs', 'GET', '/api/tenant/sheets/instance_logs', 200, { query: { ...range, limit: 20 } });
  await csv('sheetInstanceLogs', '/api/tenant/sheets/instance_logs', range);
  await rest('sheetReasons', 'GET', '/api/tenant/sheets/reasons', 200, {
    query: { startAt, finishAt, tenancyId: customerId, limit: 20 },
  });
  await csv('sheetReasons', '/api/tenant/sheets/reasons', { startAt, finishAt, tenancyId: customerId });
  await rest('dashboardSummary', 'GET', '/api/dashboard/summary', 200, { query: range });
  await rest('dashboardTimeseries', 'GET', '/api/dashboard/timeseries', 200, {
    query: { ...range, metric: 'revenue', interval: 'day' },
  });
  await rest('dashboardProductivity', 'GET', '/api/dashboard/productivity', 200, { query: range });
  await csv('dashboardProductivity', '/api/dashboard/productivity', range);
  await rest('dashboardReport', 'POST', '/api/dashboard-report', 200, {
    body: { start_at: startAt, finish_at: finishAt, selectedUsers: [] },
  });
  await rest('dashboardReportUsers', 'GET', '/api/dashboard-report/users', 200);

  // ----- permissions and roles ---------------------------------------------------------------------------
  await rest('permissionByEmail', 'GET', '/api/permission/email', 200, { query: { email } });
  const permissions = asArray(await rest('permissionList', 'GET', '/api/permission', 200)).map(asRecord);
  await rest('permissionCategories', 'GET', '/api/permission/categories', 200);
  await rest('roleList', 'GET', '/api/roles', 200);
  const role = asRecord(
    await rest('roleCreate', 'POST', '/api/roles', 201, {
      body: { name: `conf_${stamp}`, display_name: `Conformance ${stamp}` },
    }),
  );
  const roleId = typeof role.id === 'number' ? role.id : undefined;
  if (roleId) {
    await rest('roleGet', 'GET', `/api/roles/${roleId}`, 200);
    await rest('roleRename', 'PUT', `/api/roles/${roleId}`, 200, {
      body: { display_name: `Conformance ${stamp} renamed` },
    });
    const route = permissions.map((p) => p.route_name).find((r): r is string => typeof r === 'string');
    await rest('permissionUpdate', 'POST', '/api/permission/update', 200, {
      body: { roleId, permissions: route ? [route] : [] },
    });
  }
  await rest('departmentList', 'GET', '/api/departments', 200);

  // ----- users (a throwaway user in the caller's tenant) -------------------------------------------------
  const users = asArray(await rest('userList', 'GET', '/api/users', 200)).map(asRecord);
  const anyUserId =
    typeof me.id === 'number' ? me.id : users.map((u) => u.id).find((id): id is number => typeof id === 'number');
  const userEmail = `conf-${stamp}@example.com`;
  // Fixed strong passwords: a stamp could spell a sequence (abc, 123) that the strength rule calls weak.
  const userPassword = 'Conf#Kx9!Qm2@Lp';
  const user = asRecord(
    await rest('userCreate', 'POST', '/api/users', 201, {
      body: {
        username: `conf.${stamp}`,
        name: 'Conformance User',
        email: userEmail,
        password: userPassword,
        role_id: roleId ?? 1,
        user_department_id: null,
        chosen_instances: [],
      },
    }),
  );
  const userId = typeof user.id === 'number' ? user.id : undefined;
  await rest('userFindByEmail', 'POST', '/api/users/email', 200, { body: { email: userEmail } });
  if (userId) {
    await rest('userUpdate', 'PUT', `/api/users/${userId}`, 200, { body: { name: 'Conformance User Renamed' } });
    await rest('userSetBlocked', 'PATCH', `/api/users/${userId}`, 200, { body: { blocked: false } });
    // Two-factor can only be turned on by enrolling (409 here); off is an administrator's reset.
    await rest(
      'userSettingsUpdate',
      'PATCH',
      `/api/user-settings/${userId}`,
      409,
      { body: { two_factor_enabled: true } },
      'userSettingsUpdate (on without enrolment)',
    );
    await rest('userSettingsUpdate', 'PATCH', `/api/user-settings/${userId}`, 200, {
      body: { two_factor_enabled: false },
    });
    await twoFactorFlow(userEmail, userPassword);
  } else if (anyUserId) {
    // Without a throwaway user, still exercise the read-only-ish setting on the caller itself.
    await rest('userSettingsUpdate', 'PATCH', `/api/user-settings/${anyUserId}`, 200, {
      body: { two_factor_enabled: me.twoFactorEnabled === true },
    });
  }

  // ----- GraphQL operations ------------------------------------------------------------------------------
  await graphql('logIn', { email, password, remember: false }, null);
  await graphql('userInfos', {});
  await graphql('users', {});
  await graphql('roles', {});
  await graphql('departments', {});
  const gqlInstances = asArray((await graphql('instances', { remove_ids: [] }))?.instances).map(asRecord);
  await graphql('onlineUsers', { user_id: null, instance_id: null });
  await graphql('disconnected', {});
  await graphql('connected', {});

  let instanceIds = gqlInstances.map((i) => i.id).filter((id): id is number => typeof id === 'number');
  if (instanceIds.length === 0) {
    // The GraphQL tenant has no instance: create one so links can be made and removed.
    const extra = asRecord(
      (
        await http('POST', '/api/instance', {
          body: { name: `Conformance ${stamp} gql`, tenantName: tenant, isOfficial: false, isUnlimited: false },
        })
      ).json,
    );
    if (typeof extra.id === 'number') instanceIds = [extra.id];
  }
  const gqlPassword = 'Conf#Gq7!Zr4@Wt';
  const gqlEmail = `conf-gql-${stamp}@example.com`;
  const created = asRecord(
    (
      await graphql('newUser', {
        username: `conf.gql.${stamp}`,
        name: 'Conformance GraphQL User',
        email: gqlEmail,
        password: gqlPassword,
        role_id: roleId ?? 1,
        user_department_id: null,
        chosen_instances: instanceIds.slice(0, 1),
      })
    )?.newUser,
  );
  const gqlUserId = typeof created.id === 'number' ? created.id : undefined;
  if (gqlUserId) {
    const links = asArray((await graphql('userInstances', { user_id: gqlUserId }))?.userInstances).map(asRecord);
    await graphql('updateUser', {
      id: gqlUserId,
      name: 'Conformance GraphQL User Renamed',
      chosen_instances: instanceIds.slice(0, 1),
    });
    const linkId = links.map((l) => l.id).find((id): id is number => typeof id === 'number');
    if (linkId) await graphql('deleteUserInstance', { id: linkId });
    else check('deleteUserInstance', 'graphql', 0, ['no user–instance link to delete (newUser linked no instance)']);
    // Password change as the throwaway user (never touches the caller's password).
    const gqlToken = await loginToken(gqlEmail, gqlPassword);
    if (gqlToken) await graphql('updateUserPassword', { password: `${gqlPassword}2` }, gqlToken);
    else check('updateUserPassword', 'graphql', 0, ['could not sign in as the throwaway GraphQL user']);
    await graphql('disconnectUser', { user_id: gqlUserId });
    await graphql('deleteUser', { id: gqlUserId });
  } else {
    for (const name of [
      'userInstances',
      'updateUser',
      'deleteUserInstance',
      'updateUserPassword',
      'disconnectUser',
      'deleteUser',
    ]) {
      check(name, 'graphql', 0, ['not exercised: newUser did not create a user']);
    }
  }
  // refreshToken on a session of its own, so the main token keeps working.
  const refreshable = await loginToken();
  if (refreshable) await graphql('refreshToken', {}, refreshable);
  else check('refreshToken', 'graphql', 0, ['could not sign in for a separate session']);

  // ----- soft delete and restore of the throwaway tenant -------------------------------------------------
  if (tenantId) {
    const findIn = async (onlyDeleted: boolean): Promise<Record<string, unknown> | undefined> => {
      const page = await http('POST', '/api/tenant/paginated', {
        body: { search: tenantName, pagination_limit: 100, only_deleted: onlyDeleted },
      });
      return asArray(asRecord(page.json).data)
        .map(asRecord)
        .find((t) => t.id === tenantId);
    };
    const deleted = asRecord(await rest('tenantDelete', 'POST', '/api/tenant/delete', 200, { body: { id: tenantId } }));
    const problems: string[] = [];
    if (typeof deleted.deleted_at !== 'string') problems.push('tenantDelete answered deleted_at not set');
    if (await findIn(false)) problems.push('a deleted tenant is still in the paginated list');
    const hidden = await findIn(true);
    if (!hidden) problems.push('a deleted tenant is missing from the list with only_deleted');
    else if (typeof hidden.deleted_at !== 'string')
      problems.push('a deleted tenant lists deleted_at null with only_deleted');
    const listed = asArray((await http('GET', '/api/tenant/false')).json).map(asRecord);
    if (listed.some((t) => t.id === tenantId)) problems.push('a deleted tenant is still in GET /api/tenant/false');
    const restored = asRecord(
      await rest('tenantRestore', 'POST', '/api/tenant/restore', 200, { body: { id: tenantId } }),
    );
    if (restored.deleted_at !== null) problems.push('tenantRestore answered deleted_at not null');
    if (!(await findIn(false))) problems.push('a restored tenant is missing from the paginated list');
    if (await findIn(true)) problems.push('a restored tenant is still in the list with only_deleted');
    check('soft delete / restore', 'rest', 200, problems);
    // Leave the throwaway tenant deleted.
    await http('POST', '/api/tenant/delete', { body: { id: tenantId } });
  }

  // ----- the REST throwaway user goes last, then logout ---------------------------------------------------
  if (userId) await rest('userDelete', 'DELETE', `/api/users/${userId}`, 200);
  const session = await loginToken();
  if (session) {
    await rest('authLogout', 'POST', '/api/auth/logout', 200, { token: session, body: { data: { email }, ip: null } });
    await expect401('401 token after logout (REST)', 'GET', '/api/auth/userInfo', session, { status: 'Unauthorized' });
  } else {
    check('authLogout', 'rest', 0, ['could not sign in for a separate session']);
  }

  return finish();

  function finish(): Result[] {
    const seen = new Set(results.map((r) => r.operation));
    for (const id of REST_OPERATION_IDS)
      if (!seen.has(id)) check(id, 'rest', 0, ['not exercised by the conformance kit']);
    for (const op of GRAPHQL_OPERATIONS)
      if (!seen.has(op.name)) check(op.name, 'graphql', 0, ['not exercised by the conformance kit']);
    return results;
  }
}

/** A fixed-width table of results (one row per check, problems indented below). */
export function formatResults(results: Result[]): string {
  const rows = results.map((r) => [r.operation, r.kind, String(r.status), r.ok ? 'ok' : 'FAIL']);
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(['operation', 'kind', 'status', 'ok'][i]?.length ?? 0, ...rows.map((row) => row[i]?.length ?? 0)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [line(['operation', 'kind', 'status', 'ok']), line(widths.map((w) => '-'.repeat(w)))];
  results.forEach((r, i) => {
    out.push(line(rows[i] ?? []));
    for (const p of r.problems) out.push(`    - ${p}`);
  });
  const failed = results.filter((r) => !r.ok).length;
  out.push('', `${results.length} checks, ${failed} with problems`);
  return out.join('\n');
}
