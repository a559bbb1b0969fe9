/** The contracts the gate guards, each with the client package that is released from it. */
export type ContractDefinition =
  | { name: string; kind: 'openapi'; packageName: string; spec: string }
  | { name: string; kind: 'soap'; packageName: string; wsdl: string; xsd: string };

export const contracts: readonly ContractDefinition[] = [
  { name: 'payments', kind: 'openapi', packageName: '@paykit/payments', spec: 'specs/payments/openapi.yaml' },
  { name: 'file-exchange', kind: 'openapi', packageName: '@paykit/file-exchange', spec: 'specs/file-exchange/openapi.yaml' },
  {
    name: 'file-exchange-soap',
    kind: 'soap',
    packageName: '@paykit/file-exchange-soap',
    wsdl: 'specs/file-exchange-soap/FileExchange.wsdl',
    xsd: 'specs/file-exchange-soap/FileExchange.xsd',
  },
];
