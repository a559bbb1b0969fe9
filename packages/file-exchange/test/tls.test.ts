import { readFile } from 'node:fs/promises';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConnectProxy } from '@paykit/test-support';
import { createTlsAgent, TlsConfigurationError, type ClientTlsOptions } from '../src/index.js';
import { temporaryCertificates } from './support/certificates.js';
import { startMtlsServer } from './support/mtls-server.js';

let certs: Awaited<ReturnType<typeof temporaryCertificates>>;
let server: Awaited<ReturnType<typeof startMtlsServer>>;

beforeAll(async () => {
  certs = await temporaryCertificates();
  server = await startMtlsServer(certs);
});
afterAll(async () => {
  await server?.close();
  await certs?.cleanup();
});

async function get(agent: Agent | import('undici').ProxyAgent, path = '/hello'): Promise<{ status: number; text: string }> {
  try {
    const response = await request(`${server.origin}${path}`, { dispatcher: agent });
    return { status: response.statusCode, text: await response.body.text() };
  } finally {
    await agent.close();
  }
}

describe('createTlsAgent presents the client certificate', () => {
  const cases: Array<{ name: string; options: () => Promise<ClientTlsOptions> }> = [
    { name: 'PKCS12 file path and password', options: async () => ({ pfx: certs.clientPfxPath, passphrase: certs.clientPfxPassword, ca: certs.caCertPath }) },
    { name: 'PKCS12 bytes', options: async () => ({ pfx: await readFile(certs.clientPfxPath), passphrase: certs.clientPfxPassword, ca: certs.caCertPem }) },
    { name: 'PEM certificate and key paths', options: async () => ({ cert: certs.clientCertPath, key: certs.clientKeyPath, ca: certs.caCertPath }) },
    {
      name: 'PEM certificate and key as text',
      options: async () => ({ cert: await readFile(certs.clientCertPath, 'utf8'), key: await readFile(certs.clientKeyPath, 'utf8'), ca: certs.caCertPem }),
    },
  ];
  it.each(cases)('with $name', async ({ options }) => {
    const before = server.seen.length;
    const response = await get(await createTlsAgent(await options()));
    expect(response).toEqual({ status: 200, text: 'ok' });
    expect(server.seen.slice(before)).toEqual([{ method: 'GET', url: '/hello', clientCommonName: 'paykit test client' }]);
  });
});

describe('the server refuses connections without the right certificate', () => {
  it.each([
    { name: 'no client certificate', agent: async () => new Agent({ connect: { ca: certs.caCertPem } }) },
    {
      name: 'a certificate from another CA',
      agent: () => createTlsAgent({ pfx: certs.foreignClientPfxPath, passphrase: certs.foreignClientPfxPassword, ca: certs.caCertPath }),
    },
  ])('$name', async ({ agent }) => {
    const before = server.seen.length;
    await expect(get(await agent())).rejects.toThrow();
    expect(server.seen.length).toBe(before);
  });

  // A PKCS12 bundle that carries its CA makes Node trust that CA; PEM credentials trust only the system store.
  it('does not trust a server whose CA was neither given nor bundled', async () => {
    await expect(get(await createTlsAgent({ cert: certs.clientCertPath, key: certs.clientKeyPath }))).rejects.toMatchObject({
      code: expect.stringMatching(/CERT|SELF_SIGNED|UNABLE_TO/),
    });
  });
});

describe('configuration errors are typed, early and free of secrets', () => {
  const cases: Array<{ name: string; options: () => ClientTlsOptions; reason: string; mentions: RegExp; secret: () => string }> = [
    {
      name: 'wrong PKCS12 password',
      options: () => ({ pfx: certs.clientPfxPath, passphrase: 'Cwrong-password-123' }),
      reason: 'wrong-passphrase',
      mentions: /password does not open the PKCS12 file .*client\.pfx/,
      secret: () => 'Cwrong-password-123',
    },
    {
      name: 'missing PKCS12 file',
      options: () => ({ pfx: `${certs.dir}/absent.pfx`, passphrase: certs.clientPfxPassword }),
      reason: 'file-unreadable',
      mentions: /absent\.pfx \(ENOENT\)/,
      secret: () => certs.clientPfxPassword,
    },
    {
      name: 'a key that belongs to another certificate',
      options: () => ({ cert: certs.clientCertPath, key: certs.serverKeyPath }),
      reason: 'key-mismatch',
      mentions: /does not belong to the certificate/,
      secret: () => '-----BEGIN',
    },
    {
      name: 'a PEM certificate given as its own key (no key in it)',
      options: () => ({ cert: certs.clientCertPath, key: certs.clientCertPath }),
      reason: 'missing-key',
      mentions: /private key file .*client\.pem holds no private key/,
      secret: () => 'legacy algorithm',
    },
    {
      name: 'a key given as the certificate',
      options: () => ({ cert: certs.clientKeyPath, key: certs.clientKeyPath }),
      reason: 'missing-certificate',
      mentions: /certificate file .*client-key\.pem holds no certificate/,
      secret: () => '-----BEGIN',
    },
    {
      name: 'a PEM file given as PKCS12',
      options: () => ({ pfx: certs.clientCertPath, passphrase: certs.clientPfxPassword }),
      reason: 'invalid-certificate',
      mentions: /client\.pem/,
      secret: () => certs.clientPfxPassword,
    },
    {
      name: 'a proxy address that is not a URL',
      options: () => ({ pfx: certs.clientPfxPath, passphrase: certs.clientPfxPassword, proxy: 'user:Csecret@proxy' }),
      reason: 'invalid-proxy',
      mentions: /proxy address must use http:\/\/ or https:\/\//,
      secret: () => 'Csecret',
    },
    {
      name: 'a proxy with another scheme',
      options: () => ({ pfx: certs.clientPfxPath, passphrase: certs.clientPfxPassword, proxy: 'socks5://user:Csecret@127.0.0.1:1080' }),
      reason: 'invalid-proxy',
      mentions: /socks5:\/\/\*\*\*@127\.0\.0\.1:1080/,
      secret: () => 'Csecret',
    },
  ];
  it.each(cases)('$name', async ({ options, reason, mentions, secret }) => {
    const error = await createTlsAgent(options()).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(TlsConfigurationError);
    const typed = error as TlsConfigurationError;
    expect(typed.reason).toBe(reason);
    expect(typed.message).toMatch(mentions);
    expect(`${typed.message}\n${typed.stack}\n${JSON.stringify(typed)}`).not.toContain(secret());
    expect(typed.cause).toBeUndefined();
  });
});

describe('proxy', () => {
  it('tunnels through an HTTP proxy with credentials from the address', async () => {
    const proxy = await startConnectProxy({ credentials: { user: 'merchant', password: 'proxy-pass' } });
    try {
      const proxyUrl = proxy.url.replace('//', '//merchant:proxy-pass@');
      const response = await get(await createTlsAgent({ pfx: certs.clientPfxPath, passphrase: certs.clientPfxPassword, ca: certs.caCertPath, proxy: proxyUrl }));
      expect(response.status).toBe(200);
      expect(proxy.tunnels).toEqual([new URL(server.origin).host]);
    } finally {
      await proxy.close();
    }
  });

  it('fails without leaking the proxy password when the proxy refuses the credentials', async () => {
    const proxy = await startConnectProxy({ credentials: { user: 'merchant', password: 'right-pass' } });
    try {
      const proxyUrl = proxy.url.replace('//', '//merchant:Cwrong-proxy-pass@');
      const error = await get(await createTlsAgent({ pfx: certs.clientPfxPath, passphrase: certs.clientPfxPassword, ca: certs.caCertPath, proxy: proxyUrl })).then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      expect(error).toBeInstanceOf(Error);
      expect(String(error?.message)).toMatch(/407/);
      expect(`${error?.message}${error?.stack}`).not.toContain('Cwrong-proxy-pass');
      expect(proxy.tunnels).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
