import ts from 'typescript';
import { FileConstants } from './constants.js';
import { configLimitMs, type Problem } from './rules.js';
import { lineOf, parse, propertyName } from './syntax.js';

const timeoutSettings = new Set(['testTimeout', 'hookTimeout']);

/** Rule 1: a package's vitest config keeps vitest's defaults or sets at most 10 s per test and per hook. */
export function checkConfig(file: string, text: string): Problem[] {
  const source = parse(file, text);
  const constants = new FileConstants(source);
  const problems: Problem[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && timeoutSettings.has(propertyName(node.name) ?? '')) {
      const setting = propertyName(node.name)!;
      const value = constants.valueOf(node.initializer);
      const problem =
        value === undefined
          ? `${setting} is not a number this check can read: write it as a number (or leave vitest's default)`
          : !(value > 0 && value <= configLimitMs)
            ? `${setting} is ${value} ms: a package's vitest config keeps vitest's defaults or sets at most ${configLimitMs} ms; ` +
              'a file that needs longer says why (`// end-to-end: <reason>`) and sets its own timeouts'
            : undefined;
      if (problem) problems.push({ file, line: lineOf(source, node), rule: 'config-timeout', message: problem });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}
