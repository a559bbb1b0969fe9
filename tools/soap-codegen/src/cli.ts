import { join, resolve } from 'node:path';
import { ContractError, findDrift, repoRoot, writeGenerated } from '@paykit/contracts';
import { contract, displayPath, generate, isTargetName, targets, type TargetName } from './generate.js';
import type { Output } from './output.js';

const usage = `usage: paykit-soap-codegen <${Object.keys(targets).join('|')}> [--check] [--wsdl FILE] [--out DIR]
  writes what one package needs of the SOAP contract, into that package only: ${contract.clientPackage.dir} the typed
  client and the shipped copy of the contract, the others what their mock serves and where;
  --wsdl defaults to ${contract.wsdl}; --out (default: the repository root) is where the package folders are;
  with --check, writes nothing and fails on any difference`;

interface Options {
  target: TargetName;
  check: boolean;
  wsdl: string;
  out: string;
}

function parseArgs(args: string[]): Options | undefined {
  const options: Omit<Options, 'target'> & { target?: TargetName } = { check: false, wsdl: join(repoRoot, contract.wsdl), out: repoRoot };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--check') options.check = true;
    else if (!arg.startsWith('-') && options.target === undefined && isTargetName(arg)) options.target = arg;
    else if ((arg === '--wsdl' || arg === '--out') && args[i + 1] !== undefined) {
      const value = resolve(args[++i]!);
      if (arg === '--wsdl') options.wsdl = value;
      else options.out = value;
    } else return undefined;
  }
  const { target } = options;
  return target && { ...options, target };
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
    outputs = [await generate(options.wsdl, options.target)];
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
    const folders = { packageDir, generatedDirs: output.generatedDirs, files: output.files };
    if (options.check) {
      const drift = await findDrift(folders, displayPath);
      if (drift.length > 0) {
        failed = true;
        console.error(`Generated SOAP code in ${where} drifted from ${source}:`);
        for (const line of drift) console.error(`  ${line}`);
      } else console.log(`${where}: ${output.files.length} generated files match ${source}`);
    } else {
      const { written, unchanged, removed } = await writeGenerated(folders);
      console.log(`${where}: ${written} files written, ${unchanged} unchanged, ${removed} removed, from ${source} in ${Math.round(performance.now() - started)} ms`);
    }
  }
  if (failed) console.error('Run `pnpm generate` and commit the result.');
  return failed ? 1 : 0;
}
