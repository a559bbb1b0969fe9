// A real, throwaway PostgreSQL cluster for the tests and the bench: Debian's binaries (`apt-get install postgresql`,
// as `.ci/run` does), `initdb` into a temporary folder, the server on a free loopback port with its socket in that
// folder, a password (scram-sha-256) so that addresses carry one as a team's would. `initdb` refuses to run as root:
// as root (CI containers) the cluster belongs to the `postgres` user the Debian package creates, through `runuser`.
// The tests start one for the whole suite (`postgres-global-setup.ts`); the bench starts its own.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The newest installed PostgreSQL's bin folder, or undefined. */
export function findPostgres() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a cluster with the binaries of `bin`; `settings` are server settings (`-c name=value`). */
export async function startPostgres(bin, settings = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'paykit-sandbox-pg-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot
    ? await run('id', ['-u', 'postgres']).then(
        async ({ stdout }) => ({ uid: Number(stdout), gid: Number((await run('id', ['-g', 'postgres'])).stdout) }),
        () => {
          throw new Error('running as root, and initdb refuses root: PostgreSQL tests need the "postgres" user of Debian\'s package');
        },
      )
    : undefined;
  // A password with characters that need encoding in an address, so that both spellings are looked for in logs.
  const password = `Pg/secret+${randomBytes(6).toString('hex')}`;
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  writeFileSync(join(dir, 'password'), password);
  if (owner) chownSync(dir, owner.uid, owner.gid), chownSync(join(dir, 'password'), owner.uid, owner.gid);
  const as = (command, args) => (owner ? run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]) : run(join(bin, command), args));

  await as('initdb', ['-D', data, '-U', 'paykit', `--pwfile=${join(dir, 'password')}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`)];
  const stop = async () => {
    await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
  };
  await as('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', options.join(' '), 'start']);
  return {
    port,
    password,
    user: 'paykit',
    /** The server's log file (what a grep for secrets reads). */
    log,
    /** The cluster's data folder (its tables' files). */
    data,
    /** Stops the server (immediate, like a crash) and deletes the cluster. */
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
