import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTestCertificates } from '@paykit/file-exchange-mock';
import type { TestProject } from 'vitest/node';
import './provided-context.js';

/**
 * A vitest global setup (`globalSetup: ['@paykit/test-support/global-certificates']` in a package's
 * vitest.config.ts): makes the certificates once for the whole run, as RSA keys take a second or more on a loaded
 * machine; every test file reads the same files (`inject('certificates')`), none writes them.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-suite-certs-'));
  const [certificates, otherCertificates] = await Promise.all([generateTestCertificates(join(dir, 'suite')), generateTestCertificates(join(dir, 'other'))]);
  project.provide('certificates', certificates);
  project.provide('otherCertificates', otherCertificates);
  return () => rm(dir, { recursive: true, force: true });
}
