import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/**
 * A real, throwaway PostgreSQL cluster for the tests: Debian's binaries (`apt-get install postgresql`, as `.ci/run`
 * does), `initdb` into a temporary folder, the server on a free loopback port with its socket in that folder, a
 * password (scram-sha-256) so that addresses carry one as a team's would. `initdb` refuses to run as root: as root
 * (CI containers) the cluster belongs to the `postgres` user the Debian package creates, through `runuser`.
 */

/** The newest installed PostgreSQL's bin folder, or undefined. */
export function findPostgres(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export interface PostgresCluster {
  /** `postgres://paykit:PASSWORD@127.0.0.1:PORT/DATABASE`, the password URL-encoded. */
  url(database: string): string;
  /** The password as given to the server (what must never show in logs or errors). */
  password: string;
  port: number;
  createDatabase(name: string): Promise<void>;
  query<R extends pg.QueryResultRow>(database: string, sql: string, values?: unknown[]): Promise<R[]>;
  /** Stops the server at once (`immediate`: like a crash; its data is kept). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes the cluster. */
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPostgres(bin: string): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-sandbox-pg-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? await run('id', ['-u', 'postgres']).then(
    async ({ stdout }) => ({ uid: Number(stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) }),
    () => {
      throw new Error('running as root, and initdb refuses root: PostgreSQL tests need the "postgres" user of Debian\'s package');
    },
  ) : undefined;
  // A password with characters that need encoding in an address, so that both spellings are looked for in logs.
  const password = `Pg/secret+${randomBytes(6).toString('hex')}`;
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  writeFileSync(join(dir, 'password'), password);
  if (owner) chownSync(dir, owner.uid, owner.gid), chownSync(join(dir, 'password'), owner.uid, owner.gid);
  const as = (command: string, args: string[]) => (owner ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args));

  await as('initdb', ['-D', data, '-U', 'paykit', `--pwfile=${join(dir, 'password')}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const start = async () => {
    await as('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  };
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  };
  await start();

  const url = (database: string) => `postgres://paykit:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
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
    url,
    password,
    port,
    query,
    createDatabase: async (name) => void (await query('postgres', `CREATE DATABASE ${name}`)),
    stop,
    start,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
