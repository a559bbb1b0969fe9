import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestCertificates } from '@paykit/mock-server';
import { afterAll, beforeAll, inject } from 'vitest';
import { startHostileServer } from './hostile-server.js';

/** The namespace of the contract's messages, as the scripted answers write it. */
export const NS = 'urn:paykit:file-exchange:v1';
export const xml = { 'content-type': 'text/xml; charset=utf-8' };
export const text = { 'content-type': 'text/plain' };
/** A downloadFiles answer cut off inside the first file's content. */
export const partialSoap = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><downloadFilesResponse xmlns="${NS}"><file><fileID>F1</fileID><fileContent>QUJD`;

interface HostileSuiteState {
  dir: string;
  certificates: TestCertificates;
  server: Awaited<ReturnType<typeof startHostileServer>>;
}

/**
 * A test file against the hostile server: the suite's certificates, one server for the whole file, and a folder
 * (named `<prefix>…`) for its files; after the file, the server is closed and the folder removed.
 */
export function hostileSuite(prefix: string) {
  let state: HostileSuiteState | undefined;
  beforeAll(async () => {
    const certificates = inject('certificates');
    const dir = await mkdtemp(join(tmpdir(), prefix));
    state = { dir, certificates, server: await startHostileServer(certificates) };
  });
  afterAll(async () => {
    await state?.server.close();
    if (state) await rm(state.dir, { recursive: true, force: true });
  });
  const current = (): HostileSuiteState => {
    if (!state) throw new Error('the hostile server is started in beforeAll');
    return state;
  };
  return {
    get dir() {
      return current().dir;
    },
    get certificates() {
      return current().certificates;
    },
    get server() {
      return current().server;
    },
  };
}
