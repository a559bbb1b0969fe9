import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTestCertificates, startPrismMock, type RestContract, type RunningMock, type TestCertificates } from '@paykit/mock-server';
import type { TestProject } from 'vitest/node';

/** A Prism mock as the test files see it: where it listens (it is stopped by this set-up, not by them). */
export interface SharedPrism {
  /** Base address of the contract, e.g. `http://127.0.0.1:43121/rest/v1`. */
  url: string;
  origin: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    prism: Record<RestContract, SharedPrism>;
    certificates: TestCertificates;
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
 * The expensive things every file would otherwise make for itself, made once per run: one real Prism per REST
 * contract (a process each, about a second to start; stateless, so every file can share it), and one set of test
 * certificates (RSA keys; files only read them). The stateful mocks (the payments sandbox, the file exchange) start
 * in process in each file that needs one: tens of milliseconds, and each file keeps its own state and its own
 * in-process view of it.
 */
export default async function setup(project: TestProject) {
  const certificateDir = await mkdtemp(join(tmpdir(), 'paykit-contract-certs-'));
  const mocks: RunningMock[] = [];
  const stop = async () => {
    await Promise.all(mocks.map((mock) => mock.close()));
    await rm(certificateDir, { recursive: true, force: true });
  };
  try {
    const started = await Promise.allSettled([startPrism('payments'), startPrism('file-exchange')]);
    for (const result of started) if (result.status === 'fulfilled') mocks.push(result.value);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    const [payments, fileExchange] = mocks;
    project.provide('prism', { payments: { url: payments!.url, origin: payments!.origin }, 'file-exchange': { url: fileExchange!.url, origin: fileExchange!.origin } });
    project.provide('certificates', await generateTestCertificates(certificateDir));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
