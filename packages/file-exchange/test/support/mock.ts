import { startFileExchangeMock, type FileExchangeMock, type FileExchangeMockOptions } from '@paykit/mock-server';
import { FileExchangeClient, type FileExchangeClientOptions } from '../../src/index.js';
import { temporaryCertificates } from './certificates.js';

/** Retries fast enough for tests; the reference's 5 minutes would stall them. */
export const quickRetry = { intervalMs: 20, maxDurationMs: 2_000, allowShortIntervals: true } as const;

export interface MockFixture {
  mock: FileExchangeMock;
  certificates: Awaited<ReturnType<typeof temporaryCertificates>>;
  /** A client with the right certificate; more options override the defaults. */
  client(overrides?: Partial<FileExchangeClientOptions>): Promise<FileExchangeClient>;
  close(): Promise<void>;
}

/** The stateful mock over client-certificate TLS, with certificates generated for this test file only. */
export async function startMock(options: Omit<FileExchangeMockOptions, 'certificates'> = {}): Promise<MockFixture> {
  const certificates = await temporaryCertificates();
  const mock = await startFileExchangeMock({ ...options, certificates });
  const clients: FileExchangeClient[] = [];
  return {
    mock,
    certificates,
    async client(overrides = {}) {
      const client = await FileExchangeClient.create({
        baseUrl: mock.restUrl,
        tls: { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPath },
        retry: quickRetry,
        ...overrides,
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await mock.close();
      await certificates.cleanup();
    },
  };
}
