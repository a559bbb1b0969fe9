import { addressPath, soapBasePath } from '@paykit/contracts';
import type { SoapGenerator } from '../../generator.js';
import { generatedHeader } from '../../header.js';

/**
 * What the stateful SOAP mock needs of the contract, so that it restates nothing: the messages' namespace, the WSDL
 * it serves and where each operation is served.
 */
const mockContractGenerator: SoapGenerator = ({ contract, view, specPath }) => {
  const operations = Object.fromEntries(view.operations.map((o) => [o.name, { service: o.service, port: o.port, path: addressPath(o.address) }]));
  const soapContract = { name: contract.name, namespace: view.namespace, wsdl: contract.wsdl, operations };
  return [
    {
      path: `src/generated/${contract.name}/contract.ts`,
      content:
        `${generatedHeader(specPath)}\n/** What the SOAP mock serves of the ${contract.name} contract; \`wsdl\` is relative to the repository root. */\n` +
        `export const soapContract = ${JSON.stringify(soapContract, null, 2)} as const;\n`,
    },
  ];
};

/** Where the SOAP mock is served by default: the contract's base path and the registry's port. */
const mockSettingsGenerator: SoapGenerator = ({ contract, model, specPath }) => {
  const mockSettings = { basePath: soapBasePath(model), ports: contract.mock };
  return [
    {
      path: `src/generated/${contract.name}/mock-settings.ts`,
      content:
        `${generatedHeader(specPath)}\n/** Where the mocks of the ${contract.name} contract are served by default. */\n` +
        `export const mockSettings = ${JSON.stringify(mockSettings, null, 2)} as const;\n`,
    },
  ];
};

/** The stateful SOAP mock: what it serves and where, in `src/generated/<contract name>/` of the mock package. */
export const soapMockGenerators: SoapGenerator[] = [mockContractGenerator, mockSettingsGenerator];
