import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { collectionNames, emptyState, type Collections, type SandboxState } from './state.js';

/**
 * `--state FILE`: the sandbox's state survives restarts. Every write goes to a temporary file in the same folder,
 * is flushed to disk, and replaces the state file by a rename, then the folder is flushed: the file is always either
 * the previous state or the new one, never half of each, whenever the process dies. Writes are grouped: changes made
 * while one write runs go out together in the next, and an answer that changed the state waits for the write that
 * holds its change, so that everything a client was told survives a crash.
 */

const format = 'paykit-payments-sandbox-state';
const version = 1;

/** The field that keys each collection's records. */
const keyOf: Record<keyof Collections, string> = {
  tokens: 'id',
  transactions: 'receiptNumber',
  customers: 'customerId',
  accounts: 'accountToken',
  recurringPayments: 'id',
  paymentFiles: 'id',
  paymentBatches: 'id',
  mandateAgreements: 'id',
  aliases: 'id',
  idempotency: 'key',
  subscriptions: 'id',
  deliveries: 'id',
  tasks: 'id',
};

export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

export function serialiseState(state: SandboxState): string {
  const collections = Object.fromEntries(collectionNames.map((name) => [name, [...state[name].values()]]));
  return JSON.stringify({ format, version, clockOffsetMs: state.clockOffsetMs, sequence: state.sequence, collections });
}

export function parseState(text: string, path: string): SandboxState {
  let data: { format?: unknown; version?: unknown; clockOffsetMs?: unknown; sequence?: unknown; collections?: Record<string, unknown> };
  try {
    data = JSON.parse(text) as typeof data;
  } catch (error) {
    throw new StateFileError(`${path} is not a sandbox state file: ${(error as Error).message}`);
  }
  if (data.format !== format || data.version !== version) throw new StateFileError(`${path} is not a version ${version} sandbox state file`);
  const state = emptyState();
  state.clockOffsetMs = Number(data.clockOffsetMs) || 0;
  state.sequence = Number(data.sequence) || 0;
  for (const name of collectionNames) {
    const records = data.collections?.[name];
    if (!Array.isArray(records)) throw new StateFileError(`${path}: ${name} is missing`);
    const collection = state[name] as Map<string, unknown>;
    for (const record of records) collection.set(String((record as Record<string, unknown>)[keyOf[name]]), record);
  }
  return state;
}

export class StateFile {
  private writing: Promise<void> | undefined;
  private dirty = false;
  private waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private sequence = 0;

  constructor(
    readonly path: string,
    private readonly state: () => SandboxState,
  ) {}

  /** The saved state, or undefined when the file does not exist yet. Temporary files of cut-short writes are removed. */
  load(): SandboxState | undefined {
    const leftover = new RegExp(`^\\.${basename(this.path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.\\d+\\.\\d+\\.tmp$`);
    for (const name of existsSync(dirname(this.path)) ? readdirSync(dirname(this.path)) : []) {
      if (leftover.test(name)) rmSync(join(dirname(this.path), name), { force: true }); // a write a crash cut short
    }
    if (!existsSync(this.path)) return undefined;
    return parseState(readFileSync(this.path, 'utf8'), this.path);
  }

  /** Resolves once a write that includes the state as it is now is on disk. */
  commit(): Promise<void> {
    this.dirty = true;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.writing ??= this.pump();
    return done;
  }

  /** Waits for the writes under way. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async pump(): Promise<void> {
    try {
      while (this.dirty) {
        this.dirty = false;
        const waiters = this.waiters;
        this.waiters = [];
        try {
          await this.write(serialiseState(this.state()));
          for (const waiter of waiters) waiter.resolve();
        } catch (error) {
          for (const waiter of waiters) waiter.reject(error);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async write(text: string): Promise<void> {
    const folder = dirname(this.path);
    this.sequence += 1;
    const temporary = join(folder, `.${basename(this.path)}.${process.pid}.${this.sequence}.tmp`);
    try {
      const file = await open(temporary, 'w');
      try {
        await file.writeFile(text);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    // The rename itself is durable once the folder is flushed.
    const directory = await open(folder, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }
}
