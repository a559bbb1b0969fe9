import { ContractError } from '@paykit/contracts';

/**
 * An XSD pattern as a JavaScript regular expression source. XSD patterns are anchored at both ends; the XSD-only
 * escapes (\i, \c, \I, \C) and character class subtraction have no JavaScript equivalent and are refused.
 */
export function xsdPatternToRegExpSource(pattern: string, where: string): string {
  if (/\\[iIcC]/.test(pattern) || /-\[/.test(pattern)) {
    throw new ContractError(`${where}: the XSD pattern "${pattern}" uses XSD-only syntax that has no JavaScript equivalent`);
  }
  const source = `^(?:${pattern})$`;
  try {
    new RegExp(source, 'u');
  } catch (error) {
    throw new ContractError(`${where}: the XSD pattern "${pattern}" is not a valid regular expression (${(error as Error).message})`);
  }
  return source.replace(/\//g, '\\/');
}
