import {
  contractProxyPackage,
  contractTestsPackage,
  contractValidationPackage,
  fileExchangeContract,
  fileExchangeMockControlContract,
  fileExchangeMockPackage,
  fileExchangeSoapContract,
  mockServerPackage,
  paymentsContract,
  paymentsSandboxControlContract,
  paymentsSandboxPackage,
  type ControlContract,
  type OpenApiContract,
  type PackageRef,
  type SoapContract,
} from '@paykit/contracts';
import type { Generator, SoapGenerator } from './generator.js';
import { bundledSpecGenerator } from './generators/bundled-spec.js';
import { contractValidationGenerator } from './generators/contract-validation.js';
import { controlClientGenerator } from './generators/control-client.js';
import { fileExchangeRulesGenerator } from './generators/file-exchange-rules.js';
import { mockSettingsGenerator } from './generators/mock-settings.js';
import { operationTableGenerator } from './generators/operation-table.js';
import { contractValuesGenerator } from './generators/contract-values.js';
import { paymentsClientGenerators } from './generators/payments-client.js';
import { paymentsRulesGenerator } from './generators/payments-rules.js';
import { soapClientGenerators, soapDescriptorGenerators } from './generators/soap/client.js';
import { soapMockGenerators } from './generators/soap/mock.js';
import { stateMachinesGenerator } from './generators/state-machines.js';
import { typesGenerator } from './generators/types.js';

/** What one contract contributes to a package's generated files: an OpenAPI contract's generators get its bundle. */
export interface OpenApiSource {
  contract: OpenApiContract | ControlContract;
  generators: Generator[];
}

/** A SOAP contract's generators get its WSDL and XSD, read into the model of @paykit/contracts. */
export interface SoapSource {
  contract: SoapContract;
  generators: SoapGenerator[];
}

export type Source = OpenApiSource | SoapSource;

export const isSoapSource = (source: Source): source is SoapSource => source.contract.kind === 'soap';

/** A contract whose sensitive marks a package reads. */
export type MarkedContract = OpenApiContract | ControlContract | SoapContract;

/** The file a contract is read from (its OpenAPI root, its WSDL), as headers and messages name it. */
export const specOf = (contract: MarkedContract): string => (contract.kind === 'soap' ? contract.wsdl : contract.root);

/** What one package generates: the package's `generate` script names its target, and nothing is written outside it. */
export interface Target {
  package: PackageRef;
  /** Folders of the package owned entirely by this target: any file in them that no generator writes is drift. */
  generatedDirs: string[];
  sources: Source[];
  /**
   * The contracts whose marks of what is secret the package masks by: one table each in `src/generated/sensitive.ts`
   * (`paymentsSensitive`...). A SOAP contract's marks are read from its XSD.
   */
  sensitive?: MarkedContract[];
}

/** Where every package's tables of what is secret are written. */
export const sensitivePath = 'src/generated/sensitive.ts';

/** Every REST contract, the mocks' control interfaces included: what the contract proxy and the launcher can see. */
const everyRestContract: MarkedContract[] = [paymentsContract, fileExchangeContract, paymentsSandboxControlContract, fileExchangeMockControlContract];

/** Where the mocks of a contract listen and under which path, in a mock package's folder for that contract. */
const mockSettings = (contract: OpenApiContract) => mockSettingsGenerator(contract, `src/generated/${contract.name}/mock-settings.ts`);

/** Every package codegen writes into, by the name its `generate` script passes (the package's folder name). */
export const targets: Readonly<Record<string, Target>> = {
  payments: {
    package: paymentsContract.clientPackage,
    generatedDirs: ['src/generated', 'spec'],
    sources: [
      {
        contract: paymentsContract,
        generators: [bundledSpecGenerator, typesGenerator, ...paymentsClientGenerators, paymentsRulesGenerator('src/generated/rules.ts', { eachValue: true })],
      },
    ],
    sensitive: [paymentsContract],
  },
  'file-exchange': {
    package: fileExchangeContract.clientPackage,
    generatedDirs: ['src/generated', 'spec'],
    sources: [{ contract: fileExchangeContract, generators: [bundledSpecGenerator, typesGenerator, fileExchangeRulesGenerator('src/generated/rules.ts')] }],
    sensitive: [fileExchangeContract],
  },
  // The typed SOAP client: the messages' types, the descriptors its codec reads, the contract copy it ships.
  'file-exchange-soap': {
    package: fileExchangeSoapContract.clientPackage,
    generatedDirs: ['src/generated', 'wsdl'],
    sources: [{ contract: fileExchangeSoapContract, generators: soapClientGenerators }],
    sensitive: [fileExchangeSoapContract],
  },
  // The sandbox enforces the reference's state tables and rules, and routes by the operation tables. Its rules are
  // generated here rather than imported from @paykit/payments, whose public entry points carry no table only our
  // tools use.
  'payments-sandbox': {
    package: paymentsSandboxPackage,
    generatedDirs: ['src/generated'],
    sources: [
      {
        contract: paymentsContract,
        generators: [
          stateMachinesGenerator(paymentsContract.name, 'src/generated/state-machines.ts'),
          paymentsRulesGenerator('src/generated/rules.ts'),
          // The operations it routes and checks requests by, so that it reads no spec at run time.
          operationTableGenerator('src/generated/operations.ts', 'paymentsOperationTable'),
          // The facility's defaults: the card schemes a business accepts, the payment methods GET /methods lists.
          contractValuesGenerator('src/generated/facility-defaults.ts', { enums: { cardSchemes: 'CardSchemeName' }, examples: { paymentMethodList: 'PaymentMethodList' } }),
        ],
      },
      // Its control interface: the client it ships and the contract its server routes by.
      {
        contract: paymentsSandboxControlContract,
        generators: [
          controlClientGenerator('src/generated/control'),
          operationTableGenerator('src/generated/control/operations.ts', 'controlOperationTable', '../operations.js'),
        ],
      },
    ],
    sensitive: [paymentsContract, paymentsSandboxControlContract],
  },
  // The stateful file exchange: each contract it serves in a folder of its own, REST and SOAP.
  'file-exchange-mock': {
    package: fileExchangeMockPackage,
    generatedDirs: [`src/generated/${fileExchangeContract.name}`, `src/generated/${fileExchangeSoapContract.name}`, 'src/generated/control'],
    sources: [
      {
        contract: fileExchangeContract,
        generators: [fileExchangeRulesGenerator(`src/generated/${fileExchangeContract.name}/rules.ts`), mockSettings(fileExchangeContract)],
      },
      { contract: fileExchangeSoapContract, generators: soapMockGenerators },
      // Its control interface (fault injection): the client it ships and the contract its server routes by.
      { contract: fileExchangeMockControlContract, generators: [controlClientGenerator('src/generated/control')] },
    ],
    // One file for the REST and SOAP halves.
    sensitive: [fileExchangeContract, fileExchangeMockControlContract, fileExchangeSoapContract],
  },
  // The one validator of the REST contracts (requests and answers, in process), for the proxy, the sandbox and the
  // contract tests; private, bundled into the published packages that use it.
  'contract-validation': {
    package: contractValidationPackage,
    generatedDirs: ['src/generated'],
    // The sandbox's control contract too: the sandbox checks its control requests with the same validator.
    sources: [paymentsContract, fileExchangeContract, paymentsSandboxControlContract].map((contract) => ({ contract, generators: [contractValidationGenerator(contract)] })),
  },
  // The launcher: the default ports of the payments mocks it prints. The file exchange's settings have one owner,
  // the package that serves them, and reach the launcher through @paykit/file-exchange-mock/mock-settings.
  'mock-server': {
    package: mockServerPackage,
    generatedDirs: [`src/generated/${paymentsContract.name}`],
    sources: [{ contract: paymentsContract, generators: [mockSettings(paymentsContract)] }],
    sensitive: everyRestContract,
  },
  // The validating proxy and recorder: its recordings and reports mask what every REST contract marks.
  'contract-proxy': {
    package: contractProxyPackage,
    generatedDirs: ['src/generated'],
    sources: [],
    sensitive: everyRestContract,
  },
  // The contract tests build a valid sample of every SOAP message from the client's descriptors, generated here
  // because the client package keeps them internal (they are not one of its entry points).
  'contract-tests': {
    package: contractTestsPackage,
    generatedDirs: ['src/generated'],
    sources: [{ contract: fileExchangeSoapContract, generators: soapDescriptorGenerators }],
  },
};
