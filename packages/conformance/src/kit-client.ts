import { createHmac } from 'node:crypto';
import {
  GRAPHQL_OPERATIONS,
  isExtension,
  listedStatuses,
  validateRestResponse,
  type GraphqlOperationFile,
} from './kit-contract.js';
import { validateGraphqlData } from './kit-graphql-data.js';

/** One check: a contract operation called once, or a promise of the contract checked over several calls. */
export interface Result {
  operation: string;
  kind: 'rest' | 'graphql' | 'auth' | 'socket';
  status: number;
  ok: boolean;
  problems: string[];
  /** The group of checks it belongs to (./kit.ts GROUPS; `--only`/`--skip` choose groups). */
  group?: string;
  /** Milliseconds since the previous check of the run ended (the calls it took). */
  durationMs?: number;
}

/** `base`: the operations not marked `x-extension` (contracts/openapi.yaml); `full`: every operation. */
export type Profile = 'base' | 'full';

export interface ConformanceOptions {
  baseUrl: string;
  email: string;
  password: string;
  /**
   * The tenant of the GraphQL path for the caller's own calls; by default the caller's own, as
   * `GET /api/auth/userInfo` names it (`user.tenantName`) once signed in.
   */
  tenant?: string;
  profile?: Profile;
  /** Per request, in milliseconds (default 15 000): a server that hangs fails the check, not the run. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
  /**
   * Aborted when the run is interrupted (the command's SIGINT or SIGTERM): from then on every request but
   * the cleanup's fails at once and those in flight are abandoned, so the run gets to its cleanup
   * (./kit-fixtures.ts) quickly and removes what it created.
   */
  interrupt?: AbortSignal;
}

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

export const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

/** A random, valid, masked CNPJ (check digits computed). */
export function randomCnpj(): string {
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
export function totpCode(secret: string, steps = 0): string {
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

/**
 * The most the kit reads of one answer: far above any answer of the contracts to the kit's own small
 * fixtures, and low enough that a server streaming without end cannot exhaust the memory of the CI
 * machine the kit runs on before the per-request timeout (the check fails instead).
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The body of an answer, up to `limit` bytes; beyond that the read stops and the request fails. */
async function readAnswer(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`the answer declares ${declared} bytes, more than the kit reads (${limit})`);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the answer is longer than the kit reads (${limit} bytes)`);
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
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
  /** A body sent as written, as `application/json` (malformed JSON); instead of `body`. */
  raw?: string;
  token?: string | null;
  accept?: string;
  /**
   * Called with the body of any 2xx answer, the expected status or not: a wrong server that created a
   * record with the wrong status still has it registered for the run's clean-up (./kit-fixtures.ts).
   */
  created?: (json: unknown) => void;
  /**
   * Other statuses that also pass, for answers that depend on the server's state beyond the run's
   * reach (a per-address limit earlier runs from this address used up); still validated as contract answers.
   */
  alsoAccept?: readonly number[];
}

export const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * One conformance run's connection to the server under test: raw HTTP, one REST or GraphQL operation
 * checked against the contracts, and the results so far. The token of the signed-in caller is
 * `session.token`; a call may pass its own (`token`, null for none).
 */
export function conformanceClient(options: ConformanceOptions) {
  const { email, password } = options;
  const doFetch = options.fetch ?? globalThis.fetch;
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const profile: Profile = options.profile ?? 'full';
  const timeoutMs = options.timeoutMs ?? 15_000;
  const recorded: Result[] = [];
  /** The group now running (./kit.ts), stamped on each result with the time since the previous one. */
  const position = { group: '', since: performance.now() };
  const results = {
    push(result: Result): void {
      const now = performance.now();
      recorded.push({ ...result, group: position.group, durationMs: Math.round(now - position.since) });
      position.since = now;
    },
  };
  /** The caller's token, and the tenant of the GraphQL path (./kit-rest-steps.ts `signIn` discovers it). */
  /** Whether the profile includes an operation (REST operationId or GraphQL operation): `base` has no extension. */
  const inProfile = (operation: string): boolean => profile === 'full' || !isExtension(operation);
  const session: { token: string | null; tenant: string } = { token: null, tenant: options.tenant ?? '' };

  async function http(method: string, path: string, opts: CallOptions = {}): Promise<HttpAnswer> {
    const url = new URL(`${baseUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: opts.accept ?? 'application/json' };
    const bearer = opts.token === undefined ? session.token : opts.token;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const interruptible = options.interrupt !== undefined && position.group !== 'cleanup';
    if (interruptible && options.interrupt?.aborted) throw new Error('the run was interrupted');
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = interruptible && options.interrupt ? AbortSignal.any([timeout, options.interrupt]) : timeout;
    let response: Response;
    let bytes: Uint8Array;
    try {
      // A redirect is the server's answer, not followed: following it would re-send the bearer token or
      // (a 307 or 308 of the sign-in) the administrador's password to wherever the server points.
      response = await doFetch(url, {
        method,
        headers,
        body: payload,
        signal,
        redirect: 'manual',
      });
      bytes = await readAnswer(response, MAX_ANSWER_BYTES);
    } catch (error) {
      if (interruptible && options.interrupt?.aborted) throw new Error('the run was interrupted', { cause: error });
      if (timeout.aborted) throw new Error(`no answer to ${method} ${path} within ${timeoutMs} ms`, { cause: error });
      // fetch says only "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND, a TLS error…).
      const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
      const why =
        typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
      throw why ? new Error(`${(error as Error).message}: ${why}`, { cause: error }) : error;
    }
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
    // Outside the profile (an extension in `base`): not called at all, and nothing recorded.
    if (!inProfile(operationId)) return undefined;
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
    if (answer.status !== expected && !(opts.alsoAccept ?? []).includes(answer.status))
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
    if (answer.status >= 200 && answer.status < 300) opts.created?.(answer.json);
    return answer.status === expected ? answer.json : undefined;
  }

  /** The CSV variant of a sheet: BOM, `;` header, CRLF, text/csv. */
  async function csv(operationId: string, path: string, query: CallOptions['query']): Promise<void> {
    if (!inProfile(operationId)) return;
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
  /**
   * Sends one operations file on the caller's tenant path, as the SPA does. Nothing (and no result) for an
   * operation outside the profile; a failed result under `label`, and nothing, for an unknown operation or
   * a request that failed.
   */
  async function sendOperation(
    name: string,
    variables: Record<string, unknown>,
    bearer: string | null | undefined,
    label: string,
  ): Promise<{ operation: GraphqlOperationFile; answer: HttpAnswer } | undefined> {
    if (!inProfile(name)) return undefined;
    const operation = graphqlByName.get(name);
    if (!operation) {
      check(label, 'graphql', 0, [`contracts/operations has no operation ${name}`]);
      return undefined;
    }
    try {
      const answer = await http('POST', `/${encodeURIComponent(session.tenant)}/graphql`, {
        token: bearer,
        body: { query: operation.source, operationName: name, variables },
        accept: 'application/graphql-response+json, application/json',
      });
      return { operation, answer };
    } catch (error) {
      check(label, 'graphql', 0, [`request failed: ${(error as Error).message}`]);
      return undefined;
    }
  }

  /** Runs one operations file; returns its `data` when it succeeded. */
  async function graphql(
    name: string,
    variables: Record<string, unknown>,
    bearer?: string | null,
  ): Promise<Record<string, unknown> | undefined> {
    const sent = await sendOperation(name, variables, bearer, name);
    if (!sent) return undefined;
    const { operation, answer } = sent;
    const problems: string[] = [];
    const body = asRecord(answer.json);
    if (answer.status !== 200) problems.push(`expected HTTP 200, got ${answer.status}: ${answer.text.slice(0, 300)}`);
    if (answer.json === undefined) problems.push('body is not JSON');
    if ('errors' in body) problems.push(`errors: ${JSON.stringify(body.errors).slice(0, 400)}`);
    if (!('data' in body) || body.data === null) problems.push('no data');
    else problems.push(...validateGraphqlData(operation, body.data));
    check(name, 'graphql', answer.status, problems);
    return problems.length === 0 ? asRecord(body.data) : undefined;
  }

  /**
   * Runs one operations file expecting the contract's refusal during execution: HTTP 200 (403 for
   * FORBIDDEN), `errors[0].extensions.code` (and `field` when given), and nothing in `data` for it.
   */
  async function graphqlRefused(
    name: string,
    variables: Record<string, unknown>,
    bearer: string | null | undefined,
    expected: { code: string; field?: string },
    label: string,
  ): Promise<void> {
    const sent = await sendOperation(name, variables, bearer, label);
    if (!sent) return;
    const { answer } = sent;
    const problems: string[] = [];
    const status = expected.code === 'FORBIDDEN' ? 403 : 200;
    if (answer.status !== status)
      problems.push(`expected HTTP ${status}, got ${answer.status}: ${answer.text.slice(0, 300)}`);
    const body = asRecord(answer.json);
    const first = asRecord(asArray(body.errors)[0]);
    const extensions = asRecord(first.extensions);
    if (extensions.code !== expected.code)
      problems.push(`expected error code ${expected.code}, got ${JSON.stringify(body.errors ?? null).slice(0, 300)}`);
    if (expected.field !== undefined && extensions.field !== expected.field)
      problems.push(`expected extensions.field ${expected.field}, got ${JSON.stringify(extensions.field ?? null)}`);
    if (typeof first.message !== 'string' || first.message === '') problems.push('the error has no message');
    const data = asRecord(body.data);
    if (data[name] !== undefined && data[name] !== null) problems.push(`data.${name} is set on a refusal`);
    check(label, 'graphql', answer.status, problems);
  }

  return {
    /** The server's address (no trailing slash) and the per-step timeout, for checks beyond HTTP (the socket). */
    baseUrl,
    timeoutMs,
    email,
    password,
    /** The tenant of the GraphQL path (`session.tenant`). */
    get tenant(): string {
      return session.tenant;
    },
    profile,
    inProfile,
    position,
    results: recorded,
    record: results,
    session,
    http,
    rest,
    csv,
    check,
    expect401,
    loginToken,
    graphql,
    graphqlRefused,
  };
}

export type ConformanceClient = ReturnType<typeof conformanceClient>;
