import { startPrismMock, type RestContract, type RunningMock } from '../../src/index.js';
import type { TestProject } from 'vitest/node';

/** A Prism mock as the test files see it: where it listens (this set-up stops it, not them). */
export interface SharedPrism {
  url: string;
  origin: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    prism: Record<RestContract, SharedPrism>;
  }
}

/** vitest gives a global set-up no timeout: a Prism that never says it listens fails the run here, not never. */
const startLimitMs = 60_000;

/** Starts Prism on a contract within startLimitMs; one that starts later is stopped at once. */
function startPrism(contract: RestContract): Promise<RunningMock> {
  const starting = startPrismMock({ contract, port: 0 });
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    // real-time: only bounds a failure (a Prism that never listens); a start that succeeds never waits for it.
    timer = setTimeout(() => {
      void starting.then((late) => late.close(), () => undefined);
      reject(new Error(`Prism on the ${contract} contract did not listen within ${startLimitMs / 1000} s`));
    }, startLimitMs);
  });
  return Promise.race([starting, limit]).finally(() => clearTimeout(timer));
}

/**
 * One real Prism per REST contract for the whole run (a process each, about a second to start), through this
 * package's own `startPrismMock`. Prism on a contract is stateless: every file can share it. A test of how
 * `startPrismMock` itself listens (another host) starts its own.
 */
export default async function setup(project: TestProject) {
  const started = await Promise.allSettled([startPrism('payments'), startPrism('file-exchange')]);
  const mocks = started.flatMap((result): RunningMock[] => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => void (await Promise.all(mocks.map((mock) => mock.close())));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const [payments, fileExchange] = mocks;
  project.provide('prism', { payments: { url: payments!.url, origin: payments!.origin }, 'file-exchange': { url: fileExchange!.url, origin: fileExchange!.origin } });
  return stop;
}
