import { startSharedPrisms } from '@paykit/test-support';
import type { TestProject } from 'vitest/node';
import { startPrismMock } from '../../src/index.js';

/**
 * One real Prism per REST contract for the whole run, through this package's own `startPrismMock`. A test of how
 * `startPrismMock` itself listens (another host) starts its own.
 */
export default async function setup(project: TestProject) {
  const { prism, stop } = await startSharedPrisms(['payments', 'file-exchange'], (contract) => startPrismMock({ contract, port: 0 }));
  project.provide('prism', prism);
  return stop;
}
