import { readFile } from 'node:fs/promises';
import { TlsConfigurationError } from '@paykit/file-exchange';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { AccessRefusedError, TlsHandshakeError, type ClientTlsOptions } from '../src/index.js';
import { fastRetry, startMock, type MockFixture } from './support/mock.js';

let fixture: MockFixture;
beforeAll(async () => {
  fixture = await startMock();
});
afterAll(async () => fixture?.close());

describe('client-certificate TLS against the SOAP mock', () => {
  const accepted: Array<[string, () => Promise<ClientTlsOptions>]> = [
    ['PKCS12 file path and password', async () => ({ pfx: fixture.certificates.clientPfxPath, passphrase: fixture.certificates.clientPfxPassword, ca: fixture.certificates.caCertPath })],
    ['PKCS12 bytes and password', async () => ({ pfx: await readFile(fixture.certificates.clientPfxPath), passphrase: fixture.certificates.clientPfxPassword, ca: fixture.certificates.caCertPem })],
    ['PEM certificate and key', async () => ({ cert: fixture.certificates.clientCertPath, key: fixture.certificates.clientKeyPath, ca: fixture.certificates.caCertPem })],
  ];

  it.each(accepted)('works with %s', async (_name, tls) => {
    const client = await fixture.client({ tls: await tls() });
    const before = fixture.mock.store.uploads().length;
    await client.uploadFile({ fileID: `tls-${_name}`, fileContent: Buffer.from('accepted') });
    expect(fixture.mock.store.uploads()).toHaveLength(before + 1);
  });

  it('turns the 403 for a certificate from another CA into AccessRefusedError, without retrying', async () => {
    const retries: number[] = [];
    const client = await fixture.client({
      tls: { pfx: fixture.certificates.foreignClientPfxPath, passphrase: fixture.certificates.foreignClientPfxPassword, ca: fixture.certificates.caCertPem },
      retry: { ...fastRetry, intervalMs: 1, onRetry: ({ attempt }) => retries.push(attempt) },
    });
    const before = fixture.mock.store.uploads().length;
    const error = await client.uploadFile({ fileID: 'foreign', fileContent: Buffer.from('refused') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccessRefusedError);
    expect((error as AccessRefusedError).status).toBe(403);
    expect(retries).toEqual([]);
    expect(fixture.mock.store.uploads()).toHaveLength(before);
  });

  it('fails at create with TlsConfigurationError for a wrong password, which the message does not repeat', async () => {
    const wrong = 'Cwrong-password-1234';
    const error = await fixture
      .client({ tls: { pfx: fixture.certificates.clientPfxPath, passphrase: wrong, ca: fixture.certificates.caCertPem } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TlsConfigurationError);
    expect(String((error as Error).message)).not.toContain(wrong);
    expect(JSON.stringify(error)).not.toContain(wrong);
  });

  it('refuses a server whose certificate is not signed by the given CA, as TlsHandshakeError', async () => {
    const client = await fixture.client({
      // The foreign PFX's CA is not the mock's: trusting only it must make the server certificate untrusted.
      tls: { pfx: fixture.certificates.clientPfxPath, passphrase: fixture.certificates.clientPfxPassword, ca: await foreignCa() },
    });
    const error = await client.downloadFiles(fixture.mock.queueId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TlsHandshakeError);
    expect((error as TlsHandshakeError).reason).toBe('server-certificate-untrusted');
    expect((error as Error).message).not.toContain(fixture.certificates.clientPfxPassword);
  });
});

/** A CA certificate the mock's server certificate does not chain to: the system's roots are replaced by it. */
async function foreignCa(): Promise<string> {
  return inject('otherCertificates').caCertPem;
}
