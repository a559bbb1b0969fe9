import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import { isUnspecifiedAddress, reachedOrigin } from './reached-address.js';
import { rules } from './generated/file-exchange/rules.js';
import { generateTestCertificates, type TestCertificates } from './certificates.js';
import { clientCertificateTls, refusedClientCertificate } from './client-certificate.js';
import { DownloadInbox, type InboxEvent } from './inbox.js';
import { controlPrefix, createControlHandler } from './control.js';
import { createRestHandler, REST_BASE_PATH } from './rest-handler.js';
import { attachSoapService, SOAP_BASE_PATH } from './soap-service.js';
import { FileExchangeState, type FileExchangeStore, type UploadedFileRecord } from './store.js';

export interface FileExchangeMockOptions {
  host?: string;
  /** 0 (the default) picks a free port. */
  restPort?: number;
  soapPort?: number;
  /** Client-certificate TLS (default true). False serves plain HTTP without authentication. */
  tls?: boolean;
  /** Default: generated into `<cwd>/.paykit/certs`. */
  certificates?: TestCertificates;
  /** Content bytes per SOAP DownloadFiles response (default 1 MiB). */
  soapMaxResponseBytes?: number;
  /** Downloads allowed per file before 429 (default: the contract's, 50). */
  maxDownloadAttempts?: number;
  /** Entries per list (default: the contract's, 1000). */
  maxListEntries?: number;
  /** The SOAP download queue (default `PAYKIT-TEST-QUEUE`). */
  queueId?: string;
  /** Decides, after answering 202, that an upload is malformed: the reason is recorded in `store.uploads()`. */
  rejectUpload?: (upload: UploadedFileRecord) => string | undefined;
  /**
   * A folder whose files join the download queue (created if missing): each file, once its size stays the same
   * between two scans, is moved to `<dir>/queued/` and queued under its name; a name the service would refuse goes
   * to `<dir>/refused/`. Names starting with a dot are left alone (write under one, then rename).
   */
  inbox?: { dir: string; scanIntervalMs?: number; onEvent?: (event: InboxEvent) => void };
}

export interface FileExchangeMock {
  /** e.g. `https://127.0.0.1:4020/services/messaging/rest` */
  restUrl: string;
  /** The control interface (fault injection), e.g. `https://127.0.0.1:4020/__mock`; only over client-certificate TLS. */
  controlUrl?: string;
  /** e.g. `https://127.0.0.1:4021/services/messaging`; the ports are `${soapUrl}/UploadFile` and `/DownloadFiles`. */
  soapUrl: string;
  queueId: string;
  certificates?: TestCertificates;
  store: FileExchangeStore;
  /** The watched folder, when `inbox` was given; `scan()` takes what is ready now instead of at the next tick. */
  inbox?: { dir: string; scan(): Promise<void> };
  close(): Promise<void>;
}

/** Scans of the inbox folder: a file is queued within two of them once it stops changing. */
const DEFAULT_INBOX_SCAN_MS = 250;

async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

/** Starts the stateful file exchange: REST and SOAP on their own ports over one store. */
export async function startFileExchangeMock(options: FileExchangeMockOptions = {}): Promise<FileExchangeMock> {
  const host = options.host ?? '127.0.0.1';
  const useTls = options.tls ?? true;
  const certificates = useTls
    ? (options.certificates ?? (await generateTestCertificates(join(process.cwd(), '.paykit', 'certs'))))
    : options.certificates;
  const state = new FileExchangeState({
    maxDownloadAttempts: options.maxDownloadAttempts ?? rules.downloads.maxAttemptsPerFile,
    maxListEntries: options.maxListEntries ?? rules.downloads.listCap,
    rejectUpload: options.rejectUpload,
  });
  const spillDir = await mkdtemp(join(tmpdir(), 'paykit-file-exchange-'));
  const handleRest = createRestHandler(state, spillDir);

  const servers: Server[] = [];
  let inbox: DownloadInbox | undefined;
  let inboxTimer: NodeJS.Timeout | undefined;
  const stopInbox = async () => {
    clearInterval(inboxTimer);
    await inbox?.stop();
  };
  try {
    let restServer: Server;
    let soapServer: Server;
    if (useTls && certificates) {
      const [key, cert] = await Promise.all([readFile(certificates.serverKeyPath), readFile(certificates.serverCertPath)]);
      const tlsOptions = { key, cert, ca: certificates.caCertPem, ...clientCertificateTls };
      // The control interface shares the REST side and its client certificate; without TLS there is none.
      const handleControl = createControlHandler(state);
      restServer = createHttpsServer(tlsOptions, (req, res) =>
        (req.url ?? '').startsWith(`${controlPrefix}/`)
          ? void refusedClientCertificate(req, res).then((refused) => (refused ? undefined : handleControl(req, res)))
          : handleRest(req, res),
      );
      soapServer = createHttpsServer(tlsOptions);
    } else {
      restServer = createHttpServer(handleRest);
      soapServer = createHttpServer();
    }
    servers.push(restServer, soapServer);
    const queueId = options.queueId ?? 'PAYKIT-TEST-QUEUE';
    let soapUrl = '';
    await attachSoapService(soapServer, state, {
      queueId,
      maxResponseBytes: options.soapMaxResponseBytes ?? 1024 * 1024,
      soapUrl: (req) => (isUnspecifiedAddress(host) ? reachedOrigin(req, useTls ? 'https' : 'http') + SOAP_BASE_PATH : soapUrl),
    });
    const restPort = await listen(restServer, host, options.restPort ?? 0);
    const soapPort = await listen(soapServer, host, options.soapPort ?? 0);
    const scheme = useTls ? 'https' : 'http';
    // Listening on every interface, the URLs this process hands out name the loopback address of the same family:
    // the unspecified address itself is no address to call (WSDLs served to others use the address they reached).
    const advertised = isUnspecifiedAddress(host) ? (host.includes(':') ? '::1' : '127.0.0.1') : host;
    const origin = (port: number) => `${scheme}://${advertised.includes(':') ? `[${advertised}]` : advertised}:${port}`;
    soapUrl = origin(soapPort) + SOAP_BASE_PATH;
    if (options.inbox) {
      inbox = await DownloadInbox.open(resolvePath(options.inbox.dir), state, options.inbox.onEvent);
      const watched = inbox;
      inboxTimer = setInterval(() => void watched.scan(), options.inbox.scanIntervalMs ?? DEFAULT_INBOX_SCAN_MS);
      void watched.scan();
    }
    return {
      restUrl: origin(restPort) + REST_BASE_PATH,
      ...(useTls ? { controlUrl: origin(restPort) + controlPrefix } : {}),
      soapUrl,
      queueId,
      certificates,
      store: state,
      ...(inbox ? { inbox } : {}),
      close: async () => {
        await stopInbox();
        await Promise.all(servers.map(close));
        await rm(spillDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopInbox();
    await Promise.all(servers.map(close));
    await rm(spillDir, { recursive: true, force: true });
    throw error;
  }
}
