import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@paykit/contracts';
import { ChangesetError, readChangesets } from '../src/changesets.js';
import { main } from '../src/cli.js';
import { changesetText, demoRepository, fixtureText as fixture, judgeDemo, temporaryDir } from './demo-repository.js';

/** A demo repository whose released contract is the rule fixture's before, and current its after. */
const repository = async (rule: string, changesets: Record<string, string>): Promise<string> =>
  demoRepository({ released: await fixture(rule, 'before'), current: await fixture(rule, 'after'), changesets });

const CURRENCY = 'POST /transactions request body application/json body<TransactionRequest>.currency';
const REASON = 'the service has always rejected payments without a currency; only the contract was late';

describe('acknowledgements in changeset bodies', () => {
  it('are read with their file, line and the packages of their changeset', async () => {
    const dir = await temporaryDir('compat-ack-read-');
    await writeFile(join(dir, 'a.md'), changesetText({ '@paykit/demo': 'minor' }, `Currency is required.\n\ncompat-acknowledge: new-required-request-field at \`${CURRENCY}\`: ${REASON}`));
    const { bumps, acknowledgements } = await readChangesets(dir);
    expect(Object.fromEntries(bumps)).toEqual({ '@paykit/demo': 'minor' });
    expect(acknowledgements).toEqual([
      { rule: 'new-required-request-field', location: CURRENCY, reason: REASON, file: join(dir, 'a.md'), line: 7, packages: ['@paykit/demo'] },
    ]);
  });

  it.each([
    { case: 'no backticks around the location', line: `compat-acknowledge: new-required-request-field at ${CURRENCY}: ${REASON}` },
    { case: 'an empty reason', line: `compat-acknowledge: new-required-request-field at \`${CURRENCY}\`:   ` },
    { case: 'no reason at all', line: `compat-acknowledge: new-required-request-field at \`${CURRENCY}\`` },
    { case: 'no rule', line: `compat-acknowledge: at \`${CURRENCY}\`: ${REASON}` },
    { case: 'a misspelt keyword form', line: `Compat-Acknowledge: new-required-request-field \`${CURRENCY}\`: ${REASON}` },
  ])('a malformed line ($case) is an error naming the file and line', async ({ line }) => {
    const dir = await temporaryDir('compat-ack-bad-');
    await writeFile(join(dir, 'bad.md'), changesetText({ '@paykit/demo': 'minor' }, `Text.\n${line}`));
    await expect(readChangesets(dir)).rejects.toThrow(ChangesetError);
    await expect(readChangesets(dir)).rejects.toThrow(new RegExp(`bad\\.md:6: malformed acknowledgement`));
  });
});

describe('the gate with acknowledgements', () => {
  const acknowledge = (location: string, rule = 'new-required-request-field'): string => `compat-acknowledge: ${rule} at \`${location}\`: ${REASON}`;
  const cases: { case: string; changesets: Record<string, string>; ok: boolean; line: RegExp }[] = [
    {
      case: 'without an acknowledgement the breaking change fails as before',
      changesets: { 'c.md': changesetText({ '@paykit/demo': 'minor' }, 'Currency is required.') },
      ok: false,
      line: new RegExp(`^BREAKING new-required-request-field ${escape(CURRENCY)}: `),
    },
    {
      case: 'an acknowledgement naming the rule and location passes and is printed with its reason',
      changesets: { 'c.md': changesetText({ '@paykit/demo': 'minor' }, `Currency is required.\n\n${acknowledge(CURRENCY)}`) },
      ok: true,
      line: new RegExp(`^ACKNOWLEDGED new-required-request-field ${escape(CURRENCY)}: ${REASON}$`),
    },
    {
      case: 'an acknowledgement in a changeset for another package does not count',
      changesets: {
        'c.md': changesetText({ '@paykit/demo': 'minor' }, 'Currency is required.'),
        'other.md': changesetText({ '@paykit/somebody-else': 'minor' }, acknowledge(CURRENCY)),
      },
      ok: false,
      line: /^STALE new-required-request-field at `.+` \(\S+other\.md:5\): this acknowledgement matches no breaking difference$/,
    },
    {
      case: 'an acknowledgement of another rule at that location is stale',
      changesets: { 'c.md': changesetText({ '@paykit/demo': 'minor' }, acknowledge(CURRENCY, 'narrowed-request-type')) },
      ok: false,
      line: /^STALE narrowed-request-type at /,
    },
    {
      case: 'an acknowledgement of a location that has no difference is stale',
      changesets: { 'c.md': changesetText({ '@paykit/demo': 'minor' }, `${acknowledge(CURRENCY)}\n${acknowledge(`${CURRENCY}X`)}`) },
      ok: false,
      line: new RegExp(`^STALE new-required-request-field at \`${escape(CURRENCY)}X\``),
    },
  ];

  it.each(cases)('$case', async ({ changesets, ok, line }) => {
    const result = await judgeDemo(await repository('new-required-request-field', changesets));
    expect(result.ok).toBe(ok);
    expect(result.lines).toContainEqual(expect.stringMatching(line));
  });

  it('acknowledged differences are counted apart in the summary line', async () => {
    const result = await judgeDemo(await repository('new-required-request-field', { 'c.md': changesetText({ '@paykit/demo': 'patch' }, acknowledge(CURRENCY)) }));
    expect(result.lines.at(-1)).toBe('demo: 1 difference(s) (0 allowed, 0 breaking, 1 acknowledged), v1 -> v1: OK');
  });

  it('the command line exits 1 on a malformed acknowledgement, naming the file and line', async () => {
    const root = await repository('new-required-request-field', { 'c.md': changesetText({ '@paykit/payments': 'minor' }, 'compat-acknowledge: oops') });
    const errors: string[] = [];
    const code = await main(['check', '--root', root, '--base-dir', join(root, 'released'), '--contract', 'payments'], () => {}, (l) => errors.push(l));
    expect(code).toBe(1);
    expect(errors.join('\n')).toMatch(/c\.md:5: malformed acknowledgement/);
  });
});

describe('a renamed operationId needs a major changeset of the client package', () => {
  it.each([
    { bump: 'minor', ok: false },
    { bump: 'patch', ok: false },
    { bump: 'major', ok: true },
  ])('with a $bump changeset the gate passes: $ok', async ({ bump, ok }) => {
    const result = await judgeDemo(await repository('renamed-operation-id', { 'c.md': changesetText({ '@paykit/demo': bump }, 'Renamed.') }));
    expect(result.ok).toBe(ok);
    expect(result.lines[0]).toBe('CLIENT-MAJOR renamed-operation-id GET /transactions/{receiptNumber} operationId: operationId changed');
    if (!ok) expect(result.reports[0]!.problems.join('\n')).toMatch(/must be a major bump of the package \(not a new API version\), not /);
  });

  it('without any changeset the gate fails asking for one', async () => {
    const result = await judgeDemo(await repository('renamed-operation-id', {}));
    expect(result.reports[0]!.problems).toEqual(['no pending changeset names @paykit/demo (run pnpm changeset)']);
  });
});

describe('changeset version carries the acknowledgement into the CHANGELOG', () => {
  it('runs the real @changesets/cli on a throwaway workspace', async () => {
    const root = await temporaryDir('compat-ack-version-');
    await mkdir(join(root, 'packages/demo'), { recursive: true });
    await mkdir(join(root, '.changeset'));
    await cp(join(repoRoot, '.changeset/config.json'), join(root, '.changeset/config.json'));
    await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'ack-workspace', private: true, workspaces: ['packages/*'] }));
    await writeFile(join(root, 'packages/demo/package.json'), JSON.stringify({ name: '@paykit/demo', version: '1.0.0' }));
    const line = `compat-acknowledge: new-required-request-field at \`${CURRENCY}\`: ${REASON}`;
    await writeFile(join(root, '.changeset/currency.md'), changesetText({ '@paykit/demo': 'minor' }, `Currency is required.\n\n${line}`));
    // The gate accepts the very file that changesets will turn into the changelog entry.
    expect((await readChangesets(join(root, '.changeset'))).acknowledgements.map((a) => a.reason)).toEqual([REASON]);

    await promisify(execFile)(join(repoRoot, 'node_modules/.bin/changeset'), ['version'], { cwd: root });
    const changelog = await readFile(join(root, 'packages/demo/CHANGELOG.md'), 'utf8');
    expect(changelog).toContain('## 1.1.0');
    expect(changelog).toContain(line);
    expect(JSON.parse(await readFile(join(root, 'packages/demo/package.json'), 'utf8')).version).toBe('1.1.0');
    // The changesets CLI as a process: a few seconds on a loaded machine.
  }, 30_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
