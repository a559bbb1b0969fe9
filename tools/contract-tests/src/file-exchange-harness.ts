import { createFileExchangeClient, type FileExchangeClient } from '@paykit/file-exchange';
import { startPrismMock, type RunningMock } from '@paykit/mock-server';
import { MutatingProxy } from './mutating-proxy.js';

export interface FileExchangeHarness {
  mock: RunningMock;
  proxy: MutatingProxy;
  client: FileExchangeClient;
  close(): Promise<void>;
}

/**
 * Prism serving the REST file exchange contract behind the recording proxy, and our client pointed at the proxy
 * with retries off (`retry: false`: one try, its failure reported as it is). The client cannot add headers, so the
 * proxy is also what asks Prism for each case (`Prefer`).
 */
export async function startFileExchangeHarness(): Promise<FileExchangeHarness> {
  const mock = await startPrismMock({ contract: 'file-exchange', port: 0 });
  const proxy = await MutatingProxy.start(mock.origin);
  const client = await createFileExchangeClient({
    baseUrl: proxy.origin + new URL(mock.url).pathname,
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
