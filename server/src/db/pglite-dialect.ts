import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * A Kysely dialect for PGlite that hands out its single connection to one user at a time.
 *
 * PGlite is one session. kysely-pglite's driver lets every caller use it at once, so a query sent
 * by request B while request A is inside `db.transaction()` would silently run inside A's
 * transaction (and be rolled back with it). Here a connection is a lease: queries and transactions
 * queue and run one after another, as they would on a one-connection pool.
 *
 * Consequence: inside `db.transaction().execute(trx => …)` use `trx`, never `db` — `db` would wait
 * for the lease the transaction holds, forever.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}

  createAdapter(): DialectAdapter {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PGliteDriver(this.client);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

const WRITE_NODES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const WRITE_SQL = /^\s*(insert|update|delete|merge)\b/i;

class PGliteConnection implements DatabaseConnection {
  constructor(
    private readonly client: PGlite,
    readonly release: () => void,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.client.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    const affected = result.affectedRows;
    const kind = compiledQuery.query.kind;
    // Report affected rows for writes only, as Kysely's PostgreSQL driver does (raw SQL included).
    const changes = WRITE_NODES.has(kind) || (kind === 'RawNode' && WRITE_SQL.test(compiledQuery.sql));
    return changes && affected !== undefined
      ? { rows: result.rows, numAffectedRows: BigInt(affected) }
      : { rows: result.rows };
  }

  // PGlite has no cursors over its one session without holding the lease for the whole read;
  // read large results in keyset pages instead (see `batches.ts`).
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming; read in keyset pages (server/src/db/batches.ts).');
  }
}

class PGliteDriver implements Driver {
  /** Resolves when the previous lease is released. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly client: PGlite) {}

  async init(): Promise<void> {
    await this.client.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => released);
    await previous;
    let done = false;
    return new PGliteConnection(this.client, () => {
      if (done) return;
      done = true;
      release();
    });
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const modes = [
      settings.isolationLevel ? `isolation level ${settings.isolationLevel}` : '',
      settings.accessMode ?? '',
    ].filter((mode) => mode !== '');
    await connection.executeQuery(
      CompiledQuery.raw(modes.length > 0 ? `start transaction ${modes.join(', ')}` : 'begin'),
    );
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${identifier(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to savepoint ${identifier(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release savepoint ${identifier(name)}`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof PGliteConnection) connection.release();
  }

  async destroy(): Promise<void> {
    // Let queued work finish before closing the engine under it.
    await this.tail;
    if (!this.client.closed) await this.client.close();
  }
}

function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
