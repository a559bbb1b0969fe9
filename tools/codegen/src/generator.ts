import type { CodegenView } from './generators/soap/view.js';
import type { GeneratedFile, OpenApiDocument, SoapContract, SoapContractModel } from '@paykit/contracts';

export type { GeneratedFile };

/** Makes files from a bundled OpenAPI contract; `specPath` (relative to the repo root) goes into their header. */
export type Generator = (input: { document: OpenApiDocument; specPath: string }) => GeneratedFile[] | Promise<GeneratedFile[]>;

/** What a SOAP generator is given: the contract read once (WSDL and XSD), and the part of it the generators print. */
export interface SoapInput {
  contract: SoapContract;
  model: SoapContractModel;
  view: CodegenView;
  /** The WSDL (relative to the repository root when inside it): what the files' headers name. */
  specPath: string;
}

/** Makes files from the WSDL and XSD of a SOAP contract. */
export type SoapGenerator = (input: SoapInput) => GeneratedFile[] | Promise<GeneratedFile[]>;
