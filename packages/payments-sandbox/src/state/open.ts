import { openPostgresStore } from './postgres-store.js';
import { openSqliteStore } from './sqlite-store.js';
import { memoryStore, type StateStore } from './store.js';

/** The store `--state` names: in memory without one, a PostgreSQL database by its address, else the database file. */
export async function openStateStore(location: string | undefined): Promise<StateStore> {
  if (location === undefined || location === '') return memoryStore();
  if (/^postgres(ql)?:\/\//i.test(location)) return openPostgresStore(location);
  return openSqliteStore(location);
}
