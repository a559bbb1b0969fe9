import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { abortedBy } from '../core/abort.js';
import { identify, identityName, isGroupRunning, isRunning, parseIdentityName, type ProcessIdentity } from '@paykit/process-liveness';

/** Another run holds the lock on the same ledger: exit status 75 (EX_TEMPFAIL, "try again later"). */
export class RunLockedError extends Error {
  override readonly name = 'RunLockedError';
}

const entry = /^(run|group)-(\d+-\d*)$/;

/**
 * One `download` at a time per ledger. The lock is a folder (`<ledger>.lock`) holding one empty file per process of
 * the run that holds it: `run-<pid>-<start>` for the CLI, `group-<pid>-<start>` for each processing command's process
 * group, which outlives a CLI killed with SIGKILL and so keeps the run locked until it ends. An entry whose process no
 * longer runs (checked by id and start time, so that a reused id does not count) is stale: a killed run never blocks
 * the next one for longer than its processing commands run.
 *
 * To take the lock, a run adds its entry first, then reads the folder: any other live entry means the lock is held,
 * and it withdraws its entry. Of two runs racing, at least the later one to add its entry sees the other's, so two
 * can never both hold the lock (both may withdraw; a waiting run tries again after a random pause).
 */
export class RunLock {
  private readonly own: string;
  private released = false;

  private constructor(
    readonly folder: string,
    self: ProcessIdentity,
  ) {
    this.own = `${folder}/run-${identityName(self)}`;
  }

  /**
   * Takes the lock, or throws RunLockedError naming the holder; with `waitMs`, tries again until then, telling
   * `onWait` once. `signal` ends the wait with AbortedError (the run, processAll, is what is aborted).
   */
  static async acquire(
    ledgerPath: string,
    options: { waitMs?: number; onWait?: (holder: string) => void; signal?: AbortSignal | undefined } = {},
  ): Promise<RunLock> {
    const lock = new RunLock(`${ledgerPath}.lock`, identify(process.pid));
    const deadline = Date.now() + (options.waitMs ?? 0);
    let told = false;
    for (;;) {
      const holder = lock.tryTake();
      if (holder === undefined) return lock;
      if (Date.now() >= deadline) {
        throw new RunLockedError(`Another run (${holder}) is processing the ledger ${ledgerPath}; this one stops without doing anything.`);
      }
      if (!told) options.onWait?.(holder);
      told = true;
      const pause = Math.min(200 + Math.random() * 800, Math.max(0, deadline - Date.now()));
      await sleep(pause, undefined, { signal: options.signal }).catch(() => {
        throw abortedBy(options.signal!, { operation: 'processAll' });
      });
    }
  }

  /** Records a processing command's process group as part of this run; returns the function that forgets it. */
  holdForGroup(leader: ProcessIdentity): () => void {
    const path = `${this.folder}/group-${identityName(leader)}`;
    writeFileSync(path, '', { mode: 0o600 });
    return () => rmSync(path, { force: true });
  }

  /** Lets the next run go; synchronous, so that it can run on the way out of a signal handler. */
  release(): void {
    if (this.released) return;
    this.released = true;
    rmSync(this.own, { force: true });
  }

  /** Adds this run's entry; undefined when no other live entry is there (the lock is taken), else who holds it. */
  private tryTake(): string | undefined {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    writeFileSync(this.own, '', { mode: 0o600 });
    const holders: string[] = [];
    for (const name of readdirSync(this.folder)) {
      if (`${this.folder}/${name}` === this.own) continue;
      const [, kind, identity] = entry.exec(name) ?? [];
      const holder = parseIdentityName(identity ?? '');
      if (holder === undefined) continue;
      if (kind === 'run' && isRunning(holder)) holders.unshift(`pid ${holder.pid}`);
      else if (kind === 'group' && isGroupRunning(holder)) holders.push(`a processing command, process group ${holder.pid}`);
      // The run or processing command it stood for is gone; removing it is safe whoever does it.
      else rmSync(`${this.folder}/${name}`, { force: true });
    }
    if (holders.length === 0) return undefined;
    rmSync(this.own, { force: true });
    // The run itself when it still runs, else the processing command a run killed with SIGKILL left running.
    return holders[0]!.startsWith('pid') ? holders[0] : `${holders[0]} of a run that was killed`;
  }
}
