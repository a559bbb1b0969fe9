// The published bundle (dist/index.js, which `test` builds first) against @paykit/file-exchange: the bundle inlines the
// file exchange core from source (paykit-bundle-internal --from-source), yet the errors the SOAP client raises are the
// REST package's very classes, so one `instanceof` works whichever package a merchant imported the class from.
import * as rest from '@paykit/file-exchange';
import { clientTls } from '@paykit/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as soap from '../dist/index.js';
import { fastRetry, startMock, type MockFixture } from './support/mock.js';

const isClass = (value: unknown): boolean => typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
const sharedClasses = Object.keys(soap).filter((name) => name in rest && isClass((rest as Record<string, unknown>)[name]));

let fixture: MockFixture;
beforeAll(async () => {
  fixture = await startMock();
});
afterAll(async () => {
  await fixture?.close();
});

describe('one error hierarchy across the two published bundles', () => {
  it('exports the REST package classes themselves, not copies', () => {
    // The hierarchy's classes and TlsConfigurationError: the list cannot be empty or short.
    expect(sharedClasses).toEqual(
      expect.arrayContaining(['FileExchangeError', 'AbortedError', 'ClientOptionsError', 'TransientFailureError', 'RetriesExhaustedError', 'TlsConfigurationError']),
    );
    for (const name of sharedClasses) expect(soap[name as keyof typeof soap], name).toBe((rest as Record<string, unknown>)[name]);
    expect(soap.SoapNetworkError).toBe(rest.TransientFailureError);
  });

  it('raises ClientOptionsError and TlsConfigurationError of @paykit/file-exchange for bad options', async () => {
    const badBase = await soap.FileExchangeSoapClient.create({ baseUrl: 'services/messaging', tls: { pfx: '/nonexistent.p12', passphrase: 'x' } }).catch((e: unknown) => e);
    expect(badBase).toBeInstanceOf(rest.ClientOptionsError);
    expect(badBase).toBeInstanceOf(rest.FileExchangeError);
    const badTls = await soap.FileExchangeSoapClient.create({ baseUrl: fixture.mock.soapUrl, tls: { pfx: '/nonexistent.p12', passphrase: 'x' } }).catch((e: unknown) => e);
    expect(badTls).toBeInstanceOf(rest.TlsConfigurationError);
  });

  it('ends an aborted call with AbortedError of @paykit/file-exchange, and its own errors extend its FileExchangeError', async () => {
    const client = await soap.FileExchangeSoapClient.create({ baseUrl: fixture.mock.soapUrl, tls: clientTls(fixture.certificates), retry: fastRetry });
    try {
      // The client works over the mock first (the precondition: a call that is not aborted succeeds).
      await expect(client.uploadFile({ fileID: 'H-1', fileName: 'H1.csv', fileContent: Buffer.from('a') })).resolves.toBeUndefined();
      const aborted = await client.downloadFiles('Q1', { signal: AbortSignal.abort(new Error('stop')) }).catch((e: unknown) => e);
      expect(aborted).toBeInstanceOf(rest.AbortedError);
      const invalid = await client.uploadFile({ fileID: '', fileName: 'bad/name', fileContent: Buffer.from('a') }).catch((e: unknown) => e);
      expect(invalid).toBeInstanceOf(soap.InvalidRequestError);
      expect(invalid).toBeInstanceOf(rest.FileExchangeError);
    } finally {
      await client.close();
    }
  });
});
