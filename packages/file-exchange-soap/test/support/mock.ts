import { inject } from 'vitest';
import { clientTls, startMockFixture, type MockFixture as SharedMockFixture } from '@paykit/test-support';
import type { FileExchangeMockOptions } from '@paykit/mock-server';
import { FileExchangeSoapClient, type FileExchangeSoapClientOptions } from '../../src/index.js';

/** Retries in tests wait milliseconds, not the reference's 5 minutes. */
export const fastRetry = { intervalMs: 10, maxDurationMs: 5_000, allowShortIntervals: true };

export type MockFixture = SharedMockFixture<FileExchangeSoapClient, FileExchangeSoapClientOptions>;

/**
 * The stateful mock over client-certificate TLS with the suite's certificates (unless `options` names others), and
 * SOAP clients for it.
 */
export async function startMock(options: FileExchangeMockOptions = {}): Promise<MockFixture> {
  const { certificates = inject('certificates'), ...mockOptions } = options;
  return startMockFixture<FileExchangeSoapClient, FileExchangeSoapClientOptions>(
    certificates,
    (mock, overrides) => FileExchangeSoapClient.create({ baseUrl: mock.soapUrl, tls: clientTls(certificates), retry: fastRetry, ...overrides }),
    mockOptions,
  );
}
