import { createFileExchangeSoapClient, type FileExchangeSoapClient } from '@paykit/file-exchange-soap';
import { startFileExchangeMock, type FileExchangeMock, type TestCertificates } from '@paykit/mock-server';
import { MutatingProxy } from './mutating-proxy.js';

export interface SoapHarness {
  mock: FileExchangeMock;
  proxy: MutatingProxy;
  client: FileExchangeSoapClient;
  close(): Promise<void>;
}

/**
 * The stateful SOAP mock on plain HTTP behind the recording proxy (a proxy cannot read or change messages inside
 * client-certificate TLS), and our SOAP client pointed at the proxy, with retries off. The client still loads a
 * certificate made for this run (`certificates`), as it always must; the TLS path itself is covered by the drain-loop
 * scenario.
 */
export async function startSoapHarness(queueId: string, certificates: TestCertificates): Promise<SoapHarness> {
  const mock = await startFileExchangeMock({ tls: false, queueId });
  const proxy = await MutatingProxy.start(new URL(mock.soapUrl).origin);
  const client = await createFileExchangeSoapClient({
    baseUrl: proxy.origin + new URL(mock.soapUrl).pathname,
    tls: { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword },
    retry: false,
    stallTimeoutMs: 20_000,
  });
  return {
    mock,
    proxy,
    client,
    close: async () => {
      await client.close();
      await proxy.close();
      await mock.close();
    },
  };
}
