import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import soap from 'soap';
import { soapContract } from './generated/file-exchange-soap/contract.js';
import { mockSettings } from './generated/file-exchange-soap/mock-settings.js';
import { refusedClientCertificate } from './client-certificate.js';
import { contentFromBuffer } from './file-content.js';
import { soapWsdlPath } from './soap-contract.js';
import { FILE_NAME_PATTERN, type FileExchangeState, type InjectedFailure, type MockOperation, type QueuedFile } from './store.js';
import { asServedFrom, loadWsdlDocuments, type WsdlDocuments } from './wsdl-documents.js';

/** Where the WSDL's ports are served, each at `<base path>/<port>` as its soap:address says. */
export const SOAP_BASE_PATH = mockSettings.basePath;

type OperationName = keyof typeof soapContract.operations;
const operationNames = Object.keys(soapContract.operations) as OperationName[];

/** The failures injected with `failNext` for each operation of the WSDL. */
const mockOperation: Record<OperationName, MockOperation> = { uploadFile: 'soap-upload', downloadFiles: 'soap-download' };

/** The address of every port, under a SOAP address such as `https://127.0.0.1:4021/services/messaging`. */
export function soapPortUrls(soapUrl: string): string[] {
  return operationNames.map((name) => soapUrl + soapContract.operations[name].path.slice(SOAP_BASE_PATH.length));
}

/** The operation served at a request path (a trailing slash is allowed), if any. */
function operationAt(pathname: string): OperationName | undefined {
  return operationNames.find((name) => pathname.replace(/\/$/, '') === soapContract.operations[name].path);
}

export interface SoapServiceOptions {
  queueId: string;
  /** Content bytes per DownloadFiles response; a single larger file still goes alone. */
  maxResponseBytes: number;
  /**
   * The SOAP base address (`https://127.0.0.1:<port>/services/messaging`) as the client of `req` reaches it, read at
   * request time: the WSDL served at `?wsdl` gives it as its ports' addresses.
   */
  soapUrl: (req: IncomingMessage) => string;
}

interface SoapFault {
  Fault: { faultcode: string; faultstring: string; statusCode: number };
}

const fault = (faultcode: 'soap:Client' | 'soap:Server', faultstring: string): SoapFault => ({
  Fault: { faultcode, faultstring, statusCode: 500 },
});

/** Canonical base64 once whitespace is removed: the alphabet, padding at the end only, a multiple of 4 long. */
function isBase64(value: string): boolean {
  const compact = value.replace(/\s+/g, '');
  return compact.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(compact);
}

/** node-soap gives an optional element as undefined, a string, or an object when it carried attributes. */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && '$value' in value) return String((value as { $value: unknown }).$value);
  return typeof value === 'object' ? '' : String(value);
}

/**
 * The base64 text of `fileContent`, or undefined when the element is absent. node-soap gives an empty element
 * (`<fileContent/>`, or only whitespace) as null: that is an empty file, which `xs:base64Binary` allows.
 */
function fileContentText(args: Record<string, unknown>): string | undefined {
  if (!Object.hasOwn(args, 'fileContent')) return undefined;
  return text(args.fileContent) ?? '';
}

function parametersOf(value: unknown): Array<{ name: string; value: string }> | undefined {
  if (value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list.map((entry: { name?: unknown; value?: unknown }) => ({ name: text(entry?.name) ?? '', value: text(entry?.value) ?? '' }));
}

/** The element of one queued file, its children in the XSD's order. */
function fileElement(file: QueuedFile): Record<string, unknown> {
  const element: Record<string, unknown> = { fileID: file.fileID };
  if (file.fileType !== undefined) element.fileType = file.fileType;
  if (file.mimeType !== undefined) element.mimeType = file.mimeType;
  element.fileName = file.fileName;
  if (file.parameters?.length) element.parameter = file.parameters;
  element.fileContent = file.content.read().toString('base64');
  return element;
}

function faultEnvelope(status: number): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
    `<soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>injected failure (HTTP ${status})</faultstring>` +
    '</soap:Fault></soap:Body></soap:Envelope>'
  );
}

async function drain(req: IncomingMessage): Promise<void> {
  for await (const chunk of req) void chunk;
}

type Handler = (args: Record<string, unknown>, callback: unknown, headers: unknown, req: IncomingMessage, res: ServerResponse) => unknown;

/** The two operations over the shared state, as node-soap calls them. */
function operationHandlers(state: FileExchangeState, options: SoapServiceOptions): Record<OperationName, Handler> {
  return {
    uploadFile(args, _callback, _headers, _req, res) {
      const fileContent = fileContentText(args ?? {});
      if (fileContent === undefined) throw fault('soap:Client', 'fileContent is required');
      if (!isBase64(fileContent)) throw fault('soap:Client', 'fileContent is not base64');
      const fileName = text(args.fileName);
      if (fileName !== undefined && !FILE_NAME_PATTERN.test(fileName)) {
        throw fault('soap:Client', 'fileName not acceptable: letters, digits, underscores, dashes and full stops only');
      }
      state.storeSoapUpload({
        fileID: text(args.fileID),
        fileType: text(args.fileType),
        mimeType: text(args.mimeType),
        fileName,
        parameters: parametersOf(args.parameter),
        content: contentFromBuffer(Buffer.from(fileContent, 'base64')),
      });
      const failure = state.takeFailure('soap-upload');
      if (failure && 'dropConnection' in failure) {
        res.socket?.destroy();
        return new Promise(() => {}); // never answered: the connection is gone
      }
      if (failure) throw fault('soap:Server', `injected failure (HTTP ${failure.status})`);
      return {};
    },
    downloadFiles(args, _callback, _headers, _req, res) {
      if (text(args.queueID) !== options.queueId) throw fault('soap:Client', 'unknown queueID');
      const batch = state.nextSoapBatch(options.maxResponseBytes);
      const failure = state.takeFailure('soap-download');
      // Files leave the queue once their response has been handed to the network; a broken connection keeps them.
      if (!failure) res.once('finish', () => state.markDelivered(batch));
      return batch.length === 0 ? {} : { file: batch.map(fileElement) };
    },
  };
}

/** node-soap's services object: service -> port -> operation, named as the WSDL names them. */
function soapServices(handlers: Record<OperationName, Handler>): Record<string, Record<string, Record<string, Handler>>> {
  const services: Record<string, Record<string, Record<string, Handler>>> = {};
  for (const name of operationNames) {
    const { service, port } = soapContract.operations[name];
    ((services[service] ??= {})[port] ??= {})[name] = handlers[name];
  }
  return services;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Failures applied before the service acts. Left for the service itself: an upload's 500 or dropped connection
 * (after storing) and a download's `afterResponse` (the response goes out but does not count as delivered).
 */
function earlyFailure(state: FileExchangeState, operation: MockOperation): InjectedFailure | undefined {
  return state.takeFailure(operation, (failure) => {
    if (operation === 'soap-upload') return 'status' in failure && failure.status !== 500;
    return !('afterResponse' in failure && failure.afterResponse);
  });
}

/**
 * Serves the WSDL's ports on `server` with the `soap` package, behind a gate that answers 403 to a client without an
 * accepted certificate and applies injected failures.
 */
export async function attachSoapService(server: HttpServer, state: FileExchangeState, options: SoapServiceOptions): Promise<void> {
  const wsdlPath = soapWsdlPath();
  const documents = await loadWsdlDocuments(wsdlPath);
  const xml = documents.wsdl;
  const paths = operationNames.map((name) => escapeRegExp(soapContract.operations[name].path));
  await new Promise<void>((resolve, reject) => {
    soap.listen(server, {
      path: new RegExp(`^(?:${paths.join('|')})/$`),
      services: soapServices(operationHandlers(state, options)),
      xml,
      uri: wsdlPath,
      enableChunkedEncoding: false,
      suppressStack: true,
      callback: (error: unknown) => (error ? reject(error) : resolve()),
    } satisfies soap.IServerOptions);
  });

  const soapListeners = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void gate(req, res).catch(() => res.destroy());
  });

  async function gate(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (await refusedClientCertificate(req, res)) return;
    const url = new URL(req.url ?? '/', 'http://mock');
    if (req.method === 'GET' && serveDocument(documents, url, options.soapUrl(req), res)) return;
    const operation = operationAt(url.pathname);
    if (!operation) {
      await drain(req);
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('no such SOAP port\n');
      return;
    }
    const failure = earlyFailure(state, mockOperation[operation]);
    if (failure) {
      await drain(req);
      if ('dropConnection' in failure) {
        req.socket.destroy();
        return;
      }
      if (failure.status === 403) {
        res.writeHead(403, { 'Content-Length': '0' }).end();
        return;
      }
      res.writeHead(failure.status, { 'Content-Type': 'text/xml; charset=utf-8' }).end(faultEnvelope(failure.status));
      return;
    }
    for (const listener of soapListeners) listener.call(server, req, res);
  }
}

/**
 * Answers a GET for the WSDL (`<port address>?wsdl`) or for a schema it imports (`<base path>/<file>`), rewritten to
 * the addresses the mock listens on; false when the request is for neither.
 */
function serveDocument(documents: WsdlDocuments, url: URL, soapUrl: string, res: ServerResponse): boolean {
  let document: string | undefined;
  if (operationAt(url.pathname) && url.search.toLowerCase().startsWith('?wsdl')) document = documents.wsdl;
  else if (url.pathname.startsWith(`${SOAP_BASE_PATH}/`)) document = documents.schemas.get(url.pathname.slice(SOAP_BASE_PATH.length + 1));
  if (document === undefined) return false;
  const body = Buffer.from(asServedFrom(document, soapUrl), 'utf8');
  res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': String(body.length) }).end(body);
  return true;
}
