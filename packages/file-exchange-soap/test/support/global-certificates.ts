import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTestCertificates, type TestCertificates } from '@paykit/mock-server';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's test CA, server and client certificates (read them with `inject('certificates')`). */
    certificates: TestCertificates;
    /** A second, unrelated set: another CA, for a client that trusts the wrong one. */
    otherCertificates: TestCertificates;
  }
}

/** Makes the certificates once for the whole run; every test file reads the same files (none writes them). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-fx-certs-'));
  const [certificates, otherCertificates] = await Promise.all([generateTestCertificates(join(dir, 'suite')), generateTestCertificates(join(dir, 'other'))]);
  project.provide('certificates', certificates);
  project.provide('otherCertificates', otherCertificates);
  return () => rm(dir, { recursive: true, force: true });
}
