import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { onTestFinished } from 'vitest';
import { paymentsContract, type OpenApiContract } from '@paykit/contracts';
import { check } from '../src/gate.js';
import { fixturesDir } from './fixtures.js';

/** A contract of the registry's shape that lives only in the throwaway repositories below. */
export const demo: OpenApiContract = {
  ...paymentsContract,
  name: 'demo',
  api: 'demo@v1',
  root: 'specs/demo/openapi.yaml',
  clientPackage: { name: '@paykit/demo', dir: 'packages/demo' },
};

/** A rule fixture's OpenAPI text (`test/fixtures/<name>/<which>.yaml`). */
export const fixtureText = (name: string, which: 'before' | 'after'): Promise<string> => readFile(join(fixturesDir, name, `${which}.yaml`), 'utf8');

/** A changeset file's text: its package bumps as frontmatter, then its body. */
export const changesetText = (packages: Record<string, string>, body: string): string =>
  `---\n${Object.entries(packages).map(([p, b]) => `"${p}": ${b}`).join('\n')}\n---\n\n${body}\n`;

/** A folder of its own, removed when the test that made it finishes. */
export async function temporaryDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A throwaway repository whose current `demo` contract is `current`, whose released one (if any) is `released`,
 * and whose pending changesets are `changesets` (file name → text).
 */
export async function demoRepository(options: { released?: string | undefined; current: string; changesets?: Record<string, string> }): Promise<string> {
  const root = await temporaryDir('compat-demo-');
  await mkdir(join(root, 'specs/demo'), { recursive: true });
  await mkdir(join(root, 'released'));
  await mkdir(join(root, '.changeset'));
  await writeFile(join(root, 'specs/demo/openapi.yaml'), options.current);
  if (options.released !== undefined) await writeFile(join(root, 'released/demo.json'), JSON.stringify(parse(options.released)));
  for (const [name, text] of Object.entries(options.changesets ?? {})) await writeFile(join(root, '.changeset', name), text);
  return root;
}

/** The gate's verdict on a demo repository. */
export const judgeDemo = (root: string) => check({ root, baseDir: join(root, 'released'), changesetDir: join(root, '.changeset'), contracts: [demo] });
