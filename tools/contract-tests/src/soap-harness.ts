import { createFileExchangeSoapClient, type FileExchangeSoapClient } from '@paykit/file-exchange-soap';
import { startFileExchangeMock, type FileExchangeMock, type TestCertificates } from '@paykit/mock-server';
import { clientBehindProxy, harnessStallTimeoutMs, type ProxiedClient } from './proxied-client.js';

export interface SoapHarness extends ProxiedClient<FileExchangeSoapClient> {
  mock: FileExchangeMock;
}

/**
 * The stateful SOAP mock on plain HTTP behind the recording proxy (a proxy cannot read or change messages inside
 * client-certificate TLS), and our SOAP client pointed at the proxy, with retries off. The client still loads a
 * certificate made for this run (`certificates`), as it always must; the TLS path itself is covered by the drain-loop
 * scenario. Closing the harness closes the mock too: it is the harness's own.
 */
export async function startSoapHarness(queueId: string, certificates: TestCertificates): Promise<SoapHarness> {
  const mock = await startFileExchangeMock({ tls: false, queueId });
  const proxied = await clientBehindProxy(mock.soapUrl, (baseUrl) =>
    createFileExchangeSoapClient({
      baseUrl,
      tls: { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword },
      retry: false,
      stallTimeoutMs: harnessStallTimeoutMs,
    }),
  );
  return {
    mock,
    ...proxied,
    close: async () => {
      await proxied.close();
      await mock.close();
    },
  };
}
