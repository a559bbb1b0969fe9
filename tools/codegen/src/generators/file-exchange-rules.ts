import { readFileExchangeRules, readFileNamePattern } from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { rulesModule } from './rules-module.js';

/** The file exchange rules (retry window, download limits) and its file-name pattern, as a module at `path`. */
export const fileExchangeRulesGenerator =
  (path: string): Generator =>
  ({ document, specPath }) => {
    const pattern = readFileNamePattern(document);
    const extra =
      `\n/** File names the service accepts, from the contract's \`FileName\` schema. */\n` +
      `export const fileNamePattern = new RegExp(${JSON.stringify(pattern)}, 'u');\n`;
    return [{ path, content: rulesModule(specPath, readFileExchangeRules(document), { extra }) }];
  };
