import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { sharedPrism } from '../support/mocks.js';

/** Validates a bare element of the contract's XSD with libxml2 (xmllint-wasm). */
async function validateAgainstContractXsd(xml: string) {
  const xsd = await readFile(new URL('../../../../specs/file-exchange-soap/FileExchange.xsd', import.meta.url), 'utf8');
  return validateXML({ xml: [{ fileName: 'list.xml', contents: xml }], schema: [{ fileName: 'FileExchange.xsd', contents: xsd }] });
}

// Prism serving specs/file-exchange (bundled by the build): the contract's examples come back, valid against the
// XSD where they are XML, and well-formed requests raise no contract violation.
describe('Prism on the file exchange REST contract', () => {
  // The run's Prism on the contract, started by startPrismMock in the global set-up.
  const prism = sharedPrism('file-exchange');

  test('serves under the contract’s base path', () => {
    expect(prism.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/services\/messaging\/rest$/);
  });

  test('the plain list example is one name per line', async () => {
    const response = await fetch(`${prism.url}/filesForDownload/`, { headers: { Accept: 'text/plain' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('sl-violations')).toBeNull();
    expect(await response.text()).toBe('PAYMENTS_20260121_001.csv\nREPORT_20260121_001.xml\n');
  });

  test('the XML list example is a downloadFileList valid against the XSD', async () => {
    const response = await fetch(`${prism.url}/filesForDownload/`, { headers: { Accept: 'application/xml' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await response.text();
    expect(xml).toContain('<downloadFileList xmlns="urn:paykit:file-exchange:v1">');
    expect((await validateAgainstContractXsd(xml)).errors).toEqual([]);
  });

  test.each([
    ['upload of any content type', 'POST', '/uploadedFiles/PAYMENTS_20260121_001.csv', { 'Content-Type': 'text/csv' }, 'a,b\n', 202],
    ['empty list', 'GET', '/filesForDownload/', { Accept: 'text/plain', Prefer: 'code=204' }, undefined, 204],
    ['download', 'GET', '/filesForDownload/REPORT_20260121_001.xml', {}, undefined, 200],
    ['delete', 'DELETE', '/filesForDownload/REPORT_20260121_001.xml', {}, undefined, 204],
    ['429 on request', 'GET', '/filesForDownload/a.txt', { Prefer: 'code=429' }, undefined, 429],
  ] as const)('%s answers %i without violations', async (_, method, path, headers, body, status) => {
    const response = await fetch(`${prism.url}${path}`, { method, headers, body });
    expect(response.status).toBe(status);
    expect(response.headers.get('sl-violations')).toBeNull();
  });

  test('a file name outside the rule is a contract violation', async () => {
    const response = await fetch(`${prism.url}/filesForDownload/a%20b.txt`, { method: 'DELETE' });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(await response.text()).toMatch(/pattern/);
  });
});
