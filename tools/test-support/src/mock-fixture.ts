import { startFileExchangeMock, type FileExchangeMock, type FileExchangeMockOptions, type TestCertificates } from '@paykit/file-exchange-mock';

/** The client certificate of the suite's certificates and the CA that trusts the mock, as both clients take them. */
export function clientTls(certificates: TestCertificates): { pfx: string; passphrase: string; ca: string } {
  return { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPath };
}

export interface MockFixture<Client, ClientOptions> {
  mock: FileExchangeMock;
  certificates: TestCertificates;
  /** A client of the package under test with the right certificate; `overrides` replace its test defaults. */
  client(overrides?: Partial<ClientOptions>): Promise<Client>;
  /** Closes every client made, then the mock. */
  close(): Promise<void>;
}

/**
 * The stateful file exchange mock over client-certificate TLS with `certificates` (the suite's, see
 * global-certificates.ts), and the clients a test makes for it: `connect` is the package's own (the REST or the SOAP
 * client, its address on the mock and its test defaults), the bookkeeping is this one.
 */
export async function startMockFixture<Client extends { close(): Promise<void> }, ClientOptions>(
  certificates: TestCertificates,
  connect: (mock: FileExchangeMock, overrides: Partial<ClientOptions>) => Promise<Client>,
  options: FileExchangeMockOptions = {},
): Promise<MockFixture<Client, ClientOptions>> {
  const mock = await startFileExchangeMock({ certificates, ...options });
  const clients: Client[] = [];
  return {
    mock,
    certificates,
    async client(overrides = {}) {
      const client = await connect(mock, overrides);
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await mock.close();
    },
  };
}
