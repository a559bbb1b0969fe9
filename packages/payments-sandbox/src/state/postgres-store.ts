import pg from 'pg';
import { rules } from '../generated/rules.js';
import { turnOffAllocationSitePretenuring } from './allocation-site-pretenuring.js';
import { crashPoint } from './crash-points.js';
import type { SandboxState } from './state.js';
import { StateStoreError, unlessAborted, type StateStore, type WriteOptions } from './store.js';
import { ChangeTracker, resetTrackedState, trackedState, TrackedMap, writesNothing, type ChangeBatch, type CollectionName } from './tracking.js';

/**
 * `--state postgres://…`: the state on a PostgreSQL server, shared by every sandbox process pointed at the same
 * database (a team's long-lived sandbox, parallel CI jobs behind one address).
 *
 * Each process keeps the whole state in memory, as with a file, and catches up on what the others wrote: every
 * write stamps its rows with the next number of a change counter, and a process reads the rows stamped after the
 * last number it saw (before each read, and under the lock before each write). Removed records stay as rows without
 * a value, so that the others see the removal.
 *
 * Writes run in batches: one transaction holding `pg_advisory_xact_lock` takes the lock, catches up, runs every
 * write that came in this process meanwhile (each a synchronous piece of work: a request's handler, a control
 * operation, the clock's due tasks), writes all their changes in one statement and commits. So two processes never
 * work on the same state at once (no receipt number handed out twice, no change lost to a concurrent one), a write's
 * answer is sent only once the server flushed its write-ahead log past the COMMIT (`flush` below), and the lock is
 * never held while anything waits for a client: a request's body is read, and its simulated processing delay waited
 * out, before it joins a batch. A write whose client has gone before its batch ran it is dropped. Batches are one at a
 * time across all processes; each carries as many writes as came while the last ran.
 *
 * A batch costs two round trips on its connection (pipelined: sent without waiting for the answer before): the
 * transaction, the lock and the catch-up in one; then its rows, the COMMIT and the flush in the other.
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

/**
 * A batch's lock, taken right after its BEGIN, in the same round trip: a prepared statement (parsed and planned once
 * per connection) that also sets the transaction's settings, so that a batch costs the server no statement of its own
 * for them. Its COMMIT does not wait for the write-ahead log to reach the disk (`synchronous_commit` off), so the lock
 * is free for the other processes at once; the batch's writes are answered only after `flush` (below), sent with the
 * COMMIT, made the log durable up to and past it. A session that stalls while holding the lock is cut off by the
 * server.
 */
const lockForBatch = {
  name: 'paykit-sandbox-lock',
  text: `SELECT set_config('synchronous_commit', 'off', true), set_config('idle_in_transaction_session_timeout', '60s', true), ${takeLock.slice('SELECT '.length)}`,
} as const;

/**
 * Makes the write-ahead log durable up to now: a transaction that writes a log record (a transactional logical
 * message, which any user may write and nothing stores) commits with `synchronous_commit` on, so its COMMIT returns
 * once the log is flushed past that record, and so past every commit before it (the log is written in order). A
 * transaction that writes nothing is not flushed at its COMMIT, which is why a bare `pg_current_xact_id()` does not
 * do. One prepared statement, a transaction of its own (the protocol commits it at its end, with the setting it made
 * for itself, whatever the server's default). It runs after the batch's COMMIT, in the same round trip: the lock is
 * already free for the other processes while this one waits for the disk (the server flushes for several sessions at
 * once when their waits overlap).
 */
const flush = {
  name: 'paykit-sandbox-flush',
  text: "SELECT set_config('synchronous_commit', 'on', true), pg_logical_emit_message(true, 'paykit-payments-sandbox', '')",
} as const;

/** The meta rows (as collection `''`) and then records, in the order they were written. */
const metaRows = "SELECT '' AS collection, name AS key, value, 0::bigint AS change, 0::bigint AS position FROM paykit_sandbox_meta";

const statements = {
  // What changed since change number $1 (a removal is a row without a value), or everything there is. Prepared once
  // per connection (by name): every read of every request runs it. The upper bound, the counter itself, changes
  // nothing of what is read (no row has a later number in the statement's snapshot) but keeps the plan on the index:
  // the plan kept for a prepared statement is made for any $1, and for `change > $1` alone on a table that was small
  // then (a sandbox's first minute, before the server's first ANALYZE of it) it was a scan of the whole table, run
  // under the lock at every batch while the table grew. A range between two unknowns is estimated as narrow, so the
  // plan reads the index whatever the table's statistics say.
  since: {
    name: 'paykit-sandbox-since',
    text: `${metaRows} UNION ALL SELECT collection, key, value, change, position FROM paykit_sandbox_records
      WHERE change > $1 AND change <= (SELECT value::bigint FROM paykit_sandbox_meta WHERE name = 'changes') ORDER BY change, position`,
  },
  all: `${metaRows} UNION ALL SELECT collection, key, value, change, position FROM paykit_sandbox_records WHERE value IS NOT NULL ORDER BY position`,
} as const;

/**
 * Every row of a batch in one statement ($1-$4: collection, key, value or null, created_at; $5: the change number).
 * Values go as parameters, never in the text: a statement that fails is logged by the server with its text. A
 * record written again after its removal goes to the end, as it does in memory (lists keep creation order); an
 * idempotency key is taken again only once its record has expired ($6: the lifetime), or by the very same record
 * written again: `put` counts the rows written, and when one was refused (fewer than $9, the values given) the
 * statement fails, on the NOT NULL of the meta rows, so that the COMMIT sent behind it (pipelined) rolls the batch back.
 * The clock offset ($7) and the number sequence ($8, which never goes back: no receipt number is handed out twice)
 * when the batch changed them.
 */
const writeRows = `
  WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[]) AS i (collection, key, value, created_at)),
  put AS (
    INSERT INTO paykit_sandbox_records AS r (collection, key, value, created_at, change)
    SELECT collection, key, value, created_at, $5 FROM input WHERE value IS NOT NULL
    ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value, created_at = excluded.created_at, change = excluded.change,
      position = CASE WHEN r.value IS NULL THEN nextval('paykit_sandbox_position') ELSE r.position END
    WHERE r.collection <> 'idempotency' OR r.value IS NULL OR r.created_at + $6 <= excluded.created_at
      OR (r.created_at = excluded.created_at AND r.value = excluded.value)
    RETURNING 1),
  dropped AS (
    UPDATE paykit_sandbox_records AS r SET value = NULL, created_at = NULL, change = $5
    FROM input AS i WHERE i.value IS NULL AND r.collection = i.collection AND r.key = i.key AND r.value IS NOT NULL
    RETURNING 1),
  meta AS (
    UPDATE paykit_sandbox_meta SET value = CASE
        WHEN (SELECT count(*) FROM put) <> $9::int THEN NULL
        WHEN name = 'changes' THEN $5::text
        WHEN name = 'clockOffsetMs' THEN coalesce($7::text, value)
        ELSE GREATEST(value::bigint, coalesce($8::bigint, 0))::text END
      WHERE name IN ('changes', 'clockOffsetMs', 'sequence')
    RETURNING 1)
  SELECT (SELECT count(*) FROM put)::int AS put, (SELECT count(*) FROM dropped)::int AS dropped, (SELECT count(*) FROM meta)::int AS meta`;

/** The write's failure when the database refused an idempotency record (see `writeRows`). */
const refusedKey = (error: unknown) =>
  (error as { code?: string; table?: string }).code === '23502' && (error as { table?: string }).table === 'paykit_sandbox_meta'
    ? new StateStoreError('the store already holds an answer under this Idempotency-Key')
    : error;

const clearRows = 'UPDATE paykit_sandbox_records SET value = NULL, created_at = NULL, change = $1 WHERE value IS NOT NULL';

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

/** A write waiting for its batch. */
interface Job {
  work: () => unknown;
  options: WriteOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Row = { collection: string; key: string; value: string | null; change: string };

const noop = () => {};

class PostgresStore implements StateStore {
  readonly state: SandboxState;
  private readonly tracker: ChangeTracker;
  /** The last change number this process has applied (or written itself). */
  private seen = -1;
  /** The state in memory may hold changes the database refused: read everything again before the next use. */
  private stale = true;
  /** Writes waiting for the next batch. */
  private pending: Job[] = [];
  private batchQueued = false;
  /** The batch under way, whose commit holds the changes taken from the tracker (`commit()` waits for it). */
  private committing: Promise<void> | undefined;
  /** The connection batches run on (kept: a batch does not wait for one; pipelined, see `openPostgresStore`). */
  private writer: pg.PoolClient | undefined;
  /** A batch is running its writes: a commit asked for meanwhile (a task's, a handler's) is that batch's. */
  private working = false;
  /** The batch under way or queued (one at a time). */
  private batches: Promise<void> = Promise.resolve();
  /** The last catch-up of reads under way (writes join it rather than ask the database once each). */
  private reading: Promise<void> | undefined;
  /** The change number of the batch whose COMMIT is under way: a read that sees its rows first skips them. */
  private committingChange = -1;
  private closed = false;
  rowsWritten = 0;
  /** A batch reads what the others wrote under the lock, in the round trip that takes it (`batch`). */
  readonly catchesUpInWrite = true;

  constructor(
    readonly location: string,
    private readonly pool: pg.Pool,
    private readonly secrets: string[],
  ) {
    this.tracker = new ChangeTracker(() => this.state);
    this.state = trackedState(this.tracker);
  }

  /** A StateStoreError naming the database without its password, with the driver's message likewise cleaned. */
  error(doing: 'reach' | 'lock' | 'read' | 'write' | 'open', cause: unknown): StateStoreError {
    if (cause instanceof StateStoreError) return cause;
    let message = cause instanceof Error ? cause.message || (cause as NodeJS.ErrnoException).code || cause.name : String(cause);
    for (const secret of this.secrets) message = message.split(secret).join('***');
    return new StateStoreError(`cannot ${doing} the sandbox state at ${this.location}: ${message}`, doing !== 'write');
  }

  /**
   * Reads what other processes wrote since this one last looked (everything, when the state is stale: only under the
   * lock). Reads and a batch may catch up at the same time: what one fetched is applied only where it is newer than
   * what the state already holds, and never the rows of this process's own COMMIT under way (they are in memory
   * already, as the very objects code may hold).
   */
  async apply(client: pg.Pool | pg.PoolClient): Promise<void> {
    const reload = this.stale;
    this.applyRows((await client.query<Row>(reload ? statements.all : statements.since, reload ? [] : [this.seen])).rows, reload);
  }

  /** Puts what a catch-up read into the state (`reload`: the whole state, read while it was stale). */
  private applyRows(rows: Row[], reload: boolean): void {
    const meta: Record<string, string> = {};
    for (const row of rows) if (row.collection === '') meta[row.key] = row.value ?? '';
    const changes = Number(meta.changes);
    if (reload) {
      for (const value of Object.values(this.state)) if (value instanceof TrackedMap) for (const key of [...value.keys()]) value.unload(key);
      this.tracker.discard();
      this.stale = false;
    } else if (changes <= this.seen) return; // nothing newer than what is held (another catch-up came first)
    const after = reload ? -1 : this.seen;
    for (const row of rows) {
      if (row.collection === '' || Number(row.change) <= after || Number(row.change) === this.committingChange) continue;
      const map = this.state[row.collection as CollectionName] as TrackedMap<unknown> | undefined;
      if (!map) continue; // a collection of a later version of the sandbox
      if (row.value === null) map.unload(row.key);
      else map.load(row.key, JSON.parse(row.value));
    }
    const sequence = Number(meta.sequence) || 0;
    this.state.clockOffsetMs = Number(meta.clockOffsetMs) || 0;
    this.state.sequence = Math.max(this.state.sequence, sequence);
    this.tracker.savedMeta({ clockOffsetMs: this.state.clockOffsetMs, sequence });
    this.seen = Math.max(this.seen, changes);
  }

  catchUp(options: { joinRunning?: boolean } = {}): Promise<void> {
    if (this.closed) return Promise.reject(new StateStoreError(`${this.location} is closed`));
    // A stale state is read again whole, under the lock: a batch with nothing to write does it.
    if (this.stale) return this.write(noop);
    if (options.joinRunning && this.reading) return this.reading;
    const reading = this.apply(this.pool).catch((error: unknown) => Promise.reject(this.error('reach', error)));
    this.reading = reading;
    void reading.catch(noop).finally(() => this.reading === reading && (this.reading = undefined));
    return reading;
  }

  write<T>(work: () => T, options: WriteOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new StateStoreError(`${this.location} is closed`));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<T>((resolve, reject) => {
      const job: Job = { work, options, resolve: resolve as (value: unknown) => void, reject };
      // A client that leaves while its write waits for a batch: the write is dropped, never run.
      const leave = () => {
        const at = this.pending.indexOf(job);
        if (at >= 0) (this.pending.splice(at, 1), reject(signal!.reason));
      };
      signal?.addEventListener('abort', leave, { once: true });
      job.resolve = (value) => (signal?.removeEventListener('abort', leave), resolve(value as T));
      job.reject = (error) => (signal?.removeEventListener('abort', leave), reject(error));
      this.pending.push(job);
      this.pump();
    });
  }

  private pump(): void {
    if (this.batchQueued || this.pending.length === 0) return;
    this.batchQueued = true;
    this.batches = this.batches.then(async () => {
      try {
        await this.batch();
      } finally {
        this.batchQueued = false;
        this.pump();
      }
    });
  }

  /**
   * One batch: lock, catch up, run every write waiting, write their changes, commit, make the log durable past the
   * commit (`flush`); then its writes are answered and the next batch may start.
   */
  private async batch(): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = this.writer ??= await this.pool.connect();
    } catch (error) {
      for (const job of this.pending.splice(0)) job.reject(this.error('reach', error));
      return;
    }
    let settle: (error?: unknown) => void = noop;
    const committed = new Promise<void>((resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))));
    void committed.catch(noop);
    const jobs: Job[] = [];
    const outcomes: ({ value: unknown } | { error: unknown })[] = [];
    let open = false;
    /** Some change was made in memory (a write ran, or changes made outside writes were taken). */
    let ran = false;
    let changed = false;
    try {
      try {
        // The lock, then what the others wrote, in one round trip (a stale state is read whole after the lock).
        open = true;
        const reload = this.stale;
        // The catch-up is the prepared statement (planned once per connection, not at every batch under the lock),
        // sent behind the lock without waiting for it (the connection pipelines).
        const opening = client.query('BEGIN');
        const starting = client.query(lockForBatch);
        const reading = reload ? client.query<Row>(statements.all) : client.query<Row>(statements.since, [this.seen]);
        for (const query of [opening, starting, reading]) void query.catch(noop);
        await opening;
        await starting;
        this.applyRows((await reading).rows, reload);
      } catch (error) {
        throw this.error('lock', error);
      }
      // From here on, every write waiting joins this batch; those that come later wait for the next.
      jobs.push(...this.pending.splice(0));
      this.committing = committed;
      this.working = true;
      for (const job of jobs) {
        const held = job.options.whenLocked?.();
        if (held) await unlessAborted(held, job.options.signal).catch(noop);
        if (job.options.signal?.aborted) {
          outcomes.push({ error: job.options.signal.reason });
          continue;
        }
        ran = true;
        try {
          outcomes.push({ value: this.tracker.track(job.work) });
        } catch (error) {
          outcomes.push({ error });
        }
      }
      this.working = false;
      const change = this.seen + 1;
      const taken = this.tracker.pending() ? this.tracker.take() : undefined;
      const batch = taken && !writesNothing(taken) ? taken : undefined;
      if (batch) ran = changed = true;
      try {
        if (batch) {
          // The rows, then the COMMIT and the flush without waiting for the rows' answer (the connection pipelines):
          // a refused row fails its statement, and the COMMIT behind it then rolls back (it reports no error of its
          // own: the rows' failure is the batch's).
          const writing = this.writeBatch(client, batch, change);
          void writing.catch(noop);
          crashPoint('commit:before');
          this.committingChange = change;
          // A batch that changed something: in a transaction a failed statement aborted, the COMMIT rolls back.
          const committing = client.query('COMMIT');
          const flushing = client.query(flush);
          for (const query of [committing, flushing]) void query.catch(noop);
          await writing;
          await committing;
          await flushing;
        } else {
          await client.query('COMMIT');
        }
        open = false;
      } catch (error) {
        throw this.error('write', refusedKey(error));
      }
      if (batch) {
        this.seen = Math.max(this.seen, change);
        this.rowsWritten += batch.rows.length + (batch.meta ? 2 : 0);
      }
    } catch (error) {
      // In memory the state may now hold changes the database does not: everything is read again before the next use.
      if (ran || !open) this.stale = true;
      // Writes that ran were not saved (or their COMMIT's outcome is unknown); before any ran, nothing was done.
      const message = error instanceof Error ? error.message : String(error);
      const failure = error instanceof StateStoreError && error.nothingDone === !ran ? error : new StateStoreError(message, !ran);
      settle(failure);
      jobs.forEach((job, at) => {
        const outcome = outcomes[at];
        // A write that was dropped stays dropped; the others were not saved.
        job.reject(outcome && 'error' in outcome && job.options.signal?.aborted ? outcome.error : failure);
      });
      if (!jobs.length) for (const job of this.pending.splice(0)) job.reject(failure);
      // The connection goes: a new one for the next batch (the server may have ended this one).
      if (open) await client.query('ROLLBACK').catch(noop);
      this.writer = undefined;
      client.release(true);
      return;
    } finally {
      this.working = false;
      this.committingChange = -1;
      if (this.committing === committed) this.committing = undefined;
    }
    // Durable: answered.
    if (changed) crashPoint('commit:after');
    settle();
    jobs.forEach((job, at) => {
      const outcome = outcomes[at]!;
      if ('value' in outcome) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  }

  /** Sends the batch's statements at once (pipelined); resolves once the server answered them. */
  private async writeBatch(client: pg.PoolClient, batch: ChangeBatch, change: number): Promise<void> {
    const clearing = batch.cleared ? client.query(clearRows, [change]) : undefined;
    void clearing?.catch(noop);
    const collections: string[] = [];
    const keys: string[] = [];
    const values: (string | null)[] = [];
    const createdAt: (number | null)[] = [];
    let puts = 0;
    for (const { collection, key, value, json } of batch.rows) {
      collections.push(collection);
      keys.push(key);
      values.push(value === null ? null : (json ?? JSON.stringify(value)));
      createdAt.push(collection === 'idempotency' && value !== null ? (value as { createdAt: number }).createdAt : null);
      if (value !== null) puts += 1;
    }
    const { meta } = batch;
    // A refused row fails the statement itself (see `writeRows`): no check of its answer, which comes after the COMMIT.
    const writing = client.query({
      name: 'paykit-sandbox-write',
      text: writeRows,
      values: [collections, keys, values, createdAt, change, rules.idempotencyKey.lifetimeMs, meta ? String(meta.clockOffsetMs) : null, meta ? meta.sequence : null, puts],
    });
    await clearing;
    await writing;
  }

  track<T>(work: () => T): T {
    return this.tracker.track(work);
  }

  commit(): Promise<void> {
    if (this.closed) return Promise.reject(new StateStoreError(`${this.location} is closed`));
    // Nothing left to take, or a batch is running its writes: what was changed goes with the batch under way.
    if (this.working) return this.committing!;
    if (!this.tracker.pending()) return this.committing ?? Promise.resolve();
    return this.write(noop);
  }

  reset(): void {
    resetTrackedState(this.state, this.tracker);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.commit().catch(noop);
    this.closed = true;
    await this.batches;
    this.writer?.release();
    this.writer = undefined;
    await this.pool.end().catch(noop);
  }
}

/** Connects to the database at `url`, creates the sandbox's tables on first use and reads the state. */
export async function openPostgresStore(url: string): Promise<StateStore> {
  const location = redactUrl(url);
  turnOffAllocationSitePretenuring();
  // Pipelined connections (`pipeline`: a query is sent without waiting for the answer to the one before): a batch
  // sends its rows, its COMMIT and its flush in one round trip. Every other use sends one query at a time.
  const pool = new pg.Pool({ connectionString: url, max: 6, connectionTimeoutMillis: 10_000, application_name: 'paykit-payments-sandbox', pipeline: true });
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
      const meta = Object.fromEntries((await client.query<{ name: string; value: string }>('SELECT name, value FROM paykit_sandbox_meta')).rows.map((row) => [row.name, row.value]));
      if (meta.format !== storeFormat || meta.version !== schemaVersion) {
        throw new StateStoreError(`${location} holds tables of another kind or version (${meta.format} ${meta.version}, expected ${storeFormat} ${schemaVersion})`);
      }
      await client.query('COMMIT');
      await store.apply(client);
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
