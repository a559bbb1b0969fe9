import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ContractError, findDrift, fromRoot, repoRoot, writeGenerated } from '@paykit/contracts';
import { generate } from './generate.js';
import { displayPath } from './header.js';
import { specOf, targets, type Target } from './targets.js';

const usage = (names: string[]) => `usage: paykit-codegen <${names.join('|')}> [--check] [--out DIR]
  writes the generated files of one package, from the OpenAPI and SOAP contracts it reads, into that package only;
  --out (default: the repository root) is where the package folders are; with --check, writes nothing and fails on
  any difference`;

interface Options {
  target: Target;
  check: boolean;
  out: string;
}

/** The command line read by node:util's parseArgs; a message saying what is wrong with it otherwise. */
function readOptions(args: string[], registry: Readonly<Record<string, Target>>): Options | string {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { check: { type: 'boolean', default: false }, out: { type: 'string', default: repoRoot } } });
  } catch (error) {
    return (error as Error).message;
  }
  const [name, ...more] = parsed.positionals;
  if (name === undefined || more.length > 0) return 'name exactly one package';
  if (!Object.hasOwn(registry, name)) return `no package ${JSON.stringify(name)} generates code`;
  return { target: registry[name]!, check: parsed.values.check, out: resolve(parsed.values.out) };
}

/** `paykit-codegen <package> [--check] [--out DIR]`; `registry` stands for the packages' targets in tests. */
export async function main(args: string[], registry: Readonly<Record<string, Target>> = targets): Promise<number> {
  const options = readOptions(args, registry);
  if (typeof options === 'string') {
    console.error(`paykit-codegen: ${options}\n${usage(Object.keys(registry))}`);
    return 2;
  }
  const { target, check, out } = options;
  const started = performance.now();
  const specs = [...new Set([...target.sources.map((source) => specOf(source.contract)), ...(target.sensitive ?? []).map(specOf)])].map((spec) => displayPath(fromRoot(spec))).join(' and ');
  let files;
  try {
    files = await generate(target);
  } catch (error) {
    // What the generators cannot print correctly (an XSD construct, say) is refused with its place: no stack needed.
    if (!(error instanceof ContractError)) throw error;
    console.error(`paykit-codegen: ${error.message}`);
    return 1;
  }
  const packageDir = join(out, target.package.dir);
  const where = displayPath(packageDir);
  const folders = { packageDir, generatedDirs: target.generatedDirs, files };
  if (check) {
    const drift = await findDrift(folders, displayPath);
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
