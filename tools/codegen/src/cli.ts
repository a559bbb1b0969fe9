import { join, relative, resolve } from 'node:path';
import { bundleOpenApi, findDrift, repoRoot, writeGenerated, type GeneratedFile } from '@paykit/contracts';
import { targets, type Target } from './targets.js';

const usage = `usage: paykit-codegen <${Object.keys(targets).join('|')}> [--check] [--out DIR]
  writes the generated files of one package, into that package only; --out (default: the repository root) is where
  the package folders are; with --check, writes nothing and fails on any difference`;

/** Every file a target writes, each source contract bundled once. */
export async function generate(target: Target): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  for (const { contract, generators } of target.sources) {
    const specPath = contract.root;
    const document = await bundleOpenApi(specPath);
    for (const generator of generators) files.push(...(await generator({ document, specPath })));
  }
  return files;
}

function parseArgs(args: string[]): { target: Target; check: boolean; out: string } | undefined {
  let check = false;
  let out = repoRoot;
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--check') check = true;
    else if (arg === '--out' && args[i + 1] !== undefined) out = resolve(args[++i]!);
    else if (arg.startsWith('-')) return undefined;
    else names.push(arg);
  }
  const target = names.length === 1 ? targets[names[0]!] : undefined;
  return target && { target, check, out };
}

export async function main(args: string[]): Promise<number> {
  const options = parseArgs(args);
  if (!options) {
    console.error(usage);
    return 2;
  }
  const { target, check, out } = options;
  const started = performance.now();
  const specs = target.sources.map((source) => source.contract.root).join(' and ');
  const files = await generate(target);
  const packageDir = join(out, target.package.dir);
  const where = relative(repoRoot, packageDir) || packageDir;
  const folders = { packageDir, generatedDirs: target.generatedDirs, files };
  if (check) {
    const drift = await findDrift(folders, (path) => relative(repoRoot, path));
    if (drift.length > 0) {
      console.error(`Generated code of ${where} drifted from ${specs}:`);
      for (const line of drift) console.error(`  ${line}`);
      console.error('Run `pnpm generate` and commit the result.');
      return 1;
    }
    console.log(`${where}: ${files.length} generated files match ${specs}`);
  } else {
    const { written, unchanged, removed } = await writeGenerated(folders);
    console.log(`${where}: ${written} files written, ${unchanged} unchanged, ${removed} removed, from ${specs} in ${Math.round(performance.now() - started)} ms`);
  }
  return 0;
}
