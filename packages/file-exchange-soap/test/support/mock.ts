import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import {
  startFileExchangeMock,
  type FileExchangeMock,
  type FileExchangeMockOptions,
  type TestCertificates,
} from '@paykit/mock-server';
import { FileExchangeSoapClient, type FileExchangeSoapClientOptions } from '../../src/index.js';

/** Retries in tests wait milliseconds, not the reference's 5 minutes. */
export const fastRetry = { intervalMs: 10, maxDurationMs: 5_000, allowShortIntervals: true };

export interface MockFixture {
  mock: FileExchangeMock;
  certificates: TestCertificates;
  client(options?: Partial<FileExchangeSoapClientOptions>): Promise<FileExchangeSoapClient>;
  close(): Promise<void>;
}

/** The stateful mock over client-certificate TLS, with the suite's certificates (support/global-certificates.ts). */
export async function startMock(options: FileExchangeMockOptions = {}): Promise<MockFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-soap-test-'));
  const certificates = inject('certificates');
  const mock = await startFileExchangeMock({ certificates, ...options });
  const clients: FileExchangeSoapClient[] = [];
  return {
    mock,
    certificates,
    async client(overrides = {}) {
      const client = await FileExchangeSoapClient.create({
        baseUrl: mock.soapUrl,
        tls: { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPem },
        retry: fastRetry,
        ...overrides,
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close()));
      await mock.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
