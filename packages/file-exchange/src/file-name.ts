import { InvalidFileNameError } from './errors.js';

/** The reference's rule: letters, digits, underscores, dashes and full stops. Same pattern as the contract's FileName. */
export const fileNamePattern = /^[A-Za-z0-9_.-]+$/;

/**
 * Throws InvalidFileNameError unless `name` may be sent. `.` and `..` match the character rule but a URL path would
 * resolve them to another resource, so they are refused too.
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
