import type { OpenApiDocument } from './bundle.js';
import { bundledSpecGenerator } from './generators/bundled-spec.js';
import { paymentsClientGenerators } from './generators/payments-client.js';
import { typesGenerator } from './generators/types.js';

export interface GeneratedFile {
  /** Path relative to the contract's package folder. */
  path: string;
  content: string;
}

export interface Contract {
  /** Split OpenAPI root, relative to the repo root. */
  spec: string;
  /** Package folder that receives the generated files, relative to the repo root. */
  packageDir: string;
  /** Folders owned entirely by the generator: any file in them that no generator writes is drift. */
  generatedDirs: string[];
  generators: Generator[];
}

export type Generator = (input: {
  document: OpenApiDocument;
  contract: Contract;
}) => GeneratedFile[] | Promise<GeneratedFile[]>;

export const contracts: Record<string, Contract> = {
  payments: {
    spec: 'specs/payments/openapi.yaml',
    packageDir: 'packages/payments',
    generatedDirs: ['src/generated', 'spec'],
    generators: [bundledSpecGenerator, typesGenerator, ...paymentsClientGenerators],
  },
  'file-exchange': {
    spec: 'specs/file-exchange/openapi.yaml',
    packageDir: 'packages/file-exchange',
    generatedDirs: ['src/generated', 'spec'],
    generators: [bundledSpecGenerator, typesGenerator],
  },
};
