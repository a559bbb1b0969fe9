import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * The suite's PostgreSQL cluster (started once by `postgres-global-setup.ts`), seen from a test file: a database of
 * its own per test, queries, and a database made unreachable and reachable again without touching the others.
 */

const provided = inject('postgres');
const ci = process.env.CI === 'true';

/** Whether the PostgreSQL tests run here: skipped without PostgreSQL on a developer's machine, failed under CI. */
export const postgresTestsRun = provided !== null || ci;
if (!postgresTestsRun) console.warn('PostgreSQL tests skipped: no PostgreSQL in /usr/lib/postgresql/*/bin (apt-get install postgresql)');

export interface SharedPostgres {
  /** The password as given to the server (what must never show in logs or errors). */
  password: string;
  /** The server's log file. */
  log: string;
  /** The cluster's data folder. */
  data: string;
  /** `postgres://paykit:PASSWORD@127.0.0.1:PORT/DATABASE`, the password URL-encoded. */
  url(database: string): string;
  /** A new, empty database; its address. */
  createDatabase(): Promise<string>;
  query<R extends pg.QueryResultRow>(database: string, sql: string, values?: unknown[]): Promise<R[]>;
  /** Ends every session on the database of `url` and refuses new ones: the database is gone for the sandbox. */
  cutOff(url: string): Promise<void>;
  /** Takes connections to the database of `url` again. */
  restore(url: string): Promise<void>;
}

export const databaseOf = (url: string) => new URL(url).pathname.slice(1);

/** The cluster; throws (in a `beforeAll`) when the tests must run and PostgreSQL is not installed. */
export function sharedPostgres(): SharedPostgres {
  if (!provided) throw new Error('CI=true but PostgreSQL is not installed (/usr/lib/postgresql/*/bin/initdb): .ci/run installs it with apt-get');
  const { port, password, user, log, data } = provided;
  const url = (database: string) => `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  const query = async <R extends pg.QueryResultRow>(database: string, sql: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query<R>(sql, values)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    password,
    log,
    data,
    url,
    query,
    createDatabase: async () => {
      const name = `sandbox_${randomBytes(6).toString('hex')}`;
      await query('postgres', `CREATE DATABASE ${name}`);
      return url(name);
    },
    cutOff: async (address) => {
      const name = databaseOf(address);
      await query('postgres', `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
      await query('postgres', 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    },
    restore: async (address) => void (await query('postgres', `ALTER DATABASE ${databaseOf(address)} ALLOW_CONNECTIONS true`)),
  };
}
