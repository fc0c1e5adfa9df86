import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import type { WebhookAttemptError } from '../db/schema';
import { guardedLookup, hostRefusal, type AddressRules } from './addresses';

/**
 * One attempt of one delivery (docs/webhooks.md, Retries and Addresses): a `POST` over a fresh connection
 * (no agent, so the host is resolved and checked at every attempt), never following a redirect. The
 * whole attempt, connection and answer, has `timeoutMs`; of the answer only the first
 * {@link EXCERPT_BYTES} bytes are read, then the connection is dropped.
 */

/** The bytes of an answer kept (`webhook_attempts.response_excerpt`, contracts/openapi.yaml `WebhookAttempt`). */
export const EXCERPT_BYTES = 1024;

export interface AttemptRequest {
  url: string;
  body: string;
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  rules: AddressRules;
  /** How host names are resolved (tests inject one); the system resolver by default. */
  resolve?: Parameters<typeof guardedLookup>[1];
}

export interface AttemptResult {
  statusCode: number | null;
  /** Null for a 2xx answer. */
  error: WebhookAttemptError | null;
  excerpt: string;
  durationMs: number;
  /** The answer's `Retry-After` in milliseconds from now (a 429's), or null when absent or unreadable. */
  retryAfterMs: number | null;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * The excerpt as text: UTF-8 with invalid sequences replaced, and no NUL (a PostgreSQL `text` holds none);
 * at most {@link EXCERPT_BYTES} bytes once written as UTF-8, as the answer's bytes read.
 */
export function excerptText(bytes: Buffer): string {
  const text = decoder.decode(bytes.subarray(0, EXCERPT_BYTES)).replaceAll('\u0000', '\uFFFD');
  if (Buffer.byteLength(text) <= EXCERPT_BYTES) return text;
  // A replacement character is three bytes for one or two read: cut at a character, within the bytes kept.
  let size = 0;
  let end = 0;
  for (const char of text) {
    size += Buffer.byteLength(char);
    if (size > EXCERPT_BYTES) break;
    end += char.length;
  }
  return text.slice(0, end);
}

/** `Retry-After` as milliseconds from `nowMs`: delta-seconds or an HTTP date; null when it is neither. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (!Number.isFinite(at) || !/[a-z]/i.test(text)) return null;
  return Math.max(0, at - nowMs);
}

/** The error an answer's status means, or null for a success. */
export function statusError(status: number): WebhookAttemptError | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 300 && status < 400) return 'redirect';
  if (status === 429) return 'too_many_requests';
  return 'http_status';
}

class AttemptTimeout extends Error {
  readonly code = 'WEBHOOK_TIMEOUT';
}

function errorKind(error: unknown): WebhookAttemptError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'WEBHOOK_ADDRESS_REFUSED') return 'address_refused';
  if (code === 'WEBHOOK_TIMEOUT') return 'timeout';
  // ECONNREFUSED, ECONNRESET, ENOTFOUND, EAI_AGAIN, TLS failures, a socket closed before an answer…
  return 'connection';
}

export async function sendAttempt(request: AttemptRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refused = (): AttemptResult => ({
    statusCode: null,
    error: 'address_refused',
    excerpt: '',
    durationMs: elapsed(),
    retryAfterMs: null,
  });
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return refused();
  }
  // `http:` only where loopback receivers are allowed (development and tests); never another scheme.
  const plain = url.protocol === 'http:';
  if (!(url.protocol === 'https:' || (plain && request.rules.allowLoopback))) return refused();
  // An IP literal never reaches the lookup: checked here.
  if (hostRefusal(url.hostname, request.rules) !== null) return refused();

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...result, durationMs: elapsed() });
    };
    const fail = (error: unknown) =>
      finish({ statusCode: null, error: errorKind(error), excerpt: '', retryAfterMs: null });
    const req = (plain ? http : https).request(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(request.rules, request.resolve),
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
    });
    const timer = setTimeout(() => req.destroy(new AttemptTimeout('timeout')), request.timeoutMs);
    req.on('error', fail);
    req.on('response', (res) => {
      const statusCode = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () =>
        finish({
          statusCode: statusCode >= 100 && statusCode <= 599 ? statusCode : null,
          error: statusCode >= 100 && statusCode <= 599 ? statusError(statusCode) : 'http_status',
          excerpt: excerptText(Buffer.concat(chunks)),
          retryAfterMs: statusCode === 429 ? retryAfterMs(res.headers['retry-after'], Date.now()) : null,
        });
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) done();
      });
      res.on('end', done);
      // The answer's status is known: a body cut short (reset, timeout) keeps it, with what arrived.
      res.on('error', done);
      res.on('close', done);
    });
    req.end(request.body);
  });
}
