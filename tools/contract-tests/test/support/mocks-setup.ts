import { startPrismMock } from '@paykit/mock-server';
import { startSharedPrisms } from '@paykit/test-support';
import type { TestProject } from 'vitest/node';

/**
 * One real Prism per REST contract for the whole run, shared by every file (the test certificates are made once too,
 * by @paykit/test-support/global-certificates). The stateful mocks (the payments sandbox, the file exchange) start
 * in process in each file that needs one: tens of milliseconds, and each file keeps its own state and its own
 * in-process view of it.
 */
export default async function setup(project: TestProject) {
  const { prism, stop } = await startSharedPrisms(['payments', 'file-exchange'], (contract) => startPrismMock({ contract, port: 0 }));
  project.provide('prism', prism);
  return stop;
}
