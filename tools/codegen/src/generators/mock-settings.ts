import { basePath, type OpenApiContract } from '@paykit/contracts';
import { generatedHeader } from '../header.js';
import type { Generator } from '../generator.js';

/**
 * Where the mock server serves a contract: its base path (from the spec's server URL) and its default ports (from
 * the contract registry), so that the mock, the docs and the tests agree on one address.
 */
export const mockSettingsGenerator =
  (contract: OpenApiContract, path: string): Generator =>
  ({ document, specPath }) => [
    {
      path,
      content:
        generatedHeader(specPath) +
        `\n/** Where the mocks of the ${contract.name} contract are served by default. */\n` +
        `export const mockSettings = ${JSON.stringify({ basePath: basePath(document), ports: contract.mock }, null, 2)} as const;\n`,
    },
  ];
