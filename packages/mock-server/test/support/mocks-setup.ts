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

/**
 * One real Prism per REST contract for the whole run (a process each, about a second to start), through this
 * package's own `startPrismMock`. Prism on a contract is stateless: every file can share it. A test of how
 * `startPrismMock` itself listens (another host) starts its own.
 */
export default async function setup(project: TestProject) {
  const started = await Promise.allSettled([startPrismMock({ contract: 'payments', port: 0 }), startPrismMock({ contract: 'file-exchange', port: 0 })]);
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
