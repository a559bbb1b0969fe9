import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkConfig } from '../src/check-config.js';
import { checkTestFile } from '../src/check-test-file.js';

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const read = (name: string) => readFileSync(fixture(name), 'utf8');
/** Each problem as `line rule`, and the messages apart: the tables below say where and what, the messages how. */
const found = (problems: Array<{ line: number; rule: string }>) => problems.map(({ line, rule }) => `${line} ${rule}`);

describe('rule 1: a package vitest config keeps the defaults or at most 10 s', () => {
  it.each([
    { name: 'defaults.ts', expected: [] },
    { name: 'within-limit.ts', expected: [] },
    { name: 'too-long.ts', expected: ['7 config-timeout', '8 config-timeout'] },
    { name: 'unreadable.ts', expected: ['6 config-timeout'] },
  ])('configs/$name: $expected', ({ name, expected }) => {
    expect(found(checkConfig(`configs/${name}`, read(`configs/${name}`)))).toEqual(expected);
  });

  it('says what was found and what is allowed', () => {
    const [test, hook] = checkConfig('vitest.config.ts', read('configs/too-long.ts'));
    expect(test!.message).toContain('testTimeout is 120000 ms');
    expect(hook!.message).toContain('hookTimeout is 60000 ms');
    expect(hook!.message).toContain('at most 10000 ms');
  });
});

describe('rule 2: a test file sets at most 30 s, or 120 s when it says why it is end-to-end (a release: 900 s a hook)', () => {
  const rows = [
    { name: 'unit-within-limit.test.ts', expected: [] },
    { name: 'unit-too-long.test.ts', expected: ['3 file-timeout'] },
    {
      // Every way of setting a timeout, each above 30 s but the last (the named test function is not a timeout).
      name: 'timeout-forms.test.ts',
      expected: ['5 file-timeout', '5 file-timeout', '6 file-timeout', '7 file-timeout', '8 file-timeout', '9 file-timeout', '10 file-timeout', '11 file-timeout'],
    },
    { name: 'timeout-unreadable.test.ts', expected: ['5 file-timeout', '6 file-timeout'] },
    { name: 'end-to-end.test.ts', expected: ['6 file-timeout'] },
    // A release: its hooks may take 900 s (vi.setConfig's hookTimeout, beforeAll), its tests 120 s.
    { name: 'end-to-end-release.test.ts', expected: ['6 file-timeout', '7 file-timeout'] },
    { name: 'end-to-end-release-long-reason.test.ts', expected: [] },
    { name: 'end-to-end-marker-late.test.ts', expected: ['17 file-timeout'] },
    { name: 'end-to-end-marker-empty.test.ts', expected: ['1 end-to-end-marker', '4 file-timeout'] },
  ];

  it.each(rows)('files/$name: $expected', ({ name, expected }) => {
    expect(found(checkTestFile(`files/${name}`, read(`files/${name}`), fixture(`files/${name}`)))).toEqual(expected);
  });

  it('reads a const imported from a relative module of the package (45 s from support/limits.ts)', () => {
    const problems = checkTestFile('files/timeout-forms.test.ts', read('files/timeout-forms.test.ts'), fixture('files/timeout-forms.test.ts'));
    expect(problems.find((problem) => problem.line === 7)!.message).toContain('afterEach() is 45000 ms');
  });

  it('tells a unit file about the marker, and an end-to-end file about its ceiling', () => {
    const [unit] = checkTestFile('unit.test.ts', read('files/unit-too-long.test.ts'));
    expect(unit!.message).toBe(
      'the timeout argument of it() is 60000 ms, in a file without `// end-to-end: <reason>` in its first 15 lines: a unit test file sets at ' +
        'most 30000 ms; an end-to-end file says why and may set up to 120000 ms',
    );
    const [endToEnd] = checkTestFile('e2e.test.ts', read('files/end-to-end.test.ts'));
    expect(endToEnd!.message).toBe('the timeout argument of it() is 180000 ms: an end-to-end file sets at most 120000 ms a test; split the work into tests');
    const [hook, test] = checkTestFile('release.test.ts', read('files/end-to-end-release.test.ts'));
    expect(hook!.message).toBe('the timeout argument of afterAll() is 950000 ms: an end-to-end file sets at most 900000 ms a hook (a release: 900000 ms a hook, 120000 ms a test)');
    expect(test!.message).toBe('the timeout argument of it() is 200000 ms: an end-to-end file sets at most 120000 ms a test (a release: 900000 ms a hook, 120000 ms a test)');
  });
});

describe('rule 3: no sleep synchronises a test', () => {
  it('reports every sleep not under fake timers, not in a poll loop and not marked real-time, by line', () => {
    const problems = checkTestFile('files/sleeps.test.ts', read('files/sleeps.test.ts'));
    expect(problems.map(({ line, rule, message }) => `${line} ${rule} ${message.split(' ')[0]}`)).toEqual([
      // The sleep helper's own setTimeout (line 5) is not reported: each of its calls is.
      '8 sleep setTimeout()',
      '9 sleep sleep()',
      '10 sleep delay()',
      '11 sleep wait()',
      '12 sleep timers.setTimeout()',
      '13 sleep globalThis.setTimeout()',
      // Lines 18 and 20 are marked with a reason; line 21's marker has none.
      '21 sleep sleep():',
      // waitForListed sleeps inside its poll loop (line 28); waitForNothing has no loop: it is a sleep by another name.
      '33 sleep setTimeout()',
    ]);
  });

  it('says how to meet the rule', () => {
    const [first] = checkTestFile('files/sleeps.test.ts', read('files/sleeps.test.ts'));
    expect(first!.message).toContain('vi.useFakeTimers');
    expect(first!.message).toContain('vi.waitFor');
    expect(first!.message).toContain('// real-time: <reason>');
  });

  it('accepts timers in a file under fake timers', () => {
    expect(checkTestFile('files/fake-timers.test.ts', read('files/fake-timers.test.ts'))).toEqual([]);
  });
});
