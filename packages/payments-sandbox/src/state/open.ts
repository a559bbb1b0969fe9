import { openSqliteStore } from './sqlite-store.js';
import { memoryStore, StateStoreError, type StateStore } from './store.js';

/** The store `--state` names: in memory without one, else the database file. */
export async function openStateStore(location: string | undefined): Promise<StateStore> {
  if (location === undefined || location === '') return memoryStore();
  // Not a file name: refused, rather than a file created under that name.
  if (/^postgres(ql)?:\/\//i.test(location)) throw new StateStoreError('a PostgreSQL state (--state postgres://…) is not supported yet; give a file name');
  return openSqliteStore(location);
}
