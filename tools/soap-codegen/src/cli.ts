import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { ContractError, mockServerPackage, repoRoot } from '@paykit/contracts';
import { contract, displayPath, generate } from './generate.js';
import type { GeneratedFile, Output } from './output.js';

const usage = `usage: paykit-soap-codegen [--check] [--wsdl FILE] [--out DIR]
  writes the typed SOAP client code and the shipped copy of the contract into ${contract.clientPackage.dir}, and what
  the SOAP mock needs of it into ${mockServerPackage.dir}/src/generated/${contract.name};
  --wsdl defaults to ${contract.wsdl}; --out (default: the repository root) is where the package folders are;
  with --check, writes nothing and fails on any difference`;

interface Options {
  check: boolean;
  wsdl: string;
  out: string;
}

function parseArgs(args: string[]): Options | undefined {
  const options: Options = { check: false, wsdl: join(repoRoot, contract.wsdl), out: repoRoot };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--check') options.check = true;
    else if ((arg === '--wsdl' || arg === '--out') && args[i + 1] !== undefined) {
      const value = resolve(args[++i]!);
      if (arg === '--wsdl') options.wsdl = value;
      else options.out = value;
    } else return undefined;
  }
  return options;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Differences between what the generator produces and what is in the package, as readable lines. */
export async function findDrift(packageDir: string, generatedDirs: readonly string[], files: readonly GeneratedFile[]): Promise<string[]> {
  const expected = new Map(files.map((f) => [join(packageDir, f.path), f.content]));
  const problems: string[] = [];
  for (const [path, content] of expected) {
    const actual = await readFile(path, 'utf8').catch(() => undefined);
    if (actual === undefined) problems.push(`missing: ${displayPath(path)}`);
    else if (actual !== content) problems.push(`differs: ${displayPath(path)}`);
  }
  for (const dir of generatedDirs) {
    for (const path of await listFiles(join(packageDir, dir))) {
      if (!expected.has(path)) problems.push(`not generated (stale or hand-written): ${displayPath(path)}`);
    }
  }
  return problems;
}

export async function writeGenerated(packageDir: string, output: Output): Promise<void> {
  for (const dir of output.generatedDirs) await rm(join(packageDir, dir), { recursive: true, force: true });
  for (const file of output.files) {
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
  let outputs: Output[];
  try {
    outputs = await generate(options.wsdl);
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    console.error(`paykit-soap-codegen: ${error.message}`);
    return 1;
  }
  const source = displayPath(options.wsdl);
  let failed = false;
  for (const output of outputs) {
    const packageDir = join(options.out, output.packageDir);
    const where = displayPath(packageDir);
    if (options.check) {
      const drift = await findDrift(packageDir, output.generatedDirs, output.files);
      if (drift.length > 0) {
        failed = true;
        console.error(`Generated SOAP code in ${where} drifted from ${source}:`);
        for (const line of drift) console.error(`  ${line}`);
      } else console.log(`${where}: ${output.files.length} generated files match ${source}`);
    } else {
      await writeGenerated(packageDir, output);
      console.log(`${where}: wrote ${output.files.length} files from ${source} in ${Math.round(performance.now() - started)} ms`);
    }
  }
  if (failed) console.error('Run `pnpm generate` and commit the result.');
  return failed ? 1 : 0;
}
