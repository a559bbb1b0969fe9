import { stringify } from 'yaml';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';

/** The one-file spec shipped inside the package, for Prism, docs and merchants' own tooling. */
export const bundledSpecGenerator: Generator = ({ document, specPath }) => [
  {
    path: 'spec/openapi.yaml',
    content: generatedHeader(specPath, '#') + stringify(document, { lineWidth: 0, aliasDuplicateObjects: false }),
  },
];
