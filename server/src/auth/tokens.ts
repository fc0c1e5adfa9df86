import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { SessionClaims } from '../access/caller';
import type { AuditOrigin, AuditTrail } from '../audit/trail';
import type { ServerConfig } from '../base/config';
import type { Database } from '../db/schema';
import type { UnauthorizedBody } from '../base/errors';
import { noTelemetry, type Telemetry } from '../base/telemetry';
import { isBroken } from '../base/broken-promises';

/**
 * Access tokens are HS256 JWTs that double as refresh tokens (docs/security.md, section 1): an expired token may be
 * exchanged through GraphQL `refreshToken` while its session's refresh window lasts. Every token
 * belongs to a family (one sign-in); rotation is a compare-and-swap on the family's current jti, the
 * predecessor keeps working for a short grace window (refreshing it again answers the family's current
 * token), and using it after that revokes the family.
 */

/** The claims of a session token (server/src/access/caller.ts). */
export type TokenClaims = SessionClaims;

export type VerifyResult =
  { ok: true; claims: TokenClaims; userId: number; expired: boolean } | { ok: false; body: UnauthorizedBody };

/** Told after a revocation is stored, so live connections (sockets) of the revoked tokens close at once. */
export interface RevocationListener {
  onUserRevoked?(userId: number): void;
  onFamilyRevoked?(familyId: string): void;
  /** A tenant was deleted or renamed: the sockets watching it close (contracts/socket.md §5.1). */
  onTenantClosed?(tenantId: number, reason: TenantClosedReason): void;
  /** A user's access changed (its role): its sockets close, and reconnect to read the new role. */
  onAccessChanged?(userId: number): void;
}

/** Why a tenant's sockets close: deleted (for good) or renamed (they reconnect). */
export type TenantClosedReason = 'deleted' | 'renamed';

/**
 * A revocation told to every process (server/src/plugins/event-relay.ts, `panel_revocations`): every
 * token of a user, one token family (one sign-in), a tenant's sockets (deleted or renamed), or the
 * sockets of a user whose access changed. The last two store nothing here: the change itself (the
 * tenant's row, the user's role) is what a socket reads when it reconnects or is re-checked.
 */
export type Revocation =
  | { userId: number }
  | { familyId: string }
  | { tenantId: number; reason: TenantClosedReason }
  | { userId: number; reason: 'access-changed' };

/** Carries this process's revocations to the other server processes on the same database. */
export interface RevocationRelay {
  send(revocation: Revocation): void;
}

const ISSUER = 'backoffice-panel';
const encoder = new TextEncoder();

/** Marks a token family revoked, if it was not yet; true when this call revoked it. */
async function revokeFamilyRow(db: Kysely<Database>, familyId: string): Promise<boolean> {
  const revoked = await db
    .updateTable('token_families')
    .set({ revoked_at: sql<Date>`now()` })
    .where('id', '=', familyId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return revoked !== undefined;
}

/**
 * Whether the session of these claims is past its refresh window: over, whatever its token's own life.
 * Such a session rotates into no new token (TokenService.rotate), so it can start nothing that needs one.
 */
export function refreshWindowOver(claims: Pick<TokenClaims, 'rxp'>, now = Math.floor(Date.now() / 1000)): boolean {
  return claims.rxp <= now;
}

export class TokenService {
  private key: Uint8Array | undefined;
  private readonly listeners = new Set<RevocationListener>();
  private relay: RevocationRelay | undefined;
  private audit: AuditTrail | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly config: ServerConfig,
    private readonly telemetry: Pick<Telemetry, 'reuseDetected'> = noTelemetry,
  ) {}

  /** The signing key: JWT_SECRET, else one kept in the database so every process shares it. */
  async init(): Promise<void> {
    if (this.config.jwtSecret) {
      this.key = encoder.encode(this.config.jwtSecret);
      return;
    }
    const candidate = randomBytes(48).toString('base64url');
    await this.db
      .insertInto('server_secrets')
      .values({ name: 'jwt', value: candidate })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('server_secrets')
      .select('value')
      .where('name', '=', 'jwt')
      .executeTakeFirstOrThrow();
    this.key = encoder.encode(row.value);
  }

  /**
   * A key for another purpose derived from the signing key (HMAC-SHA256 of `label` under it), so a
   * server without its own setting for that purpose still has a key every process shares, and the
   * signing key itself signs nothing else (server/src/auth/password-reset.ts).
   */
  derivedKey(label: string): Buffer {
    return createHmac('sha256', this.secret).update(label).digest();
  }

  private get secret(): Uint8Array {
    if (!this.key) throw new Error('TokenService.init() was not awaited');
    return this.key;
  }

  private async sign(claims: Omit<TokenClaims, 'iat' | 'exp'>, now: number): Promise<string> {
    return new SignJWT({ fam: claims.fam, tv: claims.tv, rxp: claims.rxp })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setJti(claims.jti)
      .setIssuer(ISSUER)
      .setIssuedAt(now)
      .setExpirationTime(now + this.config.accessTokenTtl)
      .sign(this.secret);
  }

  /**
   * Starts a session (a new family) for a user. `refreshWindow` (seconds) is how long it may refresh:
   * by default the long window (`REFRESH_WINDOW`); a sign-in not remembered passes the short one.
   */
  async issue(
    userId: number,
    tokenVersion: number,
    refreshWindow: number = this.config.refreshWindow,
    /** What the sign-in said, kept with the session for the support desk (docs/support-desk.md). */
    signIn: { userAgent: string | null; address: string | null; remember: boolean } = {
      userAgent: null,
      address: null,
      remember: false,
    },
  ): Promise<{ token: string; expiresIn: number }> {
    const now = Math.floor(Date.now() / 1000);
    const fam = randomUUID();
    const jti = randomUUID();
    await this.db
      .insertInto('token_families')
      .values({
        id: fam,
        user_id: userId,
        current_jti: jti,
        previous_jti: null,
        previous_valid_until: null,
        revoked_at: null,
        // A user agent is the client's to say: kept to a length a label needs, never trusted.
        user_agent: signIn.userAgent === null ? null : signIn.userAgent.slice(0, 512),
        address: signIn.address,
        remember: signIn.remember,
        refresh_until: new Date((now + refreshWindow) * 1000),
      })
      .execute();
    const token = await this.sign({ sub: String(userId), fam, jti, tv: tokenVersion, rxp: now + refreshWindow }, now);
    return { token, expiresIn: this.config.accessTokenTtl };
  }

  /**
   * Checks signature and claims, then the database state (family alive, jti current or within grace,
   * user's token_version unchanged, user not blocked or deleted). `allowRefreshable` lets the refresh
   * call through with an expired token that is still inside its refresh window.
   */
  async verify(
    token: string | undefined,
    options: { allowRefreshable?: boolean; origin?: AuditOrigin } = {},
  ): Promise<VerifyResult> {
    if (!token) return { ok: false, body: { status: 'Authorization Token not found' } };
    let claims: TokenClaims;
    let expired = false;
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: new Date(0),
      });
      claims = payload as unknown as TokenClaims;
    } catch {
      if (isBroken('unauthorized-wrong-text'))
        return { ok: false, body: { status: 'Invalid token' as 'Token is Invalid' } };
      return { ok: false, body: { status: 'Token is Invalid' } };
    }
    if (!isClaims(claims)) return { ok: false, body: { status: 'Token is Invalid' } };
    const now = Math.floor(Date.now() / 1000);
    if (claims.exp <= now) {
      if (refreshWindowOver(claims, now)) return { ok: false, body: { status: 'Token is Expired' } };
      expired = true;
    }
    const userId = Number(claims.sub);
    const state = await this.db
      .selectFrom('token_families as f')
      .innerJoin('users as u', 'u.id', 'f.user_id')
      .innerJoin('tenants as t', 't.id', 'u.tenant_id')
      .select([
        't.deleted_at as tenant_deleted_at',
        'f.current_jti',
        'f.previous_jti',
        'f.previous_valid_until',
        'f.revoked_at',
        'u.token_version',
        'u.blocked',
        'u.deleted_at',
      ])
      .where('f.id', '=', claims.fam)
      .where('f.user_id', '=', userId)
      .executeTakeFirst();
    // A deleted tenant is closed: its users' tokens stop at once, whatever revoked them or not (docs/security.md).
    if (
      !state ||
      state.revoked_at ||
      state.blocked ||
      state.deleted_at ||
      state.tenant_deleted_at ||
      state.token_version !== claims.tv
    ) {
      return { ok: false, body: { status: 'Unauthorized' } };
    }
    const current = state.current_jti === claims.jti;
    const inGrace =
      state.previous_jti === claims.jti &&
      state.previous_valid_until !== null &&
      state.previous_valid_until.getTime() > Date.now();
    if (!current && !inGrace) {
      // A superseded token used after its grace window: someone holds a stolen copy. Kill the family.
      if (!isBroken('no-reuse-detection')) {
        await this.revokeReused(claims.fam, userId, options.origin ?? { requestId: null, address: null });
        this.telemetry.reuseDetected();
      }
      return { ok: false, body: { status: 'Unauthorized' } };
    }
    if (expired && !options.allowRefreshable) return { ok: false, body: { error: 'Token has expired' } };
    return { ok: true, claims, userId, expired };
  }

  /**
   * Rotates a verified token: atomic compare-and-swap on the family's current jti, so of concurrent
   * refreshes of one token exactly one moves the family. A refresh that finds its token already
   * superseded, by exactly one rotation and within the grace window, gets a token of the family's
   * current jti instead (the family does not move again): the first answer may have been lost to a
   * reload or a closed tab, and a second tab may have raced the first. Any other loser gets null.
   */
  async rotate(claims: TokenClaims): Promise<{ token: string; expiresIn: number } | null> {
    const now = Math.floor(Date.now() / 1000);
    // The refresh window ends the session whatever its tokens: a token still alive at its end cannot
    // rotate into a new one (refreshing every few minutes must not keep a session alive for ever).
    if (refreshWindowOver(claims, now)) return null;
    if (isBroken('refresh-token-reusable')) return this.answer(claims, claims.jti, now);
    const jti = randomUUID();
    const graceUntil = new Date(Date.now() + this.config.rotationGrace * 1000);
    const swapped = await this.db
      .updateTable('token_families')
      .set({
        previous_jti: claims.jti,
        previous_valid_until: graceUntil,
        current_jti: jti,
        refreshed_at: sql<Date>`now()`,
      })
      .where('id', '=', claims.fam)
      .where('current_jti', '=', claims.jti)
      .where('revoked_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (swapped) return this.answer(claims, jti, now);
    const family = await this.db
      .selectFrom('token_families')
      .select(['current_jti', 'previous_jti', 'previous_valid_until', 'revoked_at'])
      .where('id', '=', claims.fam)
      .where('user_id', '=', Number(claims.sub))
      .executeTakeFirst();
    const inGrace = family?.previous_valid_until ? family.previous_valid_until.getTime() > Date.now() : false;
    if (!family || family.revoked_at !== null || family.previous_jti !== claims.jti || !inGrace) return null;
    return this.answer(claims, family.current_jti, now);
  }

  /** A token of the claims' session (same user, family, token_version and refresh window) with this jti. */
  private async answer(claims: TokenClaims, jti: string, now: number): Promise<{ token: string; expiresIn: number }> {
    const token = await this.sign({ sub: claims.sub, fam: claims.fam, jti, tv: claims.tv, rxp: claims.rxp }, now);
    return { token, expiresIn: this.config.accessTokenTtl };
  }

  /** Subscribes to revocations (the socket server closes the revoked sockets); returns the unsubscribe. */
  onRevoked(listener: RevocationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The audit trail a detected reuse is recorded in (`session.refresh-reuse`, with the revocation of
   * its family); installed by the auth service (server/src/auth/service.ts).
   */
  setAudit(audit: AuditTrail): void {
    this.audit = audit;
  }

  /** Installs (or with `undefined` removes) the cross-process relay of revocations. */
  setRelay(relay: RevocationRelay | undefined): void {
    this.relay = relay;
  }

  /**
   * Tells this process's listeners about a revocation stored by another process (through the relay),
   * so its sockets of the revoked tokens close too. Local only: never relayed again.
   */
  deliverRevocation(revocation: Revocation): void {
    for (const listener of this.listeners) {
      if ('tenantId' in revocation) listener.onTenantClosed?.(revocation.tenantId, revocation.reason);
      else if ('reason' in revocation) listener.onAccessChanged?.(revocation.userId);
      else if ('userId' in revocation) listener.onUserRevoked?.(revocation.userId);
      else listener.onFamilyRevoked?.(revocation.familyId);
    }
  }

  /** After a revocation is stored: local listeners at once, other processes through the relay. */
  private announce(revocation: Revocation): void {
    this.relay?.send(revocation);
    this.deliverRevocation(revocation);
  }

  /**
   * Revokes a family whose superseded token came back, and records the detection (`session.refresh-reuse`;
   * the actor is the family's user) in the same transaction: once, by whichever request revoked it.
   */
  private async revokeReused(familyId: string, userId: number, origin: AuditOrigin): Promise<void> {
    const audit = this.audit;
    if (!audit) {
      await this.revokeFamily(familyId);
      return;
    }
    const owner = await this.db
      .selectFrom('users')
      .select(['name', 'tenant_id'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    await audit.transaction({ actor: { userId, tenantId: owner.tenant_id }, origin }, async (trx, record) => {
      if (await revokeFamilyRow(trx, familyId))
        await record({
          operation: 'session.refresh-reuse',
          target: { id: userId, name: owner.name },
          tenantId: owner.tenant_id,
          changes: [{ field: 'session', before: null, after: JSON.stringify('revoked') }],
        });
    });
    this.announce({ familyId });
  }

  /**
   * Every session of the user but `keep` (the one making the change) ends: after its own new password,
   * e-mail or two-factor (docs/security.md, Credentials and sessions). The kept session goes on, its
   * refresh window unchanged; the others' sockets close on every process.
   */
  async revokeOtherFamilies(userId: number, keep: string): Promise<void> {
    const revoked = await this.db
      .updateTable('token_families')
      .set({ revoked_at: sql<Date>`now()` })
      .where('user_id', '=', userId)
      .where('id', '!=', keep)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    for (const family of revoked) this.announce({ familyId: family.id });
  }

  async revokeFamily(familyId: string): Promise<void> {
    await revokeFamilyRow(this.db, familyId);
    this.announce({ familyId });
  }

  /**
   * A deleted tenant: every token of every user of the tenant dies at once, in one statement each
   * whatever the number of users. Their sockets are the tenant's, which {@link tenantClosed} closes on
   * every process with one notification (a tenant's users connect under their own tenant only).
   */
  async revokeTenant(tenantId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // The users locked by id first, the order every transaction holding several of them takes (a batch's
      // undo, server/src/undo/service.ts): the update alone locks them in the table's order, and deadlocked
      // with an undo of a bulk run over them (the deletion answered 500; server/src/security/lists-attack-3.test.ts).
      await trx
        .selectFrom('users')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .orderBy('id')
        .forNoKeyUpdate()
        .execute();
      await trx
        .updateTable('users')
        .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
        .where('tenant_id', '=', tenantId)
        .execute();
      await trx
        .updateTable('token_families')
        .set({ revoked_at: sql<Date>`now()` })
        .where('revoked_at', 'is', null)
        .where(sql<boolean>`user_id in (select id from users where tenant_id = ${tenantId})`)
        .execute();
    });
  }

  /** Logout everywhere, block, delete, disconnect: every token of the user dies at once. */
  async revokeUser(userId: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
        .where('id', '=', userId)
        .execute();
      await trx
        .updateTable('token_families')
        .set({ revoked_at: sql<Date>`now()` })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
    });
    this.announce({ userId });
  }

  /**
   * A tenant was deleted or renamed (call after the change committed): on every process, the sockets
   * watching it close — for good when deleted (4403), to reconnect under its new name when renamed
   * (4000, contracts/socket.md §5.1). Its users' sessions are not touched here.
   */
  tenantClosed(tenantId: number, reason: TenantClosedReason): void {
    this.announce({ tenantId, reason });
  }

  /**
   * A user's access changed — its role (call after the change committed): on every process its sockets
   * close with 4000 and reconnect at once, reading the new role (contracts/socket.md §5.1). Its
   * sessions go on.
   */
  accessChanged(userId: number): void {
    this.announce({ userId, reason: 'access-changed' });
  }
}

function isClaims(value: unknown): value is TokenClaims {
  const c = value as Partial<TokenClaims> | null;
  return (
    !!c &&
    typeof c.sub === 'string' &&
    /^[1-9]\d{0,9}$/.test(c.sub) &&
    typeof c.fam === 'string' &&
    typeof c.jti === 'string' &&
    typeof c.tv === 'number' &&
    typeof c.rxp === 'number' &&
    typeof c.exp === 'number' &&
    typeof c.iat === 'number'
  );
}
