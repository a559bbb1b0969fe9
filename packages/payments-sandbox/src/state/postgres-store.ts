import pg from 'pg';
import { rules } from '@paykit/payments/rules';
import { crashPoint } from './crash-points.js';
import type { SandboxState } from './state.js';
import { StateStoreError, type StateStore } from './store.js';
import { ChangeTracker, resetTrackedState, trackedState, TrackedMap, type ChangeBatch, type CollectionName } from './tracking.js';

/**
 * `--state postgres://…`: the state on a PostgreSQL server, shared by every sandbox process pointed at the same
 * database (a team's long-lived sandbox, parallel CI jobs behind one address).
 *
 * Each process keeps the whole state in memory, as with a file, and catches up on what the others wrote: every
 * write stamps its rows with the next number of a change counter, and a process reads the rows stamped after the
 * last number it saw (before each read, and under the lock before each write). Removed records stay as rows without
 * a value, so that the others see the removal.
 *
 * A write request runs inside one transaction holding `pg_advisory_xact_lock`: taken before the request's handler
 * reads the state (after catching up), released by the COMMIT of its change. So two processes never work on the
 * same state at once (no receipt number handed out twice, no change lost to a concurrent one), and an answer is
 * sent only after the COMMIT returned (with `synchronous_commit = on`: the server flushed its write-ahead log).
 * Writes are one at a time across all processes, which a sandbox can afford.
 *
 * Idempotency records are rows too; the database refuses a second record under a key while the first is within its
 * lifetime, as the SQLite store does.
 */

const storeFormat = 'paykit-payments-sandbox-store';
/** Version of the tables below; a database written by another version is refused, not guessed at. */
const schemaVersion = '1';

const schema = `
  CREATE TABLE IF NOT EXISTS paykit_sandbox_meta (name text PRIMARY KEY, value text NOT NULL);
  CREATE SEQUENCE IF NOT EXISTS paykit_sandbox_position;
  CREATE TABLE IF NOT EXISTS paykit_sandbox_records (
    collection text NOT NULL,
    key text NOT NULL,
    value text,
    created_at bigint,
    change bigint NOT NULL,
    position bigint NOT NULL DEFAULT nextval('paykit_sandbox_position'),
    PRIMARY KEY (collection, key)
  );
  CREATE INDEX IF NOT EXISTS paykit_sandbox_records_change ON paykit_sandbox_records (change);
  INSERT INTO paykit_sandbox_meta (name, value)
    VALUES ('format', '${storeFormat}'), ('version', '${schemaVersion}'), ('clockOffsetMs', '0'), ('sequence', '0'), ('changes', '0')
    ON CONFLICT (name) DO NOTHING;
`;

/** The one lock every write of every process takes (transaction-scoped: the COMMIT or ROLLBACK releases it). */
const takeLock = "SELECT pg_advisory_xact_lock(hashtext('paykit-payments-sandbox'))";

const statements = {
  meta: 'SELECT name, value FROM paykit_sandbox_meta',
  changes: "SELECT value FROM paykit_sandbox_meta WHERE name = 'changes'",
  all: 'SELECT collection, key, value FROM paykit_sandbox_records WHERE value IS NOT NULL ORDER BY position',
  since: 'SELECT collection, key, value, change FROM paykit_sandbox_records WHERE change > $1 ORDER BY change, position',
  // A record written again after its removal goes to the end, as it does in memory (lists keep creation order).
  // An idempotency key is taken again only once its record has expired (or by the very same record, written again).
  put:
    'INSERT INTO paykit_sandbox_records AS r (collection, key, value, created_at, change) VALUES ($1, $2, $3, $4, $5) ' +
    'ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at, change = excluded.change, ' +
    "position = CASE WHEN r.value IS NULL THEN nextval('paykit_sandbox_position') ELSE r.position END " +
    "WHERE r.collection <> 'idempotency' OR r.value IS NULL OR r.created_at + $6 <= excluded.created_at " +
    'OR (r.created_at = excluded.created_at AND r.value = excluded.value)',
  drop: 'UPDATE paykit_sandbox_records SET value = NULL, created_at = NULL, change = $3 WHERE collection = $1 AND key = $2 AND value IS NOT NULL',
  clear: 'UPDATE paykit_sandbox_records SET value = NULL, created_at = NULL, change = $1 WHERE value IS NOT NULL',
  putMeta: 'UPDATE paykit_sandbox_meta SET value = $2 WHERE name = $1',
  // The number sequence never goes back: no receipt number is handed out twice.
  putSequence: "UPDATE paykit_sandbox_meta SET value = GREATEST(value::bigint, $1::bigint)::text WHERE name = 'sequence'",
} as const;

/** The address with its password replaced, fit for logs and errors. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const name of ['password', 'sslpassword']) if (parsed.searchParams.has(name)) parsed.searchParams.set(name, '***');
    return parsed.toString().replace(/%2A%2A%2A/g, '***');
  } catch {
    return 'postgres://… (not a valid address)';
  }
}

/** Every spelling of the address's secrets, to take out of messages that come from the driver or the server. */
function secretsOf(url: string): string[] {
  try {
    const parsed = new URL(url);
    const raw = [parsed.password, parsed.searchParams.get('password') ?? '', parsed.searchParams.get('sslpassword') ?? ''];
    return [...new Set(raw.flatMap((secret) => [secret, decodeURIComponent(secret)]))].filter((secret) => secret.length > 0);
  } catch {
    return [url];
  }
}

interface Session {
  client: pg.PoolClient;
  /** A transaction holding the lock is open. */
  open: boolean;
  writing?: Promise<void>;
}

const noop = () => {};

class PostgresStore implements StateStore {
  readonly state: SandboxState;
  private readonly tracker: ChangeTracker;
  /** The last change number this process has applied (or written itself). */
  private seen = -1;
  /** The state in memory may hold changes the database refused: read everything again before the next use. */
  private stale = true;
  /** The write under way in this process (one at a time, like across processes). */
  private session: Session | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private outsideWriting: Promise<void> | undefined;
  /**
   * Changes this process wrote after another's it had not seen yet: catching up skips their rows, which would only
   * replace records in memory by copies (code holding a record, a webhook attempt in flight, saves it by identity).
   */
  private readonly own = new Set<string>();
  private closed = false;
  rowsWritten = 0;

  constructor(
    readonly location: string,
    private readonly pool: pg.Pool,
    private readonly secrets: string[],
  ) {
    this.tracker = new ChangeTracker(() => this.state);
    this.state = trackedState(this.tracker);
  }

  /** A StateStoreError naming the database without its password, with the driver's message likewise cleaned. */
  error(doing: string, cause: unknown): StateStoreError {
    if (cause instanceof StateStoreError) return cause;
    let message = cause instanceof Error ? cause.message || (cause as NodeJS.ErrnoException).code || cause.name : String(cause);
    for (const secret of this.secrets) message = message.split(secret).join('***');
    return new StateStoreError(`cannot ${doing} the sandbox state at ${this.location}: ${message}`);
  }

  /** Reads what other processes wrote since this one last looked. `session`: under the write lock. */
  async catchUp(client: pg.Pool | pg.PoolClient, session?: Session): Promise<void> {
    const reload = this.stale;
    const meta = Object.fromEntries((await client.query<{ name: string; value: string }>(statements.meta)).rows.map((row) => [row.name, row.value]));
    const changes = Number(meta.changes);
    if (!reload && changes <= this.seen) return;
    const rows = (await client.query<{ collection: string; key: string; value: string | null; change?: string }>(reload ? statements.all : statements.since, reload ? [] : [this.seen])).rows;
    // A write under way in this process caught up under the lock: what a read fetched meanwhile is not newer.
    if (this.session && this.session !== session) return;
    if (!this.stale && changes <= this.seen) return;
    if (this.stale) {
      for (const value of Object.values(this.state)) if (value instanceof TrackedMap) for (const key of [...value.keys()]) value.unload(key);
      this.stale = false;
    }
    for (const row of rows) {
      const map = this.state[row.collection as CollectionName] as TrackedMap<unknown> | undefined;
      if (!map || (row.change !== undefined && this.own.has(row.change))) continue;
      if (row.value === null) map.unload(row.key);
      else map.load(row.key, JSON.parse(row.value));
    }
    const sequence = Number(meta.sequence) || 0;
    this.state.clockOffsetMs = Number(meta.clockOffsetMs) || 0;
    this.state.sequence = Math.max(this.state.sequence, sequence);
    this.tracker.savedMeta({ clockOffsetMs: this.state.clockOffsetMs, sequence });
    this.seen = changes;
    for (const change of this.own) if (Number(change) <= changes) this.own.delete(change);
  }

  run<T>(write: boolean, work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new StateStoreError(`${this.location} is closed`));
    if (!write) return this.catchUp(this.pool).then(work, (error: unknown) => Promise.reject(this.error('read', error)));
    return this.exclusive(async (session) => {
      await this.begin(session);
      await this.catchUp(session.client, session).catch((error: unknown) => Promise.reject(this.error('read', error)));
      // From here on (lock held, caught up) every commit of this process joins this transaction.
      this.session = session;
      return work();
    });
  }

  /**
   * Runs `job` as this process's one write at a time, on a connection of its own. Commits join its transaction only
   * once it is made `this.session` (after the lock): a query issued before would run ahead of the lock.
   */
  private exclusive<T>(job: (session: Session) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      const client = await this.pool.connect().catch((error: unknown) => Promise.reject(this.error('reach', error)));
      const session: Session = { client, open: false };
      let broken = false;
      try {
        return await job(session);
      } finally {
        // No later commit joins this session (its connection goes back to the pool); one that joined finishes first.
        if (this.session === session) this.session = undefined;
        await session.writing?.catch(noop);
        // What the job did not commit is rolled back; in memory nothing was changed without a commit that failed.
        if (session.open) await client.query('ROLLBACK').catch(() => (broken = true));
        client.release(broken);
      }
    });
    this.queue = result.catch(noop);
    return result;
  }

  /** Opens a transaction and takes the lock (waiting for any other process's write to commit). */
  private async begin(session: Session): Promise<void> {
    try {
      await session.client.query('BEGIN');
      // Durable before acknowledged, whatever the server's default; and a process that stalls while holding the
      // lock is cut off by the server rather than blocking every other process for ever.
      await session.client.query("SET LOCAL synchronous_commit = on; SET LOCAL idle_in_transaction_session_timeout = '60s'");
      await session.client.query(takeLock);
      session.open = true;
    } catch (error) {
      await session.client.query('ROLLBACK').catch(noop);
      throw this.error('lock', error);
    }
  }

  track<T>(work: () => T): T {
    return this.tracker.track(work);
  }

  commit(): Promise<void> {
    if (this.closed) return Promise.reject(new StateStoreError(`${this.location} is closed`));
    const session = this.session;
    if (session) {
      // A change made while a write holds the lock (its own, or a task of the clock meanwhile) goes into it.
      if (!this.tracker.pending()) return session.writing ?? Promise.resolve();
      session.writing = (session.writing ?? Promise.resolve()).catch(noop).then(() => this.write(session));
      return session.writing;
    }
    if (!this.tracker.pending()) return this.outsideWriting ?? Promise.resolve();
    const written = this.exclusive(async (own) => {
      await this.begin(own);
      await this.write(own);
    });
    this.outsideWriting = written;
    void written.catch(noop).finally(() => this.outsideWriting === written && (this.outsideWriting = undefined));
    return written;
  }

  private async write(session: Session): Promise<void> {
    if (!this.tracker.pending()) return;
    if (!session.open) await this.begin(session);
    const batch = this.tracker.take();
    const { client } = session;
    let change: number;
    let before: number;
    try {
      before = Number((await client.query<{ value: string }>(statements.changes)).rows[0]?.value);
      change = before + 1;
      await this.writeBatch(client, batch, change);
      crashPoint('commit:before');
      await client.query('COMMIT');
      session.open = false;
    } catch (error) {
      // In memory the state now holds changes the database does not: everything is read again before the next use.
      this.stale = true;
      throw this.error('write', error);
    }
    // Caught up under this lock, so nobody wrote in between: this process has seen everything up to its change.
    if (before === this.seen) this.seen = change;
    else this.own.add(String(change));
    this.rowsWritten += batch.rows.length + (batch.meta ? 2 : 0);
    crashPoint('commit:after');
  }

  private async writeBatch(client: pg.PoolClient, batch: ChangeBatch, change: number): Promise<void> {
    const lifetime = rules.idempotencyKey.lifetimeMs;
    if (batch.cleared) await client.query(statements.clear, [change]);
    for (const { collection, key, value } of batch.rows) {
      if (value === null) {
        await client.query(statements.drop, [collection, key, change]);
        continue;
      }
      const createdAt = collection === 'idempotency' ? (value as { createdAt: number }).createdAt : null;
      const written = await client.query(statements.put, [collection, key, JSON.stringify(value), createdAt, change, lifetime]);
      if (written.rowCount !== 1) throw new StateStoreError('the store already holds an answer under this Idempotency-Key');
    }
    if (batch.meta) {
      await client.query(statements.putMeta, ['clockOffsetMs', String(batch.meta.clockOffsetMs)]);
      await client.query(statements.putSequence, [String(batch.meta.sequence)]);
    }
    await client.query(statements.putMeta, ['changes', String(change)]);
  }

  reset(): void {
    resetTrackedState(this.state, this.tracker);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.commit().catch(noop);
    this.closed = true;
    await this.queue;
    await this.pool.end().catch(noop);
  }
}

/** Connects to the database at `url`, creates the sandbox's tables on first use and reads the state. */
export async function openPostgresStore(url: string): Promise<StateStore> {
  const location = redactUrl(url);
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 10_000, application_name: 'paykit-payments-sandbox' });
  // A connection the server closed (a restart): the pool drops an idle one and the next use connects again; one in
  // use fails its query, which the store reports. Without a listener the driver's error event would end the process.
  pool.on('error', noop);
  pool.on('connect', (client) => client.on('error', noop));
  const store = new PostgresStore(location, pool, secretsOf(url));
  try {
    const client = await pool.connect().catch((error: unknown) => Promise.reject(store.error('reach', error)));
    try {
      await client.query('BEGIN');
      await client.query(takeLock); // two processes starting at once create the tables once
      await client.query(schema);
      const meta = Object.fromEntries((await client.query<{ name: string; value: string }>(statements.meta)).rows.map((row) => [row.name, row.value]));
      if (meta.format !== storeFormat || meta.version !== schemaVersion) {
        throw new StateStoreError(`${location} holds tables of another kind or version (${meta.format} ${meta.version}, expected ${storeFormat} ${schemaVersion})`);
      }
      await client.query('COMMIT');
      await store.catchUp(client);
    } catch (error) {
      await client.query('ROLLBACK').catch(noop);
      throw store.error('open', error);
    } finally {
      client.release();
    }
    return store;
  } catch (error) {
    await pool.end().catch(noop);
    throw error;
  }
}
