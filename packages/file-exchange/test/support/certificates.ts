import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateTestCertificates, type TestCertificates } from '@paykit/mock-server';

export type { TestCertificates };

/** Fresh certificates in a temporary folder; `cleanup` removes the folder. */
export async function temporaryCertificates(): Promise<TestCertificates & { cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-fx-certs-'));
  const certificates = await generateTestCertificates(dir);
  return { ...certificates, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
