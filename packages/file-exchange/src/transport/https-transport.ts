import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { ClientTlsOptions } from '../core/tls/client-tls-options.js';
import { Socket } from 'node:net';
import { createSecureContext, TLSSocket } from 'node:tls';
import { loadTlsMaterial, type TlsMaterial } from '../core/tls/load-tls-material.js';
import { parseProxyUrl } from '../core/tls/proxy-url.js';
import { createHttpsAgent } from './https-agent.js';
import { plainHttpAgent, transfer, type TransferRequest } from './node-transfer.js';

export type { TransferRequest };

/**
 * The one HTTP transport of both clients (REST and SOAP): node:https with one keep-alive agent that presents the
 * client certificate (and tunnels through the proxy with CONNECT), and one stall timer per request (see `transfer`).
 * Chosen over undici by the transfer bench (see the README of `@paykit/file-exchange`): the same time for a 1 GiB
 * upload and download, and about 40 MiB less memory (undici's HTTP parser is WebAssembly, compiled on first use).
 * Both clients meeting a network on the same stack means one set of error codes to classify and one fix for a fault.
 */
export class HttpsTransport {
  private constructor(
    private readonly agent: HttpsAgent | HttpAgent,
    /** When the client certificate stops being valid (its notAfter), when there is one. */
    readonly certificateExpiresAt: Date | undefined,
  ) {}

  /**
   * For `baseUrl` (already checked): https with the certificate material of `tls` (opened here, so a wrong password
   * fails now with TlsConfigurationError), or plain http to this machine, for a local mock, where the certificate is
   * checked but not sent.
   */
  static async create(baseUrl: string, tls: ClientTlsOptions | undefined): Promise<HttpsTransport> {
    const material = tls === undefined ? undefined : await loadTlsMaterial(tls);
    const proxy = tls?.proxy === undefined ? undefined : parseProxyUrl(tls.proxy);
    const secure = baseUrl.startsWith('https:');
    return new HttpsTransport(secure && material ? createHttpsAgent(material, proxy) : plainHttpAgent(), material && certificateExpiry(material));
  }

  /** One exchange: resolves with the response once its head arrived; see `transfer`. */
  send(request: TransferRequest): Promise<IncomingMessage> {
    return transfer(this.agent, request);
  }

  /** Closes every connection, those in use included: nothing of the transport keeps the process alive afterwards. */
  close(): void {
    this.agent.destroy();
  }
}

/**
 * The client certificate's notAfter, read locally from the material (a PKCS12 bundle or PEM) through Node's TLS
 * layer: the service's 403 for an expired certificate does not say why, and a warning weeks before is what an
 * operator needs.
 */
function certificateExpiry(material: TlsMaterial): Date | undefined {
  try {
    const { ca: _ca, ...credentials } = material;
    const socket = new TLSSocket(new Socket(), { secureContext: createSecureContext(credentials) });
    const validTo = (socket.getCertificate() as { valid_to?: string } | null)?.valid_to;
    socket.destroy();
    const date = validTo ? new Date(validTo) : undefined;
    return date && !Number.isNaN(date.getTime()) ? date : undefined;
  } catch {
    return undefined;
  }
}
