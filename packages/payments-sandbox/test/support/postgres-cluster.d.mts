/** The newest installed PostgreSQL's bin folder, or undefined. */
export function findPostgres(): string | undefined;

export interface PostgresCluster {
  port: number;
  /** The password as given to the server (what must never show in logs or errors). */
  password: string;
  user: string;
  log: string;
  data: string;
  destroy(): Promise<void>;
}

/** Starts a throwaway cluster on a free loopback port; `settings` are server settings. */
export function startPostgres(bin: string, settings?: Record<string, string>): Promise<PostgresCluster>;
