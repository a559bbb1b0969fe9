import { fileNamePattern } from './core/rules.js';
import { InvalidFileNameError } from './errors.js';

export { fileNamePattern };

/**
 * Throws InvalidFileNameError unless `name` may be sent: the contract's pattern (letters, digits, underscores,
 * dashes and full stops). `.` and `..` match it but a URL path would resolve them to another resource, so they are
 * refused too.
 */
export function assertValidFileName(name: unknown): asserts name is string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidFileNameError(String(name), 'a file name is required');
  }
  if (!fileNamePattern.test(name)) {
    throw new InvalidFileNameError(name, 'only letters, digits, underscores, dashes and full stops are allowed');
  }
  if (name === '.' || name === '..') {
    throw new InvalidFileNameError(name, 'a name made only of full stops would address another resource');
  }
}

export function isValidFileName(name: unknown): name is string {
  try {
    assertValidFileName(name);
    return true;
  } catch {
    return false;
  }
}
