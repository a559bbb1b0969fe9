import { describe, expect, it } from 'vitest';
import { assertValidFileName, fileNamePattern, InvalidFileNameError } from '../src/index.js';

describe('assertValidFileName', () => {
  it.each(['PAYMENTS_20260121_001.csv', 'a', 'report-1.xml', 'A.B.C', '...hidden', '0'])('accepts %j', (name) => {
    expect(() => assertValidFileName(name)).not.toThrow();
  });

  it.each([
    { name: '', why: /required/ },
    { name: 'has space.csv', why: /only letters/ },
    { name: 'slash/inside', why: /only letters/ },
    { name: 'percent%2F', why: /only letters/ },
    { name: 'accented-é', why: /only letters/ },
    { name: 'line\nbreak', why: /only letters/ },
    { name: '.', why: /another resource/ },
    { name: '..', why: /another resource/ },
  ])('refuses $name', ({ name, why }) => {
    expect(() => assertValidFileName(name)).toThrow(InvalidFileNameError);
    expect(() => assertValidFileName(name)).toThrow(why);
  });

  it("is the contract's pattern, generated from it (pnpm check:generated keeps the two equal)", async () => {
    const generated = await import('../src/generated/rules.js');
    expect(fileNamePattern).toBe(generated.fileNamePattern);
  });
});
