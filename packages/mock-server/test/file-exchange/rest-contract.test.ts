import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { mockSpecPath } from '../../src/index.js';

interface Operation {
  operationId: string;
  responses: Record<string, unknown>;
  requestBody?: { required?: boolean; content: Record<string, unknown> };
}

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

const bundle = async () =>
  JSON.parse(await readFile(mockSpecPath('file-exchange'), 'utf8')) as { paths: Record<string, Record<string, Operation>> };

// The reference's endpoint and status tables, operation by operation.
describe('the file exchange REST contract', () => {
  test.each([
    ['post', '/uploadedFiles/{fileName}', 'uploadFile', ['202', '400', '403', '404', '500', '503']],
    ['get', '/filesForDownload/', 'listFilesForDownload', ['200', '204', '403', '404', '500']],
    ['get', '/filesForDownload/{fileName}', 'downloadFile', ['200', '403', '404', '429', '500']],
    ['delete', '/filesForDownload/{fileName}', 'deleteFile', ['204', '403', '404', '500']],
  ])('%s %s is %s with the statuses %j', async (method, path, operationId, statuses) => {
    const operation = (await bundle()).paths[`/services/messaging/rest${path}`]?.[method];
    expect(operation?.operationId).toBe(operationId);
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(statuses);
  });

  test('an upload takes a required body of any media type', async () => {
    const operation = (await bundle()).paths['/services/messaging/rest/uploadedFiles/{fileName}']!.post!;
    expect(operation.requestBody?.required).toBe(true);
    expect(Object.keys(operation.requestBody!.content)).toEqual(['*/*']);
  });

  test('the list comes as text/plain and application/xml', async () => {
    const operation = (await bundle()).paths['/services/messaging/rest/filesForDownload/']!.get!;
    expect(Object.keys((operation.responses['200'] as { content: object }).content)).toEqual(['text/plain', 'application/xml']);
  });

  test('every operation requires the mutualTLS scheme (in the source contract; the Prism bundle drops it)', async () => {
    const source = await readFile(join(repoRoot, 'specs/file-exchange/openapi.yaml'), 'utf8');
    expect(source).toMatch(/^security:\n {2}- mutualTLS: \[\]$/m);
    expect(source).toMatch(/^ {4}mutualTLS:\n {6}type: mutualTLS$/m);
    // No operation overrides the root requirement.
    for (const file of ['uploadedFiles_{fileName}.yaml', 'filesForDownload.yaml', 'filesForDownload_{fileName}.yaml']) {
      expect(await readFile(join(repoRoot, 'specs/file-exchange/paths', file), 'utf8')).not.toMatch(/security:/);
    }
  });

  test('the server address is templated and ends with /services/messaging/rest', async () => {
    const source = await readFile(join(repoRoot, 'specs/file-exchange/openapi.yaml'), 'utf8');
    expect(source).toContain("url: '{scheme}://{host}/services/messaging/rest'");
  });
});
