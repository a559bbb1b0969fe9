import { clientTls, startMockFixture, type MockFixture as SharedMockFixture } from '@paykit/test-support';
import type { FileExchangeMockOptions } from '@paykit/mock-server';
import { FileExchangeClient, type FileExchangeClientOptions } from '../../src/index.js';
import { temporaryCertificates } from './certificates.js';

/** Retries fast enough for tests; the reference's 5 minutes would stall them. */
export const quickRetry = { intervalMs: 20, maxDurationMs: 2_000, allowShortIntervals: true } as const;

export type MockFixture = SharedMockFixture<FileExchangeClient, FileExchangeClientOptions>;

/** The stateful mock over client-certificate TLS with the suite's certificates, and REST clients for it. */
export async function startMock(options: Omit<FileExchangeMockOptions, 'certificates'> = {}): Promise<MockFixture> {
  const certificates = await temporaryCertificates();
  return startMockFixture<FileExchangeClient, FileExchangeClientOptions>(
    certificates,
    (mock, overrides) => FileExchangeClient.create({ baseUrl: mock.restUrl, tls: clientTls(certificates), retry: quickRetry, ...overrides }),
    options,
  );
}
