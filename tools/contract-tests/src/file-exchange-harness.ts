import { createFileExchangeClient, type FileExchangeClient } from '@paykit/file-exchange';
import { MutatingProxy } from './mutating-proxy.js';

/** Where a running Prism serves the REST file exchange contract (the suite starts one and shares it). */
export interface PrismAddress {
  url: string;
  origin: string;
}

export interface FileExchangeHarness {
  mock: PrismAddress;
  proxy: MutatingProxy;
  client: FileExchangeClient;
  close(): Promise<void>;
}

/**
 * Our client pointed, with retries off (`retry: false`: one try, its failure reported as it is), at the recording
 * proxy in front of Prism on the REST file exchange contract. The client cannot add headers, so the proxy is also
 * what asks Prism for each case (`Prefer`). Closing the harness leaves Prism running: it is not the harness's.
 */
export async function startFileExchangeHarness(mock: PrismAddress): Promise<FileExchangeHarness> {
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
    },
  };
}
