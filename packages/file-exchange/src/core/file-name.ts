import { InvalidFileNameError, type FileExchangeErrorDetails } from './errors.js';
import { fileNamePattern } from './rules.js';

export { fileNamePattern };

/**
 * Throws InvalidFileNameError unless `name` may be sent or used as a local file name: the contract's pattern
 * (letters, digits, underscores, dashes and full stops). `.` and `..` match it but a URL path would resolve them to
 * another resource (and a folder path to another folder), so they are refused too. Both clients check with it: the
 * names given to them and the names the service sends.
 */
export function assertValidFileName(name: unknown, details: Omit<FileExchangeErrorDetails, 'fileName'> = {}): asserts name is string {
  if (typeof name !== 'string' || name.length === 0) {
    throw new InvalidFileNameError(String(name), 'a file name is required', details);
  }
  if (!fileNamePattern.test(name)) {
    throw new InvalidFileNameError(name, 'only letters, digits, underscores, dashes and full stops are allowed', details);
  }
  if (name === '.' || name === '..') {
    throw new InvalidFileNameError(name, 'a name made only of full stops would address another resource', details);
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
