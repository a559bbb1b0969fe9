import { join, relative } from 'node:path';
import { bundleOpenApi, findDrift, repoRoot, writeGenerated, type GeneratedFile } from '@paykit/contracts';
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
    const folders = { packageDir: join(repoRoot, output.packageDir), generatedDirs: output.generatedDirs, files };
    if (check) {
      const drift = await findDrift(folders, (path) => relative(repoRoot, path));
      if (drift.length > 0) {
        failed = true;
        console.error(`Generated code of ${output.packageDir} drifted from ${spec}:`);
        for (const line of drift) console.error(`  ${line}`);
      } else console.log(`${output.packageDir}: ${files.length} generated files match ${spec}`);
    } else {
      const { written, unchanged, removed } = await writeGenerated(folders);
      console.log(
        `${output.packageDir}: ${written} files written, ${unchanged} unchanged, ${removed} removed, from ${spec} in ${Math.round(performance.now() - started)} ms`,
      );
    }
  }
  if (failed) console.error('Run `pnpm generate` and commit the result.');
  return failed ? 1 : 0;
}
