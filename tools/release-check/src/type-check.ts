import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanEnvironment, run, type CommandResult } from './commands.js';

export const samplesDir = fileURLToPath(new URL('../samples/', import.meta.url));

/** The module settings a merchant's tsconfig may have; each is checked on its own. */
export const moduleModes = ['nodenext', 'bundler'] as const;
export type ModuleMode = (typeof moduleModes)[number];

/** Sample names (`index`, `webhooks`...) that exist for a package folder. */
export async function sampleNames(packageShortName: string): Promise<string[]> {
  const files = await readdir(join(samplesDir, packageShortName)).catch(() => [] as string[]);
  return files.filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3));
}

/** Copies a package's samples and the tsconfigs into a merchant project (`samples/*.ts`, `tsconfig.<mode>.json`). */
export async function addSamples(projectDir: string, packageShortName: string): Promise<void> {
  await mkdir(join(projectDir, 'samples'), { recursive: true });
  for (const name of await sampleNames(packageShortName)) {
    await copyFile(join(samplesDir, packageShortName, `${name}.ts`), join(projectDir, 'samples', `${name}.ts`));
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
   * samples and our packages (`@paykit/payments/dist/webhooks/receiver.d.ts: TS2307 ...`), only the package's name
   * for third-party ones (`undici: TS2307 Cannot find module 'node:url' ...`), where one missing module is otherwise
   * one line per file that needs it.
   */
  diagnostics: string[];
}

/** `tsc -p tsconfig.<mode>.json` in the project: strict, no emit, and no @types the packages do not bring. */
export async function typeCheck(projectDir: string, mode: ModuleMode): Promise<TypeCheck> {
  const result = await run(process.execPath, [tscPath, '-p', `tsconfig.${mode}.json`, '--noEmit', '--strict', '--pretty', 'false'], {
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
