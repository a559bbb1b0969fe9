import type { TestProject } from 'vitest/node';
import { findPostgres, startPostgres } from './postgres-cluster.mjs';

export interface ProvidedPostgres {
  port: number;
  password: string;
  user: string;
  log: string;
  data: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's one PostgreSQL cluster, or null where PostgreSQL is not installed. */
    postgres: ProvidedPostgres | null;
  }
}

/**
 * One PostgreSQL cluster for the whole suite (a second or two to start): every file that needs it makes databases of
 * its own on it (`support/postgres.ts`). Without PostgreSQL installed, those files are skipped, or fail under CI=true.
 */
export default async function setup(project: TestProject) {
  const bin = findPostgres();
  if (!bin) {
    project.provide('postgres', null);
    return undefined;
  }
  const cluster = await startPostgres(bin);
  const { port, password, user, log, data } = cluster;
  project.provide('postgres', { port, password, user, log, data });
  return () => cluster.destroy();
}
