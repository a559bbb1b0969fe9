import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import forge from 'node-forge';

/** The files written by {@link generateTestCertificates}; paths are absolute. */
export interface TestCertificates {
  dir: string;
  caCertPath: string;
  caCertPem: string;
  serverCertPath: string;
  serverKeyPath: string;
  clientPfxPath: string;
  /** Starts with "C", like the passwords of the operator's certificates. */
  clientPfxPassword: string;
  clientCertPath: string;
  /** PEM, unencrypted. */
  clientKeyPath: string;
  /** A client certificate signed by another CA, which the mocks must refuse. */
  foreignClientPfxPath: string;
  foreignClientPfxPassword: string;
}

interface Issued {
  certificate: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// Node's native generator is much faster than forge's pure-JavaScript one; forge only signs and packages.
function newKeyPair(): { privateKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const forgeKey = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  return { privateKey: forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e) };
}

function issue(
  commonName: string,
  extensions: object[],
  issuer?: Issued,
  validityDays = 365,
): Issued {
  const keys = newKeyPair();
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = keys.publicKey;
  // A positive serial: the first hex digit below 8 keeps the DER integer's sign bit clear.
  certificate.serialNumber = '1' + randomBytes(15).toString('hex');
  certificate.validity.notBefore = new Date(Date.now() - DAY_MS);
  certificate.validity.notAfter = new Date(Date.now() + validityDays * DAY_MS);
  const subject = [{ name: 'commonName', value: commonName }, { name: 'organizationName', value: 'paykit test' }];
  certificate.setSubject(subject);
  certificate.setIssuer(issuer ? issuer.certificate.subject.attributes : subject);
  certificate.setExtensions([{ name: 'subjectKeyIdentifier' }, ...extensions]);
  certificate.sign(issuer?.key ?? keys.privateKey, forge.md.sha256.create());
  return { certificate, key: keys.privateKey };
}

function certificateAuthority(name: string): Issued {
  return issue(name, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ], undefined, 730);
}

function clientCertificate(name: string, ca: Issued): Issued {
  return issue(name, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true },
  ], ca);
}

/** PKCS12 with AES-256 (PBES2) so that OpenSSL 3 reads it without the legacy provider. */
function pkcs12(client: Issued, ca: Issued, password: string): Buffer {
  const asn1 = forge.pkcs12.toPkcs12Asn1(client.key, [client.certificate, ca.certificate], password, {
    algorithm: 'aes256',
    friendlyName: 'paykit test client',
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
}

const newPassword = () => 'C' + randomBytes(12).toString('base64url');

async function writePrivate(path: string, data: string | Buffer): Promise<void> {
  await writeFile(path, data, { mode: 0o600 });
  await chmod(path, 0o600); // writeFile keeps the mode of a file that already exists
}

/**
 * Generates a CA, a server certificate for the loopback addresses, a client certificate (PEM and PKCS12 with a
 * password starting with "C") and a client certificate from a foreign CA, and writes them into `dir`.
 * The passwords are also written next to each PKCS12 file (`*.pfx.password`, readable by the owner only) so that a
 * person using the mock from a shell can find them; they are never printed.
 */
export async function generateTestCertificates(dir: string): Promise<TestCertificates> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const ca = certificateAuthority('paykit test CA');
  const server = issue('localhost', [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
  ], ca);
  const client = clientCertificate('paykit test client', ca);
  const foreignCa = certificateAuthority('foreign CA');
  const foreignClient = clientCertificate('paykit test client', foreignCa);

  const certificates: TestCertificates = {
    dir: root,
    caCertPath: join(root, 'ca.pem'),
    caCertPem: forge.pki.certificateToPem(ca.certificate),
    serverCertPath: join(root, 'server.pem'),
    serverKeyPath: join(root, 'server-key.pem'),
    clientPfxPath: join(root, 'client.pfx'),
    clientPfxPassword: newPassword(),
    clientCertPath: join(root, 'client.pem'),
    clientKeyPath: join(root, 'client-key.pem'),
    foreignClientPfxPath: join(root, 'foreign-client.pfx'),
    foreignClientPfxPassword: newPassword(),
  };
  await writeFile(certificates.caCertPath, certificates.caCertPem);
  await writeFile(certificates.serverCertPath, forge.pki.certificateToPem(server.certificate) + certificates.caCertPem);
  await writePrivate(certificates.serverKeyPath, forge.pki.privateKeyToPem(server.key));
  await writeFile(certificates.clientCertPath, forge.pki.certificateToPem(client.certificate));
  await writePrivate(certificates.clientKeyPath, forge.pki.privateKeyToPem(client.key));
  await writePrivate(certificates.clientPfxPath, pkcs12(client, ca, certificates.clientPfxPassword));
  await writePrivate(`${certificates.clientPfxPath}.password`, certificates.clientPfxPassword);
  await writePrivate(certificates.foreignClientPfxPath, pkcs12(foreignClient, foreignCa, certificates.foreignClientPfxPassword));
  await writePrivate(`${certificates.foreignClientPfxPath}.password`, certificates.foreignClientPfxPassword);
  return certificates;
}
