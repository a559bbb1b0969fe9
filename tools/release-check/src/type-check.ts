import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnvironment, run, type CommandResult } from './commands.js';
import { shortName, type PackageManifest } from './entry-points.js';

export const samplesDir = fileURLToPath(new URL('../samples/', import.meta.url));

/** The module settings a merchant's tsconfig may have; each is checked on its own. */
export const moduleModes = ['nodenext', 'bundler'] as const;
export type ModuleMode = (typeof moduleModes)[number];

/** Sample names (`index`, `webhooks`...) that exist for a package folder. */
export async function sampleNames(packageShortName: string): Promise<string[]> {
  const files = await readdir(join(samplesDir, packageShortName)).catch(() => [] as string[]);
  return files.filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
}

/**
 * Packages whose samples are type-checked together: those that bring the same ambient types (the `@types/*` packages
 * they declare). Ambient types reach every file of a program once any file brings them, so a package that brings
 * none (@paykit/payments, which browsers load) is checked apart from those that bring @types/node: its types must
 * hold without Node's. `name` reads `types-node` (or `no-types`), for the group's tsconfig and the test's title.
 */
export interface TypeCheckGroup {
  name: string;
  packages: string[];
}

export function typeCheckGroups(manifests: PackageManifest[]): TypeCheckGroup[] {
  const groups = new Map<string, string[]>();
  for (const manifest of manifests) {
    const declared = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) =>
      Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
    );
    const ambient = [...new Set(declared.filter((name) => name.startsWith('@types/')))].sort();
    const name = ambient.length === 0 ? 'no-types' : ambient.map((t) => t.slice(1).replace('/', '-')).join('+');
    groups.set(name, [...(groups.get(name) ?? []), manifest.name]);
  }
  return [...groups].map(([name, packages]) => ({ name, packages: packages.sort() })).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Copies the samples of the given packages into a merchant project (`samples/<package folder>/*.ts`, one folder each)
 * with the tsconfigs of both module settings (`tsconfig.<mode>.json`), which each group's tsconfig extends.
 */
export async function addSamples(projectDir: string, packageShortNames: string[]): Promise<void> {
  for (const short of packageShortNames) {
    await mkdir(join(projectDir, 'samples', short), { recursive: true });
    for (const name of await sampleNames(short)) {
      await copyFile(join(samplesDir, short, `${name}.ts`), join(projectDir, 'samples', short, `${name}.ts`));
    }
  }
  for (const mode of moduleModes) {
    await copyFile(join(samplesDir, `tsconfig.${mode}.json`), join(projectDir, `tsconfig.${mode}.json`));
  }
}

const tscPath = join(createRequire(import.meta.url).resolve('typescript/package.json'), '..', 'bin', 'tsc');

export interface TypeCheck {
  result: CommandResult;
  /**
   * One line per distinct diagnostic, without its position, whatever the package manager's layout: the file for the
   * samples and our packages (`samples/payments/index.ts: TS2322 ...`, `@paykit/payments/dist/webhooks/receiver.d.ts:
   * TS2307 ...`), only the package's name for third-party ones (`undici: TS2307 Cannot find module 'node:url' ...`),
   * where one missing module is otherwise one line per file that needs it.
   */
  diagnostics: string[];
}

/**
 * `tsc` on the samples of one group of packages in the project, under one module setting (`tsconfig.<mode>.json`):
 * strict, no emit, and no @types the packages do not bring.
 */
export async function typeCheck(projectDir: string, mode: ModuleMode, group: TypeCheckGroup): Promise<TypeCheck> {
  const config = `tsconfig.${mode}.${group.name}.json`;
  const include = group.packages.map((name) => `samples/${shortName(name)}/*.ts`);
  await writeFile(join(projectDir, config), `${JSON.stringify({ extends: `./tsconfig.${mode}.json`, include }, null, 2)}\n`);
  const result = await run(process.execPath, [tscPath, '-p', config, '--noEmit', '--strict', '--pretty', 'false'], {
    cwd: projectDir,
    env: cleanEnvironment(),
    timeoutMs: 300_000,
  });
  const diagnostics = result.stdout
    .split('\n')
    .filter((line) => /^\S.*error TS\d+:/.test(line))
    .map((line) => {
      const [, file = '', code = '', message = ''] = /^(.*?)(?:\(\d+,\d+\))?: error (TS\d+): (.*)$/.exec(line) ?? [];
      const inPackage = file.includes('node_modules/') ? file.slice(file.lastIndexOf('node_modules/') + 'node_modules/'.length) : undefined;
      const thirdParty = inPackage !== undefined && !inPackage.startsWith('@paykit/');
      const where = thirdParty ? (/^(@[^/]+\/[^/]+|[^/]+)/.exec(inPackage)?.[1] ?? inPackage) : (inPackage ?? file);
      return `${where}: ${code} ${message}`;
    });
  return { result, diagnostics: [...new Set(diagnostics)].sort() };
}
