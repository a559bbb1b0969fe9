/** A Prism mock as the test files see it: where it listens (the set-up that started it stops it, not them). */
export interface SharedPrism {
  /** Base address of the contract, e.g. `http://127.0.0.1:43121/rest/v1`. */
  url: string;
  origin: string;
}

interface StartedPrism extends SharedPrism {
  close(): Promise<void>;
}

/** vitest gives a global set-up no timeout: a Prism that never says it listens fails the run here, not never. */
const startLimitMs = 60_000;

/** `starting` within startLimitMs; a Prism that starts later is stopped at once. */
function withinStartLimit(contract: string, starting: Promise<StartedPrism>): Promise<StartedPrism> {
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
 * For a vitest global setup: one real Prism per contract for the whole run (a process each, about a second to
 * start; stateless, so every test file can share it), started by `start` (the package's way: mock-server's own
 * `startPrismMock`, or the published one). If one fails to start, those that did are stopped and the failure thrown.
 * Give `prism` to the files (`project.provide('prism', prism)`) and return `stop` from the set-up.
 */
export async function startSharedPrisms<Contract extends string>(
  contracts: readonly Contract[],
  start: (contract: Contract) => Promise<StartedPrism>,
): Promise<{ prism: Record<Contract, SharedPrism>; stop(): Promise<void> }> {
  const started = await Promise.allSettled(contracts.map((contract) => withinStartLimit(contract, start(contract))));
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stop = async () => void (await Promise.all(running.map((mock) => mock.close())));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  const prism = Object.fromEntries(contracts.map((contract, at) => [contract, { url: running[at]!.url, origin: running[at]!.origin }]));
  return { prism: prism as Record<Contract, SharedPrism>, stop };
}
