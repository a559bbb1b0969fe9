import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { bundleSpec } from './bundle.js';
import { contracts, type Contract, type GeneratedFile } from './contracts.js';
import { repoRoot } from './paths.js';

const usage = `usage: paykit-codegen <${Object.keys(contracts).join('|')}> [--check]
  writes the generated files of a contract's package; with --check, writes nothing and fails on any difference`;

export async function generate(contract: Contract): Promise<GeneratedFile[]> {
  const document = await bundleSpec(contract.spec);
  const files: GeneratedFile[] = [];
  for (const generator of contract.generators) files.push(...(await generator({ document, contract })));
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

async function write(contract: Contract, files: GeneratedFile[]): Promise<void> {
  const base = join(repoRoot, contract.packageDir);
  for (const dir of contract.generatedDirs) await rm(join(base, dir), { recursive: true, force: true });
  for (const file of files) {
    const path = join(base, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
}

export async function main(args: string[]): Promise<number> {
  const check = args.includes('--check');
  const names = args.filter((a) => !a.startsWith('--'));
  const contract = names.length === 1 ? contracts[names[0]!] : undefined;
  if (!contract) {
    console.error(usage);
    return 2;
  }
  const started = performance.now();
  const files = await generate(contract);
  if (check) {
    const drift = await findDrift(join(repoRoot, contract.packageDir), contract.generatedDirs, files);
    if (drift.length > 0) {
      console.error(`Generated code of ${contract.packageDir} drifted from ${contract.spec}:`);
      for (const line of drift) console.error(`  ${line}`);
      console.error('Run `pnpm generate` and commit the result.');
      return 1;
    }
    console.log(`${contract.packageDir}: ${files.length} generated files match ${contract.spec}`);
    return 0;
  }
  await write(contract, files);
  const ms = Math.round(performance.now() - started);
  console.log(`${contract.packageDir}: wrote ${files.length} files from ${contract.spec} in ${ms} ms`);
  return 0;
}
