import { X509Certificate } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestCertificates } from '../src/index.js';
import { suiteCertificates } from './helpers.js';

describe('generateTestCertificates', () => {
  let certificates: TestCertificates;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    // What generateTestCertificates wrote for this run (test/support/global-certificates.ts): generating RSA keys again
    // here took more than a hook's 10 s on a loaded 2-core machine.
    ({ certificates, cleanup } = suiteCertificates());
  });
  afterAll(() => cleanup());

  test('the client PKCS12 password starts with C, like the operator’s', () => {
    expect(certificates.clientPfxPassword).toMatch(/^C.{8,}/);
    expect(certificates.foreignClientPfxPassword).toMatch(/^C.{8,}/);
    expect(certificates.clientPfxPassword).not.toBe(certificates.foreignClientPfxPassword);
  });

  test.each([
    ['client', 'clientPfxPath', 'clientPfxPassword'],
    ['foreign client', 'foreignClientPfxPath', 'foreignClientPfxPassword'],
  ] as const)('the %s PKCS12 opens in Node’s OpenSSL 3 without the legacy provider', async (_, path, password) => {
    const pfx = await readFile(certificates[path]);
    expect(() => createSecureContext({ pfx, passphrase: certificates[password] })).not.toThrow();
  });

  test('a wrong PKCS12 password is refused', async () => {
    const pfx = await readFile(certificates.clientPfxPath);
    expect(() => createSecureContext({ pfx, passphrase: 'Cwrong' })).toThrow(/mac verify failure/);
  });

  test.each([
    ['client certificate', 'clientCertPath', true],
    ['server certificate', 'serverCertPath', true],
  ] as const)('the %s is signed by the generated CA', async (_, path, signed) => {
    const ca = new X509Certificate(certificates.caCertPem);
    const certificate = new X509Certificate(await readFile(certificates[path]));
    expect(certificate.verify(ca.publicKey)).toBe(signed);
    expect(certificate.checkIssued(ca)).toBe(signed);
  });

  test('the server certificate names the loopback addresses', async () => {
    const certificate = new X509Certificate(await readFile(certificates.serverCertPath));
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkHost('localhost')).toBe('localhost');
  });

  test('the PEM client certificate and key belong together', async () => {
    const certificate = new X509Certificate(await readFile(certificates.clientCertPath));
    const key = await readFile(certificates.clientKeyPath, 'utf8');
    expect(key).toMatch(/^-----BEGIN (RSA )?PRIVATE KEY-----/);
    expect(certificate.checkPrivateKey((await import('node:crypto')).createPrivateKey(key))).toBe(true);
  });

  test.each(['clientKeyPath', 'serverKeyPath', 'clientPfxPath', 'foreignClientPfxPath'] as const)(
    '%s is readable by its owner only',
    async (path) => {
      expect((await stat(certificates[path])).mode & 0o077).toBe(0);
    },
  );
});
