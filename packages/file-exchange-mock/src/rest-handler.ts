import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { soapContract } from './generated/file-exchange-soap/contract.js';
import { mockSettings } from './generated/file-exchange/mock-settings.js';
import { rules } from './generated/file-exchange/rules.js';
import { refusedClientCertificate } from './client-certificate.js';
import { ContentSink, spillPathIn } from './file-content.js';
import { FILE_NAME_PATTERN, type FileExchangeState, type MockOperation } from './store.js';

/** The base path of the REST contract's server URL. */
export const REST_BASE_PATH = mockSettings.basePath;

type Route =
  | { operation: 'upload'; fileName: string }
  | { operation: 'list' }
  | { operation: 'download' | 'delete'; fileName: string }
  | { operation: 'wrong-address' };

function route(method: string | undefined, pathname: string): Route {
  if (!pathname.startsWith(`${REST_BASE_PATH}/`)) return { operation: 'wrong-address' };
  const path = pathname.slice(REST_BASE_PATH.length);
  const upload = /^\/uploadedFiles\/([^/]+)$/.exec(path);
  if (upload && method === 'POST') return { operation: 'upload', fileName: upload[1]! };
  if (path === '/filesForDownload/' && method === 'GET') return { operation: 'list' };
  const file = /^\/filesForDownload\/([^/]+)$/.exec(path);
  if (file && method === 'GET') return { operation: 'download', fileName: file[1]! };
  if (file && method === 'DELETE') return { operation: 'delete', fileName: file[1]! };
  return { operation: 'wrong-address' };
}

/** The decoded name, or undefined when it is not a name the service accepts. */
function fileNameOf(encoded: string): string | undefined {
  try {
    const name = decodeURIComponent(encoded);
    return FILE_NAME_PATTERN.test(name) ? name : undefined;
  } catch {
    return undefined;
  }
}

function answer(res: ServerResponse, status: number, body?: string, contentType = 'text/plain; charset=utf-8'): void {
  if (body === undefined) {
    res.writeHead(status, { 'Content-Length': '0' }).end();
    return;
  }
  const bytes = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(bytes.length) }).end(bytes);
}

/** Reads and forgets a request body, so that an early answer does not break the client's upload mid-stream. */
async function drain(req: IncomingMessage): Promise<void> {
  for await (const chunk of req) void chunk;
}

function wantsXml(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  const xml = types.findIndex((type) => type === 'application/xml' || type === 'text/xml');
  const plain = types.findIndex((type) => type === 'text/plain');
  return xml !== -1 && (plain === -1 || xml < plain);
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function xmlList(names: string[]): string {
  // The reference puts the XML form of the list in the namespace of the SOAP messages.
  const root = `downloadFileList xmlns="${soapContract.namespace}"`;
  if (names.length === 0) return `<?xml version="1.0" encoding="UTF-8"?><${root}/>`;
  const children = names.map((name) => `<fileName>${escapeXml(name)}</fileName>`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?><${root}><file>${children}</file></downloadFileList>`;
}

/** The REST file exchange over one shared state; `spillDir` holds large uploads. */
export function createRestHandler(state: FileExchangeState, spillDir: string) {
  let uploadSequence = 0;

  async function upload(req: IncomingMessage, res: ServerResponse, encodedName: string): Promise<void> {
    // The reference lists Content-Length among an upload's headers and gives no status for its absence: HTTP's 411.
    if (req.headers['content-length'] === undefined) {
      await drain(req);
      return answer(res, 411, 'Content-Length required: send the file with its length in bytes, not chunked\n');
    }
    const fileName = fileNameOf(encodedName);
    if (fileName === undefined) {
      await drain(req);
      return answer(res, 404, 'file name not acceptable: letters, digits, underscores, dashes and full stops only\n');
    }
    if (!state.beginUpload()) {
      await drain(req);
      return answer(res, rules.uploads.busyStatus, 'too many files uploaded at once: upload one at a time\n');
    }
    try {
      const early = state.takeFailure('upload', (failure) => 'status' in failure && failure.status !== 500);
      if (early && 'status' in early) {
        await drain(req);
        return answer(res, early.status);
      }
      uploadSequence += 1;
      const sink = new ContentSink(spillPathIn(spillDir, uploadSequence));
      try {
        await pipeline(req, async (source: AsyncIterable<Buffer>) => {
          for await (const chunk of source) await sink.write(chunk);
        });
      } catch (error) {
        sink.discard(); // the client went away mid-upload: nothing was transferred
        throw error;
      }
      const content = await sink.finish();
      const outcome = state.storeRestUpload(fileName, content, req.headers['content-type']);
      const late = state.takeFailure('upload');
      if (late) return fail(res, late);
      if (outcome === 'name-reused') return answer(res, 400, 'file name already used for a different file\n');
      return answer(res, 202);
    } finally {
      state.endUpload();
    }
  }

  function list(req: IncomingMessage, res: ServerResponse): void {
    const names = state.listForDownload();
    if (wantsXml(req.headers.accept)) return answer(res, 200, xmlList(names), 'application/xml; charset=utf-8');
    if (names.length === 0) return answer(res, 204);
    answer(res, 200, names.map((name) => `${name}\n`).join(''));
  }

  async function download(res: ServerResponse, encodedName: string): Promise<void> {
    const fileName = fileNameOf(encodedName);
    const outcome = fileName === undefined ? ({ kind: 'not-found' } as const) : state.download(fileName);
    if (outcome.kind === 'not-found') return answer(res, 404, 'file not in the download list\n');
    if (outcome.kind === 'too-many-attempts') return answer(res, rules.downloads.exhaustedStatus, 'too many download attempts for this file\n');
    const { file } = outcome;
    res.writeHead(200, {
      'Content-Type': file.mimeType ?? 'application/octet-stream',
      'Content-Length': String(file.content.size),
    });
    await pipeline(file.content.stream(), res);
  }

  function remove(res: ServerResponse, encodedName: string): void {
    const fileName = fileNameOf(encodedName);
    if (fileName === undefined || !state.delete(fileName)) return answer(res, 404, 'file name not valid: copy it exactly from the list\n');
    answer(res, 204);
  }

  function fail(res: ServerResponse, failure: NonNullable<ReturnType<FileExchangeState['takeFailure']>>): void {
    if ('dropConnection' in failure) {
      res.socket?.destroy();
      return;
    }
    answer(res, failure.status);
  }

  return async function handleRestRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { pathname } = new URL(req.url ?? '/', 'http://mock');
    const target = route(req.method, pathname);
    try {
      if (await refusedClientCertificate(req, res)) return;
      if (target.operation === 'wrong-address') {
        await drain(req);
        return answer(res, 404, 'no such resource\n');
      }
      if (target.operation !== 'upload') {
        const failure = state.takeFailure(target.operation satisfies MockOperation);
        if (failure) {
          await drain(req);
          return fail(res, failure);
        }
      }
      switch (target.operation) {
        case 'upload':
          return await upload(req, res, target.fileName);
        case 'list':
          return list(req, res);
        case 'download':
          return await download(res, target.fileName);
        case 'delete':
          return remove(res, target.fileName);
      }
    } catch {
      // The client went away or a stream failed: nothing more can be answered on this connection.
      if (!res.headersSent) answer(res, 500);
      else res.destroy();
    }
  };
}
