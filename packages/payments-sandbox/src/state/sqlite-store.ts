import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { identify, identityName, isRunning, parseIdentityName } from '@paykit/process-liveness';
import sqlite from 'node-sqlite3-wasm';
import { rules } from '../generated/rules.js';
import { crashPoint, holdPoint } from './crash-points.js';
import { parseState } from './persistence.js';
import type { SandboxState } from './state.js';
import { StateStoreError, writeInProcess, type StateStore, type WriteOptions } from './store.js';
import { ChangeTracker, resetTrackedState, trackedState, TrackedMap, writesNothing, type ChangeBatch, type CollectionName } from './tracking.js';

/**
 * `--state FILE`: the state in an SQLite database (SQLite compiled to WebAssembly, `node-sqlite3-wasm`: it installs
 * from the registry with no download or native build). One row per record: a write carries the records that changed
 * and the number sequence, in one transaction, so its cost does not grow with the state.
 *
 * Durability, as verified in node-sqlite3-wasm 0.8.60's VFS (dist/node-sqlite3-wasm.js): xSync is `fs.fsyncSync`
 * on the file's descriptor and xDelete with dirSync flushes the folder. With `journal_mode=WAL` and
 * `synchronous=FULL`, SQLite calls xSync on the WAL at every commit, so a commit that returned is on disk. Its VFS
 * has no shared memory, so WAL needs `locking_mode=EXCLUSIVE` (one process owns the file; the sandbox is one
 * process). Its lock is a `FILE.lock` folder that a killed process leaves behind: `FILE.pid` names the owner by pid
 * and start time (@paykit/process-liveness), and a lock whose owner is gone, or whose pid another process now has,
 * is removed at open.
 *
 * Idempotency records have their own table keyed by the Idempotency-Key: the database refuses a second record under a
 * key while the first is within its lifetime. The number sequence (receipt numbers and the other identifiers) is a
 * row that only moves forward, written in the same transaction as the records that used its numbers.
 */

const storeFormat = 'paykit-payments-sandbox-store';
const storeVersion = 2;
const sqliteHeader = 'SQLite format 3\0';

// Rowid tables: rows read back in the order they were first written, which is the order of the maps in memory
// (records created in the same millisecond keep their order in lists).
const schema = `
  CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS records (collection TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, key));
  CREATE TABLE IF NOT EXISTS idempotency_keys (key TEXT PRIMARY KEY, created_at INTEGER NOT NULL, value TEXT NOT NULL);
`;

const statements = {
  putRecord: 'INSERT INTO records (collection, key, value) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value',
  dropRecord: 'DELETE FROM records WHERE collection = ? AND key = ?',
  // A key is taken again only once its record has expired (or by the very same record, written again).
  putKey:
    'INSERT INTO idempotency_keys (key, created_at, value) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET created_at = excluded.created_at, value = excluded.value ' +
    'WHERE idempotency_keys.created_at + ? <= excluded.created_at OR (idempotency_keys.created_at = excluded.created_at AND idempotency_keys.value = excluded.value)',
  dropKey: 'DELETE FROM idempotency_keys WHERE key = ?',
  putMeta: 'INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  // The sequence never goes back: a write that would lower it fails, so no receipt number is handed out twice.
  putSequence: "UPDATE meta SET value = ? WHERE name = 'sequence' AND CAST(value AS INTEGER) <= ?",
} as const;

type Statements = { [name in keyof typeof statements]: sqlite.Statement };

/** Files opened by this process: a second sandbox on the same file would overwrite the first one's writes. */
const openHere = new Set<string>();

function isSqliteFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(16);
    const read = readSync(fd, head, 0, 16, 0);
    return read === 0 || head.toString('latin1') === sqliteHeader;
  } finally {
    closeSync(fd);
  }
}

function syncFolder(path: string): void {
  const fd = openSync(dirname(path), 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Makes this process the file's one owner; clears the lock a killed owner left. */
function claim(path: string): () => void {
  if (openHere.has(path)) throw new StateStoreError(`${path} is already open in this process`);
  const pidFile = `${path}.pid`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(pidFile, 'wx');
      writeSync(fd, identityName(identify(process.pid)));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      // `<pid>-<start>`, or `<pid>` as sandboxes before start times were recorded wrote it (judged by the pid alone).
      const owner = parseIdentityName(readFileSync(pidFile, 'utf8').trim());
      if (owner !== undefined && owner.pid !== process.pid && isRunning(owner)) {
        throw new StateStoreError(`${path} is in use by process ${owner.pid} (one sandbox process per state file; use postgres:// to share one)`);
      }
      rmSync(pidFile, { force: true });
    }
  }
  // SQLite's lock of an owner that died (node-sqlite3-wasm locks with a folder, which a killed process leaves).
  rmSync(`${path}.lock`, { recursive: true, force: true });
  openHere.add(path);
  return () => {
    openHere.delete(path);
    rmSync(pidFile, { force: true });
  };
}

function openDatabase(path: string): sqlite.Database {
  const db = new sqlite.Database(path);
  try {
    // Before anything reads the file: a database in WAL mode opens only in exclusive mode with this VFS.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    const tables = (db.all("SELECT name FROM sqlite_master WHERE type = 'table'") as { name: string }[]).map((row) => row.name);
    if (tables.length > 0 && !tables.includes('meta')) throw new StateStoreError(`${path} is an SQLite database but not a sandbox store`);
    const mode = db.get('PRAGMA journal_mode = WAL') as { journal_mode: string } | null;
    if (mode?.journal_mode !== 'wal') throw new StateStoreError(`${path}: SQLite refused write-ahead logging (${mode?.journal_mode})`);
    db.exec('PRAGMA synchronous = FULL');
    db.exec(schema);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Writes one batch of changes; the caller holds the transaction. */
function writeBatch(db: sqlite.Database, st: Statements, batch: ChangeBatch): void {
  const lifetime = rules.idempotencyKey.lifetimeMs;
  if (batch.cleared) db.exec('DELETE FROM records; DELETE FROM idempotency_keys;');
  for (const { collection, key, value, json } of batch.rows) {
    if (collection === 'idempotency') {
      if (value === null) st.dropKey.run([key]);
      else {
        const record = value as { createdAt: number };
        const written = st.putKey.run([key, record.createdAt, json ?? JSON.stringify(value), lifetime]);
        if (written.changes !== 1) throw new StateStoreError(`the store already holds an answer under this Idempotency-Key`);
      }
    } else if (value === null) st.dropRecord.run([collection, key]);
    else st.putRecord.run([collection, key, json ?? JSON.stringify(value)]);
  }
  if (batch.meta) {
    st.putMeta.run(['clockOffsetMs', String(batch.meta.clockOffsetMs)]);
    if (st.putSequence.run([String(batch.meta.sequence), batch.meta.sequence]).changes !== 1) {
      throw new StateStoreError(`the number sequence would go back to ${batch.meta.sequence}`);
    }
  }
}

function prepare(db: sqlite.Database): Statements {
  return Object.fromEntries(Object.entries(statements).map(([name, sql]) => [name, db.prepare(sql)])) as Statements;
}

function finalize(st: Statements): void {
  for (const statement of Object.values(st)) statement.finalize();
}

/** Every change of a fresh state as one batch: the whole state of a migrated file. */
function everything(state: SandboxState): ChangeBatch {
  const rows: ChangeBatch['rows'] = [];
  for (const [collection, map] of Object.entries(state)) {
    if (map instanceof Map) for (const [key, value] of map) rows.push({ collection: collection as CollectionName, key, value });
  }
  return { cleared: false, rows, meta: { clockOffsetMs: state.clockOffsetMs, sequence: state.sequence } };
}

function initialise(db: sqlite.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    const st = db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING');
    for (const row of [['format', storeFormat], ['version', String(storeVersion)], ['clockOffsetMs', '0'], ['sequence', '0']]) st.run(row);
    st.finalize();
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * A state file of version 1 (one JSON document) becomes a database: built beside it under `FILE.migrating`,
 * committed and closed; then the old file is kept as `FILE.v1.json` and the database takes its name. A crash at any
 * point leaves either the old file in place (the migration starts again) or the finished database beside the kept
 * old file (the last rename is done at the next open).
 */
function migrate(path: string): void {
  const migrating = `${path}.migrating`;
  const kept = `${path}.v1.json`;
  if (!existsSync(path) && existsSync(kept) && existsSync(migrating)) {
    renameSync(migrating, path);
    syncFolder(path);
    return;
  }
  if (!existsSync(path) || isSqliteFile(path)) return;
  const old = parseState(readFileSync(path, 'utf8'), path);
  for (const leftover of [migrating, `${migrating}-wal`, `${migrating}-journal`]) rmSync(leftover, { force: true });
  rmSync(`${migrating}.lock`, { recursive: true, force: true });
  const db = openDatabase(migrating);
  try {
    initialise(db);
    const st = prepare(db);
    db.exec('BEGIN IMMEDIATE');
    try {
      writeBatch(db, st, everything(old));
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    } finally {
      finalize(st);
    }
  } finally {
    db.close(); // checkpoints the write-ahead log into the file and removes it
  }
  renameSync(path, kept);
  renameSync(migrating, path);
  syncFolder(path);
}

function checkFormat(db: sqlite.Database, path: string): void {
  const rows = db.all("SELECT name, value FROM meta WHERE name IN ('format', 'version')") as { name: string; value: string }[];
  const meta = Object.fromEntries(rows.map((row) => [row.name, row.value]));
  if (meta.format !== storeFormat || meta.version !== String(storeVersion)) {
    throw new StateStoreError(`${path} is an SQLite database but not a version ${storeVersion} sandbox store`);
  }
}

class SqliteStore implements StateStore {
  readonly state: SandboxState;
  private readonly tracker: ChangeTracker;
  private readonly st: Statements;
  private scheduled: Promise<void> | undefined;
  private failure: Error | undefined;
  private closed = false;
  rowsWritten = 0;

  constructor(
    readonly location: string,
    private readonly db: sqlite.Database,
    private readonly release: () => void,
  ) {
    this.tracker = new ChangeTracker(() => this.state);
    this.state = trackedState(this.tracker);
    this.load();
    this.st = prepare(db);
  }

  private load(): void {
    const meta = Object.fromEntries((this.db.all('SELECT name, value FROM meta') as { name: string; value: string }[]).map((row) => [row.name, row.value]));
    this.state.clockOffsetMs = Number(meta.clockOffsetMs) || 0;
    this.state.sequence = Number(meta.sequence) || 0;
    this.tracker.savedMeta({ clockOffsetMs: this.state.clockOffsetMs, sequence: this.state.sequence });
    this.each('SELECT collection, key, value FROM records ORDER BY rowid', (row) => {
      const map = this.state[row.collection as CollectionName] as TrackedMap<unknown> | undefined;
      map?.load(String(row.key), JSON.parse(String(row.value)));
    });
    this.each('SELECT key, value FROM idempotency_keys ORDER BY rowid', (row) => {
      (this.state.idempotency as TrackedMap<unknown>).load(String(row.key), JSON.parse(String(row.value)));
    });
  }

  /** The state again as the database holds it; the number sequence never goes back (no number handed out twice). */
  private reload(): void {
    const sequence = this.state.sequence;
    for (const value of Object.values(this.state)) if (value instanceof TrackedMap) for (const key of [...value.keys()]) value.unload(key);
    this.tracker.discard();
    this.load();
    this.state.sequence = Math.max(this.state.sequence, sequence);
  }

  private each(sql: string, use: (row: Record<string, unknown>) => void): void {
    const statement = this.db.prepare(sql);
    try {
      for (const row of statement.iterate()) use(row);
    } finally {
      statement.finalize();
    }
  }

  /** One process owns the file: nothing to catch up on, and its writes are ordered by `commit`. */
  catchUp(): Promise<void> {
    return Promise.resolve();
  }

  write<T>(work: () => T, options?: WriteOptions): Promise<T> {
    return writeInProcess(this, work, options);
  }

  track<T>(work: () => T): T {
    return this.tracker.track(work);
  }

  commit(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.tracker.pending()) return Promise.resolve();
    // Group commit: every change made until the write starts goes into it, and each caller waits for it.
    this.scheduled ??= (holdPoint('commit') ?? new Promise<void>((resolve) => setImmediate(resolve))).then(() => {
      this.scheduled = undefined;
      this.writeChanges();
    });
    return this.scheduled;
  }

  private writeChanges(): void {
    if (this.failure) throw this.failure;
    if (this.closed) throw new StateStoreError(`${this.location} is closed`);
    const batch = this.tracker.take();
    if (writesNothing(batch)) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      writeBatch(this.db, this.st, batch);
      crashPoint('commit:before');
      this.db.exec('COMMIT');
    } catch (error) {
      const failure = new StateStoreError(`cannot write the sandbox state to ${this.location}: ${(error as Error).message}`);
      // The state in memory now holds changes the database does not (a payment answered 500 would show in searches
      // until a restart, then vanish): it is read again from the database, so that what the sandbox shows is what
      // a restart would show. Only when that fails too is nothing more done until a restart.
      try {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        this.reload();
      } catch {
        this.failure = failure;
      }
      throw failure;
    }
    this.rowsWritten += batch.rows.length + (batch.meta ? 2 : 0);
    crashPoint('commit:after');
  }

  reset(): void {
    resetTrackedState(this.state, this.tracker);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.commit().catch(() => undefined);
    this.closed = true;
    finalize(this.st);
    this.db.close();
    this.release();
  }
}

/** Opens (creating, or migrating a version 1 state file) the database at `path`. */
export function openSqliteStore(path: string): StateStore {
  const release = claim(path);
  try {
    migrate(path);
    const db = openDatabase(path);
    try {
      initialise(db);
      checkFormat(db, path);
      return new SqliteStore(path, db, release);
    } catch (error) {
      db.close();
      throw error;
    }
  } catch (error) {
    release();
    throw error;
  }
}
