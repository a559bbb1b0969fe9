import { FileExchangeError, type FileExchangeClient } from '@paykit/file-exchange';
import type { ExampleRequest } from './example-request.js';
import type { MatrixCase } from './matrix-cases.js';

/** What a call through the file exchange client came to, as plain data. */
export type FileExchangeOutcome =
  | { outcome: 'success'; data: unknown }
  | { outcome: 'error'; name: string; status: number | undefined };

type Invocation = (client: FileExchangeClient, request: ExampleRequest, mediaType: string | undefined) => Promise<unknown>;

/**
 * How each REST operation is called on our client. The client has one hand-written method per operation (there is
 * no generated method table to drive), so this is the one place that names them; an operation added to the spec
 * without a method here fails the matrix with a message saying so.
 */
export const fileExchangeInvocations: Readonly<Record<string, Invocation>> = {
  uploadFile: async (client, request) => {
    await client.upload(request.path.fileName ?? '', Buffer.from(String(request.body)), {
      contentType: request.bodyMediaType ?? 'application/octet-stream',
    });
    return undefined;
  },
  listFilesForDownload: (client, _request, mediaType) => client.list({ format: mediaType === 'application/xml' ? 'xml' : 'text' }),
  downloadFile: async (client, request) => {
    const file = await client.download(request.path.fileName ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of file.body) chunks.push(Buffer.from(chunk as Buffer));
    return { contentType: file.contentType, content: Buffer.concat(chunks).toString('utf8') };
  },
  deleteFile: async (client, request) => {
    await client.delete(request.path.fileName ?? '');
    return undefined;
  },
};

export async function invokeFileExchangeOperation(client: FileExchangeClient, matrixCase: Pick<MatrixCase, 'operation' | 'request' | 'mediaType'>): Promise<FileExchangeOutcome> {
  const invoke = fileExchangeInvocations[matrixCase.operation.operationId];
  if (!invoke) throw new Error(`@paykit/file-exchange has no method mapped for ${matrixCase.operation.operationId}`);
  try {
    return { outcome: 'success', data: await invoke(client, matrixCase.request, matrixCase.mediaType) };
  } catch (error) {
    if (!(error instanceof FileExchangeError)) throw error;
    return { outcome: 'error', name: error.name, status: error.status };
  }
}

/** File names in a list body, read independently of the client: one per line, or the `fileName` elements. */
export function fileNamesOnTheWire(text: string, mediaType: string | undefined): string[] {
  if (mediaType === 'application/xml') {
    return [...text.matchAll(/<(?:[\w.-]+:)?fileName(?:\s[^>]*)?>([^<]*)<\/(?:[\w.-]+:)?fileName>/g)].map((m) => (m[1] ?? '').trim());
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}
