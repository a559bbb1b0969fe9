import { inject } from 'vitest';
import type { TestCertificates } from '@paykit/mock-server';

export type { TestCertificates };

/**
 * The certificates made once for the whole run (support/global-certificates.ts), read-only; `cleanup` is kept for the
 * callers' symmetry and removes nothing (the run's global teardown does).
 */
export async function temporaryCertificates(): Promise<TestCertificates & { cleanup(): Promise<void> }> {
  return { ...inject('certificates'), cleanup: async () => undefined };
}
