import { addressPath, soapBasePath, type SoapContract, type SoapContractModel } from '@paykit/contracts';
import type { GeneratedFile } from './output.js';
import type { CodegenView } from './view.js';

/**
 * What the stateful SOAP mock needs of the contract, so that it restates nothing: the messages' namespace, the WSDL
 * it serves, where each operation is served, and its default port (from the registry).
 */
export function emitMockFiles(contract: SoapContract, model: SoapContractModel, view: CodegenView, header: string): GeneratedFile[] {
  const dir = `src/generated/${contract.name}`;
  const operations = Object.fromEntries(view.operations.map((o) => [o.name, { service: o.service, port: o.port, path: addressPath(o.address) }]));
  const soapContract = { name: contract.name, namespace: view.namespace, wsdl: contract.wsdl, operations };
  const mockSettings = { basePath: soapBasePath(model), ports: contract.mock };
  return [
    {
      path: `${dir}/contract.ts`,
      content:
        `${header}\n/** What the SOAP mock serves of the ${contract.name} contract; \`wsdl\` is relative to the repository root. */\n` +
        `export const soapContract = ${JSON.stringify(soapContract, null, 2)} as const;\n`,
    },
    {
      path: `${dir}/mock-settings.ts`,
      content:
        `${header}\n/** Where the mocks of the ${contract.name} contract are served by default. */\n` +
        `export const mockSettings = ${JSON.stringify(mockSettings, null, 2)} as const;\n`,
    },
  ];
}
