import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import {
  startFileExchangeMock,
  type FileExchangeMock,
  type FileExchangeMockOptions,
  type TestCertificates,
} from '../src/index.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const soapContractDir = join(repoRoot, 'specs/file-exchange-soap');
export const SOAP_NS = 'urn:paykit:file-exchange:v1';

/** The certificates made once for the whole run (test/support/global-certificates.ts); removed after the run. */
export function suiteCertificates(): { certificates: TestCertificates; cleanup: () => Promise<void> } {
  return { certificates: inject('certificates'), cleanup: async () => undefined };
}

export type ClientIdentity = 'client-pfx' | 'client-pem' | 'foreign' | 'none';

/** An undici agent presenting the chosen identity and trusting the mock's CA. */
export async function agentFor(certificates: TestCertificates, identity: ClientIdentity): Promise<Agent> {
  const ca = certificates.caCertPem;
  switch (identity) {
    case 'client-pfx':
      return new Agent({ connect: { ca, pfx: await readFile(certificates.clientPfxPath), passphrase: certificates.clientPfxPassword } });
    case 'client-pem':
      return new Agent({ connect: { ca, cert: await readFile(certificates.clientCertPath), key: await readFile(certificates.clientKeyPath) } });
    case 'foreign':
      return new Agent({
        connect: { ca, pfx: await readFile(certificates.foreignClientPfxPath), passphrase: certificates.foreignClientPfxPassword },
      });
    case 'none':
      return new Agent({ connect: { ca } });
  }
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP exchange with undici, the body read in full. */
export async function send(
  dispatcher: Agent | undefined,
  url: string,
  init: { method?: 'GET' | 'POST' | 'DELETE'; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const response = await request(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body, dispatcher });
  const body = Buffer.from(await response.body.arrayBuffer());
  return { status: response.statusCode, headers: response.headers, body };
}

export function soapEnvelope(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:fx="${SOAP_NS}"><soap:Body>${body}</soap:Body></soap:Envelope>`;
}

export const soapHeaders = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: '""' };

/**
 * Validates a whole SOAP message, or a bare element of FileExchange.xsd, with libxml2 (xmllint-wasm); several messages
 * are validated in one run of it (each run compiles libxml2's WebAssembly in a worker of its own, most of its cost).
 */
export async function validateAgainstXsd(xml: string | string[], root: 'envelope' | 'element' = 'envelope') {
  const [xsd, envelopeXsd] = await Promise.all([
    readFile(join(soapContractDir, 'FileExchange.xsd'), 'utf8'),
    readFile(fileURLToPath(new URL('./fixtures/soap-envelope.xsd', import.meta.url)), 'utf8'),
  ]);
  const fileExchangeSchema = { fileName: 'FileExchange.xsd', contents: xsd };
  return validateXML({
    xml: [xml].flat().map((contents, index) => ({ fileName: `message-${index + 1}.xml`, contents })),
    schema: root === 'envelope' ? [{ fileName: 'soap-envelope.xsd', contents: envelopeXsd }] : [fileExchangeSchema],
    preload: root === 'envelope' ? [fileExchangeSchema] : [],
  });
}

export interface MockPerTest {
  certificates: TestCertificates;
  agent: Agent;
  mock: FileExchangeMock;
}

/**
 * Certificates and a client agent for the whole suite, and a fresh mock (empty store) for every test. The fields are
 * filled by the hooks, so read them inside tests, not at registration time.
 */
export function freshMockPerTest(options: Omit<FileExchangeMockOptions, 'certificates'> = {}): MockPerTest {
  const env = {} as MockPerTest;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ certificates: env.certificates, cleanup } = suiteCertificates());
    env.agent = await agentFor(env.certificates, 'client-pfx');
  });
  afterAll(async () => {
    await env.agent.close();
    await cleanup();
  });
  beforeEach(async () => {
    env.mock = await startFileExchangeMock({ ...options, certificates: env.certificates });
  });
  afterEach(() => env.mock.close());
  return env;
}
