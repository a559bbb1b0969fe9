import { MutatingProxy } from './mutating-proxy.js';

export interface ProxiedClient<Client> {
  proxy: MutatingProxy;
  client: Client;
  /** Closes the client, then the proxy; the mock behind them is not theirs to close. */
  close(): Promise<void>;
}

/** How long a harness's client waits for a stalled answer: the mutations slow nothing, the machine may. */
export const harnessStallTimeoutMs = 20_000;

/**
 * The recording proxy in front of the mock at `mockUrl` (its base path included), and one of our clients made by
 * `connect` with the proxy's address in its place: the proxy sees, and may change, each exchange.
 */
export async function clientBehindProxy<Client extends { close(): Promise<void> }>(
  mockUrl: string,
  connect: (baseUrl: string) => Promise<Client>,
): Promise<ProxiedClient<Client>> {
  const { origin, pathname } = new URL(mockUrl);
  const proxy = await MutatingProxy.start(origin);
  const client = await connect(proxy.origin + pathname);
  return {
    proxy,
    client,
    close: async () => {
      await client.close();
      await proxy.close();
    },
  };
}
