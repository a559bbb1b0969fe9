import { openSqliteStore } from './sqlite-store.js';
import { memoryStore, type StateStore } from './store.js';

/** The store `--state` names: in memory without one, else the database file. */
export async function openStateStore(location: string | undefined): Promise<StateStore> {
  if (location === undefined || location === '') return memoryStore();
  return openSqliteStore(location);
}
