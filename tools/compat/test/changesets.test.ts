import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangesetError, pendingChangesets } from '../src/changesets.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function changesetDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'compat-changesets-'));
  dirs.push(dir);
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const cases: { case: string; files: Record<string, string>; expected: Record<string, string> }[] = [
  {
    case: 'packages from every changeset, README and config ignored',
    files: {
      'README.md': '---\n"@paykit/never": major\n---\n',
      'config.json': '{}',
      'brave-cats.md': '---\n"@paykit/payments": minor\n"@paykit/file-exchange": patch\n---\n\nAdd a field.\n',
      'calm-dogs.md': "---\n'@paykit/file-exchange-soap': major\n---\nNew namespace.\n",
    },
    expected: { '@paykit/payments': 'minor', '@paykit/file-exchange': 'patch', '@paykit/file-exchange-soap': 'major' },
  },
  {
    case: 'the highest bump asked for a package wins, whatever the file order',
    files: {
      'a.md': '---\n"@paykit/payments": major\n---\n\nRenamed a method.\n',
      'b.md': '---\n"@paykit/payments": patch\n---\n\nFixed a typo.\n',
    },
    expected: { '@paykit/payments': 'major' },
  },
  { case: 'an empty changeset names nothing', files: { 'empty.md': '---\n---\n\nNothing to release.\n' }, expected: {} },
  { case: 'a markdown file without frontmatter names nothing', files: { 'notes.md': '# notes\n' }, expected: {} },
];

describe('pending changesets', () => {
  it.each(cases)('$case', async ({ files, expected }) => {
    expect(Object.fromEntries(await pendingChangesets(await changesetDir(files)))).toEqual(expected);
  });

  it('a missing folder means no pending changeset', async () => {
    expect((await pendingChangesets(join(tmpdir(), 'compat-no-such-dir', '.changeset'))).size).toBe(0);
  });

  it('unreadable frontmatter is a clear error naming the file', async () => {
    const dir = await changesetDir({ 'bad.md': '---\n"@paykit/payments": [minor\n---\n' });
    await expect(pendingChangesets(dir)).rejects.toThrow(ChangesetError);
    await expect(pendingChangesets(dir)).rejects.toThrow(/bad\.md/);
  });
});
