import { FileExchangeClient, TransientFailureError } from '@paykit/file-exchange';
import type { TestCertificates } from '@paykit/mock-server';
import { FileExchangeSoapClient } from '../../src/index.js';
import { answer, type Behaviour, type startHostileServer } from './hostile-server.js';
import { emptySoapResponse } from './streamed-soap-file.js';

export type Clients = { rest: FileExchangeClient; soap: FileExchangeSoapClient };
type HostileServer = Awaited<ReturnType<typeof startHostileServer>>;
type Retry = Parameters<typeof FileExchangeClient.create>[0]['retry'];

/** `rest` for a request of the REST interface, `soap` for one of the SOAP interface. */
export const byInterface =
  (rest: Behaviour, soap: Behaviour): Behaviour =>
  (req, res) =>
    (req.url?.includes('/services/messaging/rest/') ? rest : soap)(req, res);

/** The answer to a call that opens a connection: an empty list, REST or SOAP. */
export const emptyList: Behaviour = byInterface(answer(204), emptySoapResponse);

/** Calls that open (warm) a connection of each client: both get `emptyList`'s answer. */
export const restWarm = ({ rest }: Clients) => rest.list();
export const soapWarm = ({ soap }: Clients) => soap.downloadFiles('Q0');

/** Both clients, on a scope of `server` of their own (see startHostileServer.scope). */
export async function scopedClients(
  server: HostileServer,
  certificates: TestCertificates,
  token: string,
  otherwise: Behaviour,
  options: { retry: Retry; stallTimeoutMs?: number },
) {
  const scope = server.scope(token, otherwise);
  const tls = { pfx: certificates.clientPfxPath, passphrase: certificates.clientPfxPassword, ca: certificates.caCertPem };
  const clients: Clients = {
    rest: await FileExchangeClient.create({ baseUrl: scope.restUrl, tls, ...options }),
    soap: await FileExchangeSoapClient.create({ baseUrl: scope.soapUrl, tls, ...options }),
  };
  return { scope, clients, close: () => Promise.all([clients.rest.close(), clients.soap.close()]) };
}

/**
 * Runs `call` until one completes: its connection, TLS handshake done, is then kept for the call under test, so that
 * the call's timers run in the phase the test is about and not in a handshake, which a loaded machine can make last
 * longer than a short stall timeout (a stall, rightly: the try is made again).
 */
export async function warmUp(call: () => Promise<unknown>): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      await call();
      // The agent gives a connection back to its pool on a turn of the event loop after the one its response ended
      // on: a call made before then would open another.
      await new Promise((resolve) => setImmediate(resolve));
      return;
    } catch (error) {
      if (!(error instanceof TransientFailureError && error.code === 'ETIMEDOUT') || tries === 5) throw error;
    }
  }
}
