/**
 * Every contract of the repository, once. Codegen, the compatibility gate, the contract tests, the mocks, the docs
 * and `redocly.yaml` learn from here which contracts exist, where their files are, which package is released from
 * each, and where its mocks listen. Facts of the service itself (paths, fields, limits, rules) are not here: they
 * are in the spec files this registry points to.
 */

import { fileExchangeRuleShapes } from './rules/file-exchange-rules.js';
import { paymentsRuleShapes } from './rules/payments-rules.js';

/** Where the local mocks of a contract listen by default (our choice, not the service's). */
export interface MockPorts {
  /** Prism, serving the contract's examples. */
  prism?: number;
  /** A stateful mock that behaves like the service. */
  stateful?: number;
}

/** A reference page of the docs site. */
export interface DocsPage {
  page: string;
  title: string;
  summary: string;
  /** The page of the same service over another protocol. */
  related?: string;
}

interface ContractBase {
  /** Short name, used by command lines, generated file names and the mock's service names. */
  name: string;
  /** The npm package released from this contract, and its folder. */
  clientPackage: { name: string; dir: string };
  mock: MockPorts;
  docs: DocsPage;
}

export interface OpenApiContract extends ContractBase {
  kind: 'openapi';
  /** The API's name in `redocly.yaml` (`<name>@<major version>`). */
  api: string;
  /** The split OpenAPI root, relative to the repository root. */
  root: string;
  /** The `x-paykit-rules` entries the contract must carry: those its rules reader knows (the lint rule checks them). */
  requiredRules: readonly string[];
}

export interface SoapContract extends ContractBase {
  kind: 'soap';
  /** The WSDL, relative to the repository root; the XSD files it imports sit beside it. */
  wsdl: string;
  /** The OpenAPI contract of the same service, whose `x-paykit-rules` (retry window...) apply here too. */
  rulesFrom: string;
}

export type Contract = OpenApiContract | SoapContract;

export const paymentsContract: OpenApiContract = {
  kind: 'openapi',
  name: 'payments',
  api: 'payments@v1',
  root: 'specs/payments/openapi.yaml',
  clientPackage: { name: '@paykit/payments', dir: 'packages/payments' },
  mock: { prism: 4010, stateful: 4012 },
  requiredRules: Object.keys(paymentsRuleShapes),
  docs: {
    page: 'payments.html',
    title: 'Payments API reference',
    summary: 'The JSON REST API: tokens, 3D Secure, transactions, customers, aliases, wallets and webhooks.',
  },
};

export const fileExchangeContract: OpenApiContract = {
  kind: 'openapi',
  name: 'file-exchange',
  api: 'file-exchange@v1',
  root: 'specs/file-exchange/openapi.yaml',
  clientPackage: { name: '@paykit/file-exchange', dir: 'packages/file-exchange' },
  mock: { prism: 4011, stateful: 4020 },
  requiredRules: Object.keys(fileExchangeRuleShapes),
  docs: {
    page: 'file-exchange.html',
    title: 'File exchange REST API reference',
    summary: 'Upload files to the operator and drain the download list, one resource per file.',
    related: 'file-exchange-soap.html',
  },
};

export const fileExchangeSoapContract: SoapContract = {
  kind: 'soap',
  name: 'file-exchange-soap',
  wsdl: 'specs/file-exchange-soap/FileExchange.wsdl',
  rulesFrom: fileExchangeContract.name,
  clientPackage: { name: '@paykit/file-exchange-soap', dir: 'packages/file-exchange-soap' },
  mock: { stateful: 4021 },
  docs: {
    page: 'file-exchange-soap.html',
    title: 'File exchange SOAP API reference',
    summary: 'The same file exchange as two SOAP 1.1 operations, generated from the WSDL and XSD.',
    related: 'file-exchange.html',
  },
};

export const contracts: readonly Contract[] = [paymentsContract, fileExchangeContract, fileExchangeSoapContract];

export const openApiContracts: readonly OpenApiContract[] = contracts.filter((c): c is OpenApiContract => c.kind === 'openapi');
export const soapContracts: readonly SoapContract[] = contracts.filter((c): c is SoapContract => c.kind === 'soap');

export class UnknownContractError extends Error {
  override readonly name = 'UnknownContractError';
}

/** The contract called `name`; throws with the list of known names otherwise. */
export function contractNamed(name: string): Contract {
  const found = contracts.find((c) => c.name === name);
  if (!found) throw new UnknownContractError(`no contract named ${JSON.stringify(name)}; known: ${contracts.map((c) => c.name).join(', ')}`);
  return found;
}

export function openApiContractNamed(name: string): OpenApiContract {
  const found = contractNamed(name);
  if (found.kind !== 'openapi') throw new UnknownContractError(`${name} is a ${found.kind} contract, not an OpenAPI one`);
  return found;
}

/** A package that is released, and its folder relative to the repository root. */
export interface PackageRef {
  readonly name: string;
  readonly dir: string;
}

/** The stateful payments sandbox: what it needs of the payments contract is generated into its `src/generated/`. */
export const paymentsSandboxPackage: PackageRef = { name: '@paykit/payments-sandbox', dir: 'packages/payments-sandbox' };

/** The stateful file exchange mock (REST and SOAP): generated into its `src/generated/<contract name>/`. */
export const fileExchangeMockPackage: PackageRef = { name: '@paykit/file-exchange-mock', dir: 'packages/file-exchange-mock' };

/**
 * `paykit-mock`, the launcher of every mock and the Prism mocks: the default ports and base paths of each contract
 * are generated into its `src/generated/<contract name>/`.
 */
export const mockServerPackage: PackageRef = { name: '@paykit/mock-server', dir: 'packages/mock-server' };

/**
 * The in-process contract validator (private, never published): each REST contract's schemas compiled into code and
 * its operation table, generated into its `src/generated/<contract name>/`. Published packages bundle it at build time.
 */
export const contractValidationPackage: PackageRef = { name: '@paykit/contract-validation', dir: 'packages/contract-validation' };

/** The validating proxy and recorder: what every REST contract marks secret is generated into its `src/generated/`. */
export const contractProxyPackage: PackageRef = { name: '@paykit/contract-proxy', dir: 'packages/contract-proxy' };

/**
 * The contract tests (private, never published): the SOAP client's message descriptors, to build a valid sample of
 * every message, are generated into its `src/generated/` (the client package keeps them internal).
 */
export const contractTestsPackage: PackageRef = { name: '@paykit/contract-tests', dir: 'tools/contract-tests' };

/** Every mock package, in the order they depend on each other (the launcher last). */
export const mockPackages: readonly PackageRef[] = [paymentsSandboxPackage, fileExchangeMockPackage, mockServerPackage];

/**
 * The OpenAPI contract of a mock package's own control interface (reset, faults, clock...): ours, not the service's.
 * Linted and bundled like the service's contracts (an `apis` entry of `redocly.yaml`), with a reference page, and
 * its typed client generated into the mock package; it has no `x-paykit-rules` and no compatibility gate.
 */
export interface ControlContract {
  kind: 'openapi-control';
  name: string;
  api: string;
  root: string;
  /** The mock package that serves it and ships its generated client. */
  package: PackageRef;
  /** The path under which the mock serves it, beside the API. */
  prefix: string;
  docs: DocsPage;
}

export const paymentsSandboxControlContract: ControlContract = {
  kind: 'openapi-control',
  name: 'payments-sandbox-control',
  api: 'payments-sandbox-control@v1',
  root: 'specs/payments-sandbox-control/openapi.yaml',
  package: paymentsSandboxPackage,
  prefix: '/__sandbox',
  docs: {
    page: 'payments-sandbox-control.html',
    title: 'Payments sandbox control API reference',
    summary: "The payments sandbox's own interface for tests: reset, clock, faults, the payer's side, webhooks.",
  },
};

export const fileExchangeMockControlContract: ControlContract = {
  kind: 'openapi-control',
  name: 'file-exchange-mock-control',
  api: 'file-exchange-mock-control@v1',
  root: 'specs/file-exchange-mock-control/openapi.yaml',
  package: fileExchangeMockPackage,
  prefix: '/__mock',
  docs: {
    page: 'file-exchange-mock-control.html',
    title: 'File exchange mock control API reference',
    summary: "The stateful file exchange mock's own interface for tests: faults injected into its REST and SOAP operations.",
  },
};

/** Every control interface of the mock packages. */
export const controlContracts: readonly ControlContract[] = [paymentsSandboxControlContract, fileExchangeMockControlContract];

/** The docs site's address, beside the mocks (our choice). */
export const docsPort = 4000;
