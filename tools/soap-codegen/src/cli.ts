import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { defaultPackageDir, defaultWsdl, displayPath, generate, generatedDirs, repoRoot, type GeneratedFile } from './generate.js';
import { ContractError } from './xml-tree.js';

const usage = `usage: paykit-soap-codegen [--check] [--wsdl FILE] [--package DIR]
  writes the typed SOAP client code and the shipped copy of the contract into the package
  (defaults: --wsdl ${defaultWsdl} --package ${defaultPackageDir}, from the repository root);
  with --check, writes nothing and fails on any difference`;

interface Options {
  check: boolean;
  wsdl: string;
  packageDir: string;
}

function parseArgs(args: string[]): Options | undefined {
  const options: Options = { check: false, wsdl: join(repoRoot, defaultWsdl), packageDir: join(repoRoot, defaultPackageDir) };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--check') options.check = true;
    else if ((arg === '--wsdl' || arg === '--package') && args[i + 1] !== undefined) {
      const value = resolve(args[++i]!);
      if (arg === '--wsdl') options.wsdl = value;
      else options.packageDir = value;
    } else return undefined;
  }
  return options;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Differences between what the generator produces and what is in the package, as readable lines. */
export async function findDrift(packageDir: string, files: GeneratedFile[]): Promise<string[]> {
  const expected = new Map(files.map((f) => [join(packageDir, f.path), f.content]));
  const problems: string[] = [];
  const show = (path: string) => displayPath(path);
  for (const [path, content] of expected) {
    const actual = await readFile(path, 'utf8').catch(() => undefined);
    if (actual === undefined) problems.push(`missing: ${show(path)}`);
    else if (actual !== content) problems.push(`differs: ${show(path)}`);
  }
  for (const dir of generatedDirs) {
    for (const path of await listFiles(join(packageDir, dir))) {
      if (!expected.has(path)) problems.push(`not generated (stale or hand-written): ${show(path)}`);
    }
  }
  return problems;
}

export async function writeGenerated(packageDir: string, files: GeneratedFile[]): Promise<void> {
  for (const dir of generatedDirs) await rm(join(packageDir, dir), { recursive: true, force: true });
  for (const file of files) {
    const path = join(packageDir, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file.content);
  }
}

export async function main(args: string[]): Promise<number> {
  const options = parseArgs(args);
  if (!options) {
    console.error(usage);
    return 2;
  }
  const started = performance.now();
  let files: GeneratedFile[];
  try {
    files = await generate(options.wsdl);
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    console.error(`paykit-soap-codegen: ${error.message}`);
    return 1;
  }
  const where = displayPath(options.packageDir);
  const source = displayPath(options.wsdl);
  if (options.check) {
    const drift = await findDrift(options.packageDir, files);
    if (drift.length > 0) {
      console.error(`Generated SOAP code in ${where} drifted from ${source}:`);
      for (const line of drift) console.error(`  ${line}`);
      console.error('Run `pnpm generate` and commit the result.');
      return 1;
    }
    console.log(`${where}: ${files.length} generated files match ${source}`);
    return 0;
  }
  await writeGenerated(options.packageDir, files);
  const ms = Math.round(performance.now() - started);
  console.log(`${where}: wrote ${files.length} files from ${source} in ${ms} ms`);
  return 0;
}
