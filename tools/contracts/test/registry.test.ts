import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { basePath } from '../src/openapi/document.js';
import { bundleOpenApi } from '../src/openapi/bundle.js';
import { contractNamed, contracts, docsPort, mockPackages, openApiContracts, soapContracts, UnknownContractError } from '../src/registry.js';
import { fromRoot } from '../src/repo.js';
import { readFileExchangeRules, readFileNamePattern } from '../src/rules/file-exchange-rules.js';
import { readPaymentsRules } from '../src/rules/payments-rules.js';
import { soapBasePath } from '../src/soap/lookup.js';
import { readSoapContract } from '../src/soap/read-contract.js';

describe('contract registry', () => {
  it('points at files and packages that exist', () => {
    for (const contract of contracts) {
      const spec = contract.kind === 'openapi' ? contract.root : contract.wsdl;
      expect(existsSync(fromRoot(spec)), spec).toBe(true);
      expect(existsSync(fromRoot(join(contract.clientPackage.dir, 'package.json'))), contract.clientPackage.dir).toBe(true);
    }
  });

  it('names each client package and each mock package as their package.json does', async () => {
    for (const { name, dir } of [...contracts.map((c) => c.clientPackage), ...mockPackages]) {
      const manifest = JSON.parse(await readFile(fromRoot(join(dir, 'package.json')), 'utf8'));
      expect(manifest.name).toBe(name);
    }
  });

  it('gives every mock and the docs a port of their own', () => {
    const ports = [docsPort, ...contracts.flatMap((c) => Object.values(c.mock))];
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('finds contracts by name and says which exist otherwise', () => {
    expect(contractNamed('payments').clientPackage.name).toBe('@paykit/payments');
    expect(() => contractNamed('paymnets')).toThrow(UnknownContractError);
    expect(() => contractNamed('paymnets')).toThrow('known: payments, file-exchange, file-exchange-soap');
  });
});

describe('the real contracts', async () => {
  const bundles = new Map(await Promise.all(openApiContracts.map(async (c) => [c.name, await bundleOpenApi(c.root)] as const)));

  it.each(openApiContracts.map((c) => [c.name, c] as const))('%s: the spec server defaults to a mock of the registry', (name, contract) => {
    const server = bundles.get(name)!.servers![0]!;
    const port = Number(server.variables!.host!.default!.split(':').pop());
    expect(Object.values(contract.mock)).toContain(port);
  });

  it('payments: rules read from the spec, with the base path the clients call', () => {
    const document = bundles.get('payments')!;
    expect(basePath(document)).toBe('/rest/v1');
    const rules = readPaymentsRules(document);
    expect(rules.retry.statuses).toEqual([429, 503]);
    expect(rules.retry.waitMs).toBe(20_000);
    expect(rules.idempotencyKey.lifetimeMs).toBe(22 * 3_600_000);
    expect(rules.singleUseTokens).toMatchObject({ lifetimeMs: 600_000, unusedQuota: 1000 });
  });

  it('file-exchange: rules and the file-name pattern read from the spec', () => {
    const document = bundles.get('file-exchange')!;
    expect(basePath(document)).toBe('/services/messaging/rest');
    expect(readFileExchangeRules(document).retry).toMatchObject({ minimumWaitMs: 300_000, windowMs: 4 * 3_600_000 });
    expect(new RegExp(readFileNamePattern(document)).test('PAYMENTS_20260121_001.csv')).toBe(true);
  });

  it.each(soapContracts.map((c) => [c.name, c] as const))('%s: every port address of the WSDL is a mock of the registry', async (_name, contract) => {
    const model = await readSoapContract(fromRoot(contract.wsdl));
    const ports = model.services.flatMap((s) => s.ports.map((p) => Number(new URL(p.address!.location).port)));
    expect(ports.length).toBeGreaterThan(0);
    for (const port of ports) expect(Object.values(contract.mock)).toContain(port);
    expect(soapBasePath(model)).toBe('/services/messaging');
  });
});
