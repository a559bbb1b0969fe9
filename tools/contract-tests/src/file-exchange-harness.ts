import { createFileExchangeClient, type FileExchangeClient } from '@paykit/file-exchange';
import { clientBehindProxy, harnessStallTimeoutMs, type ProxiedClient } from './proxied-client.js';

/** Where a running Prism serves the REST file exchange contract (the suite starts one and shares it). */
export interface PrismAddress {
  url: string;
  origin: string;
}

export interface FileExchangeHarness extends ProxiedClient<FileExchangeClient> {
  mock: PrismAddress;
}

/**
 * Our client pointed, with retries off (`retry: false`: one try, its failure reported as it is), at the recording
 * proxy in front of Prism on the REST file exchange contract. The client cannot add headers, so the proxy is also
 * what asks Prism for each case (`Prefer`). Closing the harness leaves Prism running: it is not the harness's.
 */
export async function startFileExchangeHarness(mock: PrismAddress): Promise<FileExchangeHarness> {
  const proxied = await clientBehindProxy(mock.url, (baseUrl) => createFileExchangeClient({ baseUrl, retry: false, stallTimeoutMs: harnessStallTimeoutMs }));
  return { mock, ...proxied };
}
