import { stringify } from 'yaml';
import type { Generator } from '../contracts.js';
import { generatedHeader } from '../header.js';

/** The one-file spec shipped inside the package, for Prism, docs and merchants' own tooling. */
export const bundledSpecGenerator: Generator = ({ document, contract }) => [
  {
    path: 'spec/openapi.yaml',
    content: generatedHeader(contract.spec, '#') + stringify(document, { lineWidth: 0, aliasDuplicateObjects: false }),
  },
];
