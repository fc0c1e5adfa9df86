import { isIP } from 'node:net';
import { parseFaultRules, type FaultRule } from './fault-rules';
import { parseTotpEncryptionKey } from './totp-key';

/**
 * Settings from the environment, read once at start. Defaults run the product from a fresh clone.
 */
export interface ServerConfig {
  host: string;
  port: number;
  databaseUrl: string | undefined;
  /**
   * DATABASE_LISTEN_URL: where the event relay LISTENs (server/src/plugins/event-relay.ts) when DATABASE_URL
   * goes through a transaction pooler, which cannot hold a LISTEN: a session connection to the same
   * database and schema (docs/operations.md). Unset: DATABASE_URL's settings.
   */
  databaseListenUrl: string | undefined;
  /** Access-token lifetime in seconds (ACCESS_TOKEN_TTL, default 900). */
  accessTokenTtl: number;
  /** Seconds after a session starts during which an expired token may still be refreshed (REFRESH_WINDOW, default 14 days). */
  refreshWindow: number;
  /**
   * Seconds a session may refresh when its sign-in did not ask to be remembered (REFRESH_WINDOW_SHORT,
   * default 12 hours; REST login `remember`, GraphQL `logIn(remember)`); capped by `refreshWindow`.
   */
  refreshWindowShort: number;
  /**
   * Seconds a secret handed out at sign-in to a user required to enrol may be confirmed
   * (TWO_FACTOR_ENROLMENT_TTL, default 600); after them the sign-in answers two_factor_enrolment_expired.
   */
  twoFactorEnrolmentTtl: number;
  /** Seconds a rotated-out token keeps working, so parallel requests in flight during a refresh do not fail. */
  rotationGrace: number;
  /** HMAC key for JWTs; when unset, one is generated and kept in the database so every process shares it. */
  jwtSecret: string | undefined;
  /**
   * TOTP_ENCRYPTION_KEY: the AES-256-GCM key the two-factor secrets are stored under
   * (server/src/auth/totp-secrets.ts), 32 bytes as base64/base64url or 64 hex characters; a malformed
   * value stops the start. When unset, one is generated and kept in the database so every process
   * shares it (a database dump then holds both the key and the secrets: set it in production).
   */
  totpEncryptionKey: string | undefined;
  seedDemo: boolean;
  /**
   * DEMO_ACTIVITY: tell the demo chat, customer and campaign events (server/src/demo-activity/);
   * on by default with the embedded database and its demo seed, off otherwise.
   */
  demoActivity: boolean;
  /** DEMO_ACTIVITY_INTERVAL_MS: one demo event per watched tenant this often (default 3000, at least 100). */
  demoActivityIntervalMs: number;
  backofficeTenant: string;
  production: boolean;
  /** Where the built SPA lives. */
  webRoot: string;
  allowedOrigins: string[];
  /**
   * Failed logins per account and address within the window before 429 (LOGIN_MAX_FAILURES, default 10).
   * An address is counted by its key (server/src/auth/attempts.ts `addressKey`): an IPv6 address by its /64.
   */
  loginMaxFailures: number;
  /** Failed logins from one address across every account within the window before 429 (LOGIN_MAX_FAILURES_PER_ADDRESS, default 5 × LOGIN_MAX_FAILURES). */
  loginMaxFailuresPerAddress: number;
  /**
   * Failed logins of one account across every address within the window before it backs off
   * (LOGIN_MAX_FAILURES_PER_ACCOUNT, default 2 × LOGIN_MAX_FAILURES): from then on each attempt waits
   * `loginBackoffSeconds` after the last failure, doubled per further failure, at most the window.
   */
  loginMaxFailuresPerAccount: number;
  /** LOGIN_BACKOFF_SECONDS: the first wait past `loginMaxFailuresPerAccount` (default 1). */
  loginBackoffSeconds: number;
  /**
   * TRUST_PROXY: the proxies in front whose X-Forwarded-For/-Proto/-Host are believed, so `request.ip`
   * is the client's: a hop count (`1`), or addresses and CIDRs (`10.0.0.0/8,127.0.0.1`; also `loopback`,
   * `linklocal`, `uniquelocal`). Unset: none (docs/operations.md).
   */
  trustProxy: number | string[] | false;
  /** METRICS_TOKEN: the bearer token `GET /metrics` asks of every caller (server/src/plugins/metrics.ts). */
  metricsToken: string | undefined;
  /**
   * METRICS_OPEN: `GET /metrics` answers without the token. `1` outside production; with
   * NODE_ENV=production the start is refused unless the value is `production` (docs/operations.md, Metrics).
   */
  metricsOpen: boolean;
  loginWindowSeconds: number;
  /** Interval of the socket liveness ping (contracts/socket.md §5); a socket silent for one interval is dropped. */
  socketLivenessMs: number;
  /** The SPA's socket address (contracts/socket.md §1.1 `SOCKET_URL`); default `/ws` on this host. */
  socketUrl: string;
  /** SOCKET_TICKET_TTL: seconds a socket ticket may wait to be used (contracts/socket.md §1.1; default 30). */
  socketTicketTtl: number;
  /** The public-IP service the SPA calls at login/logout (docs/product.md, Sessions); empty turns the lookup off. */
  ipLookupUrl: string;
  /**
   * AUDIT_RETENTION_DAYS: audit records older than this many days are deleted by the daily purge
   * (server/src/audit/retention.ts; default 365, a whole number of at least 1).
   */
  auditRetentionDays: number;
  /**
   * LOGIN_ATTEMPTS_RETENTION_DAYS: sign-in attempts older than this many days are deleted by the same
   * daily purge (server/src/audit/retention-purges.ts; default 90, at least 1), never before
   * LOGIN_WINDOW_SECONDS has passed, which the throttle counts in.
   */
  loginAttemptsRetentionDays: number;
  /**
   * TENANT_COUNT_BOUND: the tenants list counts matches up to this many and then answers "more than" it
   * (docs/lists.md, Counts; default 1000, at least 1). Tests set a small one to reach it with few tenants.
   */
  tenantCountBound: number;
  /** Campaign-status webhooks (docs/webhooks.md; docs/operations.md, Webhooks). */
  webhooks: WebhookSettings;
  /**
   * SMTP_URL: where mail goes (nodemailer's `smtp://user:pass@host:587` / `smtps://…`; server/src/mail/).
   * Unset: in development a local receiver on 127.0.0.1 takes the messages (listed at `/dev/mailbox`); in
   * production no mail can be sent and reset links are disabled (docs/support-desk.md).
   */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender of the server's e-mails (default `Back-office <no-reply@localhost>`). */
  mailFrom: string;
  /**
   * PUBLIC_URL: the panel's address as users reach it, with no trailing slash, for links in e-mails
   * (`${PUBLIC_URL}/<tenant>/reset-password#token=…`). Default `http://HOST:PORT`.
   */
  publicUrl: string;
  /**
   * PASSWORD_RESET_SECRET: the HMAC key of reset-link tokens (server/src/auth/password-reset.ts). Unset:
   * derived from the JWT signing key (JWT_SECRET or the one kept in the database).
   */
  passwordResetSecret: string | undefined;
  /** FAULT_INJECTION=1: the test-only fault facility (plugins/faults.ts). Refused in production. */
  faultInjection: boolean;
  /** FAULTS: rules (JSON array) active from the start when fault injection is on. */
  faults: FaultRule[];
}

function int(name: string, fallback: number, min = 0): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return value;
}

function bool(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

/** TOTP_ENCRYPTION_KEY as given, after checking it parses: a malformed key refuses the start. */
function totpEncryptionKey(): string | undefined {
  const raw = process.env.TOTP_ENCRYPTION_KEY;
  if (raw === undefined || raw === '') return undefined;
  parseTotpEncryptionKey(raw);
  return raw;
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * METRICS_OPEN: off unless set. In production only the deliberate `production` opens the metrics: a
 * development `1` copied into a production environment refuses the start instead of exposing them.
 */
export function metricsOpen(raw: string | undefined, production: boolean): boolean {
  const value = raw?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(value)) return false;
  if (value === 'production') return true;
  if (!['1', 'true', 'yes', 'on'].includes(value))
    throw new Error(`METRICS_OPEN must be 1 (or production, see docs/operations.md), got "${raw ?? ''}"`);
  if (production) {
    throw new Error(
      'METRICS_OPEN=1 is refused with NODE_ENV=production: /metrics would answer anyone who reaches the port; ' +
        'set METRICS_TOKEN, or METRICS_OPEN=production when only the scraper can reach it',
    );
  }
  return true;
}

/** TRUST_PROXY as Fastify's `trustProxy` takes it; anything else refuses the start. */
export function trustProxy(raw: string | undefined): number | string[] | false {
  const value = raw?.trim() ?? '';
  if (value === '' || value === '0' || value.toLowerCase() === 'false') return false;
  if (/^[0-9]+$/.test(value)) return Number(value);
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 4 ? 32 : 128;
    const bitsOk = bits === undefined || (/^[0-9]{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (!PROXY_NAMES.has(entry) && (family === 0 || !bitsOk || extra !== undefined)) {
      throw new Error(
        `TRUST_PROXY must be a hop count or a list of addresses/CIDRs (or loopback, linklocal, uniquelocal), got "${entry}"`,
      );
    }
  }
  return entries;
}

/** SMTP_URL after checking it is an smtp: or smtps: URL: anything else refuses the start. */
export function smtpUrl(raw: string | undefined): string | undefined {
  const value = raw?.trim() ?? '';
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw new Error(`SMTP_URL must be an smtp:// or smtps:// URL, got the scheme "${url.protocol}"`);
  return value;
}

/** PUBLIC_URL without its trailing slashes, an http(s) URL; unset: the server's own address. */
export function publicUrl(raw: string | undefined, host: string, port: number): string {
  const value = (raw?.trim() ?? '').replace(/\/+$/, '');
  if (value === '') return `http://${isIP(host) === 6 ? `[${host}]` : host}:${String(port)}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an http:// or https:// URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`PUBLIC_URL must be an http:// or https:// URL, got "${value}"`);
  return value;
}

export function loadConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const embedded = !databaseUrl || databaseUrl.startsWith('pglite:');
  const production = overrides.production ?? process.env.NODE_ENV === 'production';
  const faultInjection = overrides.faultInjection ?? bool('FAULT_INJECTION', false);
  const loginMaxFailures = overrides.loginMaxFailures ?? int('LOGIN_MAX_FAILURES', 10, 1);
  if (faultInjection && production) {
    // Never a way to make a production server fail on request: refuse to start instead.
    throw new Error('FAULT_INJECTION=1 is refused with NODE_ENV=production: fault injection is for tests only');
  }
  const host = process.env.HOST || '127.0.0.1';
  const port = int('PORT', 8080);
  return {
    host,
    port,
    smtpUrl: smtpUrl(process.env.SMTP_URL),
    mailFrom: process.env.MAIL_FROM || 'Back-office <no-reply@localhost>',
    publicUrl: publicUrl(process.env.PUBLIC_URL, host, port),
    passwordResetSecret: process.env.PASSWORD_RESET_SECRET || undefined,
    databaseUrl,
    databaseListenUrl: process.env.DATABASE_LISTEN_URL || undefined,
    accessTokenTtl: int('ACCESS_TOKEN_TTL', 900, 1),
    refreshWindow: int('REFRESH_WINDOW', 14 * 24 * 3600, 1),
    refreshWindowShort: int('REFRESH_WINDOW_SHORT', 12 * 3600, 1),
    twoFactorEnrolmentTtl: int('TWO_FACTOR_ENROLMENT_TTL', 600, 1),
    rotationGrace: int('ROTATION_GRACE', 10),
    jwtSecret: process.env.JWT_SECRET || undefined,
    totpEncryptionKey: totpEncryptionKey(),
    seedDemo: bool('SEED_DEMO', embedded),
    demoActivity: bool('DEMO_ACTIVITY', embedded && bool('SEED_DEMO', embedded)),
    demoActivityIntervalMs: int('DEMO_ACTIVITY_INTERVAL_MS', 3000, 100),
    backofficeTenant: process.env.BACKOFFICE_TENANT || 'backoffice',
    production,
    webRoot: process.env.WEB_ROOT || 'dist/web',
    allowedOrigins: (process.env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    loginMaxFailures,
    // Five accounts' worth of failures from one address unless set.
    loginMaxFailuresPerAddress: int('LOGIN_MAX_FAILURES_PER_ADDRESS', 5 * loginMaxFailures, 1),
    // Two addresses' worth of failures on one account unless set: past it, waits grow instead of a lock-out.
    loginMaxFailuresPerAccount: int('LOGIN_MAX_FAILURES_PER_ACCOUNT', 2 * loginMaxFailures, 1),
    loginBackoffSeconds: int('LOGIN_BACKOFF_SECONDS', 1, 1),
    trustProxy: trustProxy(process.env.TRUST_PROXY),
    metricsToken: process.env.METRICS_TOKEN || undefined,
    metricsOpen: overrides.metricsOpen ?? metricsOpen(process.env.METRICS_OPEN, production),
    loginWindowSeconds: int('LOGIN_WINDOW_SECONDS', 15 * 60, 1),
    socketLivenessMs: int('SOCKET_LIVENESS_MS', 30_000, 100),
    socketUrl: process.env.SOCKET_URL || '/ws',
    socketTicketTtl: int('SOCKET_TICKET_TTL', 30, 1),
    ipLookupUrl: process.env.IP_LOOKUP_URL ?? 'https://api.ipify.org?format=json',
    auditRetentionDays: int('AUDIT_RETENTION_DAYS', 365, 1),
    loginAttemptsRetentionDays: int('LOGIN_ATTEMPTS_RETENTION_DAYS', 90, 1),
    tenantCountBound: int('TENANT_COUNT_BOUND', 1000, 1),
    webhooks: webhookSettings(production),
    faultInjection,
    faults: faultInjection ? parseFaultRules(process.env.FAULTS) : [],
    ...overrides,
  };
}

/** The webhook settings (docs/webhooks.md; docs/operations.md, Webhooks). */
export interface WebhookSettings {
  /** WEBHOOK_WORKER: this process sends deliveries (default on; several processes may). */
  worker: boolean;
  /** WEBHOOK_TIMEOUT_MS: an attempt without a complete answer by then fails as `timeout` (default 10,000). */
  timeoutMs: number;
  /** WEBHOOK_MAX_ATTEMPTS: attempts of a delivery before it fails for good (default 8). */
  maxAttempts: number;
  /** WEBHOOK_RETRY_BASE_MS: the first retry's ceiling, doubled per attempt, with full jitter (default 30,000). */
  retryBaseMs: number;
  /** WEBHOOK_RETRY_MAX_MS: no retry waits longer, `Retry-After` included (default 1 hour). */
  retryMaxMs: number;
  /** WEBHOOK_CONCURRENCY: deliveries one process sends at once (default 4). */
  concurrency: number;
  /** WEBHOOK_POLL_MS: how often an idle worker looks for due deliveries (default 1,000). */
  pollMs: number;
  /** WEBHOOK_SECRET_GRACE_HOURS: how long a rotated-out secret still signs (default 24). */
  secretGraceHours: number;
  /**
   * WEBHOOK_ALLOW_LOOPBACK: development and tests only, refused with NODE_ENV=production: endpoints may be
   * `http` and on a loopback address (127.0.0.0/8, ::1, `localhost`). Private and other non-public
   * addresses stay refused.
   */
  allowLoopback: boolean;
}

function webhookSettings(production: boolean): WebhookSettings {
  const allowLoopback = bool('WEBHOOK_ALLOW_LOOPBACK', false);
  if (allowLoopback && production)
    throw new Error(
      'WEBHOOK_ALLOW_LOOPBACK=1 is refused with NODE_ENV=production: it is for development and tests only',
    );
  return {
    worker: bool('WEBHOOK_WORKER', true),
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 1),
    maxAttempts: int('WEBHOOK_MAX_ATTEMPTS', 8, 1),
    retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 30_000, 1),
    retryMaxMs: int('WEBHOOK_RETRY_MAX_MS', 3_600_000, 1),
    concurrency: int('WEBHOOK_CONCURRENCY', 4, 1),
    pollMs: int('WEBHOOK_POLL_MS', 1_000, 10),
    secretGraceHours: int('WEBHOOK_SECRET_GRACE_HOURS', 24, 0),
    allowLoopback,
  };
}
