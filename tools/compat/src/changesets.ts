import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

export class ChangesetError extends Error {
  override name = 'ChangesetError';
}

/**
 * Packages named by the pending changesets of a `.changeset` folder: the keys of each `*.md` file's YAML
 * frontmatter (`"@paykit/payments": minor`), with the bump each asks for. A missing folder means none.
 */
export async function pendingChangesets(dir: string): Promise<Map<string, string>> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const bumps = new Map<string, string>();
  for (const name of names.filter((n) => n.endsWith('.md') && n.toLowerCase() !== 'readme.md').sort()) {
    const text = await readFile(join(dir, name), 'utf8');
    const match = /^---\r?\n([\s\S]*?)\r?\n---\s*(\r?\n|$)/.exec(text);
    if (!match) continue;
    let frontmatter: unknown;
    try {
      frontmatter = parse(match[1]!);
    } catch (error) {
      throw new ChangesetError(`invalid frontmatter in ${join(dir, name)}: ${(error as Error).message}`);
    }
    if (frontmatter === null || frontmatter === undefined) continue;
    if (typeof frontmatter !== 'object' || Array.isArray(frontmatter)) {
      throw new ChangesetError(`frontmatter of ${join(dir, name)} is not a map of package names to bumps`);
    }
    for (const [pkg, bump] of Object.entries(frontmatter)) bumps.set(pkg, String(bump));
  }
  return bumps;
}
