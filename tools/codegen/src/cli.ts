import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { bundleOpenApi, repoRoot } from '@paykit/contracts';
import type { GeneratedFile } from './generator.js';
import { targets, type Output, type Target } from './targets.js';

const usage = `usage: paykit-codegen <${Object.keys(targets).join('|')}> [--check]
  writes the generated files of a contract into its packages; with --check, writes nothing and fails on any difference`;

/** Every file a target's outputs hold, from one bundle of its contract. */
export async function generate(target: Target): Promise<Map<Output, GeneratedFile[]>> {
  const specPath = target.contract.root;
  const document = await bundleOpenApi(specPath);
  const files = new Map<Output, GeneratedFile[]>();
  for (const output of target.outputs) {
    const made: GeneratedFile[] = [];
    for (const generator of output.generators) made.push(...(await generator({ document, specPath })));
    files.set(output, made);
  }
  return files;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Differences between what the generators produce and what is on disk, as readable lines. */
export async function findDrift(
  base: string,
  generatedDirs: readonly string[],
  files: readonly GeneratedFile[],
): Promise<string[]> {
  const expected = new Map(files.map((f) => [join(base, f.path), f.content]));
  const problems: string[] = [];
  for (const [path, content] of expected) {
    const actual = await readFile(path, 'utf8').catch(() => undefined);
    if (actual === undefined) problems.push(`missing: ${relative(repoRoot, path)}`);
    else if (actual !== content) problems.push(`differs: ${relative(repoRoot, path)}`);
  }
  for (const dir of generatedDirs) {
    for (const path of await listFiles(join(base, dir))) {
      if (!expected.has(path)) problems.push(`not generated (stale or hand-written): ${relative(repoRoot, path)}`);
    }
  }
  return problems;
}

async function write(output: Output, files: readonly GeneratedFile[]): Promise<void> {
  const base = join(repoRoot, output.packageDir);
  for (const dir of output.generatedDirs) await rm(join(base, dir), { recursive: true, force: true });
  for (const file of files) {
    const path = join(base, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
}

export async function main(args: string[]): Promise<number> {
  const check = args.includes('--check');
  const names = args.filter((a) => !a.startsWith('--'));
  const target = names.length === 1 ? targets[names[0]!] : undefined;
  if (!target) {
    console.error(usage);
    return 2;
  }
  const started = performance.now();
  const spec = target.contract.root;
  const outputs = await generate(target);
  let failed = false;
  for (const [output, files] of outputs) {
    if (check) {
      const drift = await findDrift(join(repoRoot, output.packageDir), output.generatedDirs, files);
      if (drift.length > 0) {
        failed = true;
        console.error(`Generated code of ${output.packageDir} drifted from ${spec}:`);
        for (const line of drift) console.error(`  ${line}`);
      } else console.log(`${output.packageDir}: ${files.length} generated files match ${spec}`);
    } else {
      await write(output, files);
      console.log(`${output.packageDir}: wrote ${files.length} files from ${spec} in ${Math.round(performance.now() - started)} ms`);
    }
  }
  if (failed) console.error('Run `pnpm generate` and commit the result.');
  return failed ? 1 : 0;
}
