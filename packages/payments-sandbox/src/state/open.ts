import { memoryStore, type StateStore } from './store.js';

/**
 * The store `--state` names: in memory without one, a PostgreSQL database by its address, else the database file.
 * Each database's driver is loaded only when asked for: SQLite's WebAssembly build alone took about half of an
 * in-memory sandbox's start.
 */
export async function openStateStore(location: string | undefined): Promise<StateStore> {
  if (location === undefined || location === '') return memoryStore();
  if (/^postgres(ql)?:\/\//i.test(location)) return (await import('./postgres-store.js')).openPostgresStore(location);
  return (await import('./sqlite-store.js')).openSqliteStore(location);
}
