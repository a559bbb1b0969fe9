import { join, relative, resolve } from 'node:path';
import {
  bundleOpenApi,
  findDrift,
  fromRoot,
  openApiModel,
  readSensitiveMarks,
  readSoapContract,
  readSoapSensitiveMarks,
  repoRoot,
  sensitiveModule,
  writeGenerated,
  type GeneratedFile,
  type OpenApiDocument,
} from '@paykit/contracts';
import { generatedHeader } from './header.js';
import { sensitivePath, targets, type MarkedContract, type Target } from './targets.js';

const usage = `usage: paykit-codegen <${Object.keys(targets).join('|')}> [--check] [--out DIR]
  writes the generated files of one package, into that package only; --out (default: the repository root) is where
  the package folders are; with --check, writes nothing and fails on any difference`;

const specOf = (contract: MarkedContract): string => (contract.kind === 'soap' ? contract.wsdl : contract.root);

/** The package's tables of what its contracts mark secret, from the bundles already made where there are some. */
async function sensitiveFile(contracts: MarkedContract[], bundles: Map<string, OpenApiDocument>): Promise<GeneratedFile> {
  const sources = [];
  for (const contract of contracts) {
    const spec = specOf(contract);
    const marks =
      contract.kind === 'soap'
        ? readSoapSensitiveMarks(await readSoapContract(fromRoot(spec)))
        : readSensitiveMarks(openApiModel(bundles.get(spec) ?? (await bundleOpenApi(spec))));
    sources.push({ contract: contract.name, spec, marks });
  }
  return { path: sensitivePath, content: sensitiveModule(generatedHeader(contracts.map(specOf).join(' and ')), sources) };
}

/** Every file a target writes, each source contract bundled once. */
export async function generate(target: Target): Promise<GeneratedFile[]> {
  const files: GeneratedFile[] = [];
  const bundles = new Map<string, OpenApiDocument>();
  for (const { contract, generators } of target.sources) {
    const specPath = contract.root;
    const document = await bundleOpenApi(specPath);
    bundles.set(specPath, document);
    for (const generator of generators) files.push(...(await generator({ document, specPath })));
  }
  if (target.sensitive) files.push(await sensitiveFile(target.sensitive, bundles));
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
  const specs = [...new Set([...target.sources.map((source) => source.contract.root), ...(target.sensitive ?? []).map(specOf)])].join(' and ');
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
