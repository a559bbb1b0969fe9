import { fileExchangeContract, mockServerPackage, paymentsContract, type OpenApiContract } from '@paykit/contracts';
import type { Generator } from './generator.js';
import { bundledSpecGenerator } from './generators/bundled-spec.js';
import { fileExchangeRulesGenerator } from './generators/file-exchange-rules.js';
import { mockSettingsGenerator } from './generators/mock-settings.js';
import { paymentsClientGenerators } from './generators/payments-client.js';
import { paymentsRulesGenerator } from './generators/payments-rules.js';
import { stateMachinesGenerator } from './generators/state-machines.js';
import { typesGenerator } from './generators/types.js';

/** What one contract generates into one package. */
export interface Output {
  /** Package folder, relative to the repo root. */
  packageDir: string;
  /** Folders owned entirely by this output: any file in them that no generator writes is drift. */
  generatedDirs: string[];
  generators: Generator[];
}

export interface Target {
  contract: OpenApiContract;
  outputs: Output[];
}

/**
 * The mock server's generated folder for a contract: the mocks enforce the same rules the clients follow, at the
 * address the registry gives.
 */
const mockServerOutput = (contract: OpenApiContract, rules: (path: string) => Generator, ...more: Generator[]): Output => ({
  packageDir: mockServerPackage.dir,
  generatedDirs: [`src/generated/${contract.name}`],
  generators: [
    rules(`src/generated/${contract.name}/rules.ts`),
    mockSettingsGenerator(contract, `src/generated/${contract.name}/mock-settings.ts`),
    ...more,
  ],
});

/** Every OpenAPI contract codegen handles, by registry name, with what it writes where. */
export const targets: Record<string, Target> = {
  [paymentsContract.name]: {
    contract: paymentsContract,
    outputs: [
      {
        packageDir: paymentsContract.clientPackage.dir,
        generatedDirs: ['src/generated', 'spec'],
        generators: [
          bundledSpecGenerator,
          typesGenerator,
          ...paymentsClientGenerators,
          paymentsRulesGenerator('src/generated/rules.ts'),
        ],
      },
      // The payments sandbox enforces the reference's state tables.
      mockServerOutput(
        paymentsContract,
        paymentsRulesGenerator,
        stateMachinesGenerator(paymentsContract.name, `src/generated/${paymentsContract.name}/state-machines.ts`),
      ),
    ],
  },
  [fileExchangeContract.name]: {
    contract: fileExchangeContract,
    outputs: [
      {
        packageDir: fileExchangeContract.clientPackage.dir,
        generatedDirs: ['src/generated', 'spec'],
        generators: [bundledSpecGenerator, typesGenerator, fileExchangeRulesGenerator('src/generated/rules.ts')],
      },
      mockServerOutput(fileExchangeContract, fileExchangeRulesGenerator),
    ],
  },
};
