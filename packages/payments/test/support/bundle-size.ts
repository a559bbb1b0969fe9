import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type Plugin } from 'esbuild';

export interface BundleMeasure {
  /** Minified bytes. */
  minified: number;
  /** Minified, then gzipped at level 9. */
  gzipped: number;
  code: string;
  /** Modules esbuild had to leave out because the platform does not have them. */
  nodeModulesImported: string[];
  metafile: Metafile;
}

/** Records, rather than resolves, any import of a Node built-in: a browser has none of them. */
const recordNodeBuiltins = (found: string[]): Plugin => ({
  name: 'record-node-builtins',
  setup(builder) {
    builder.onResolve({ filter: /^node:|^(crypto|http|https|net|tls|fs|path|os|stream|zlib|child_process|url|util|buffer)$/ }, (args) => {
      found.push(args.path);
      return { path: args.path, external: true };
    });
  },
});

const packageRoot = new URL('../../', import.meta.url);
const { imports } = JSON.parse(readFileSync(new URL('package.json', packageRoot), 'utf8')) as {
  imports: Record<string, Record<string, string>>;
};

/** esbuild's conditions for a platform: its own, then those every platform matches. */
export const platformConditions = { browser: ['browser', 'import', 'default'], node: ['node', 'import', 'default'] } as const;

/**
 * The module package.json's `imports` gives `specifier` under `conditions` (the first of its conditions, in their
 * order, that is one of them, as bundlers and Node pick), as its source file: `./dist/x.js` is built from `src/x.ts`.
 */
export function importedSource(specifier: string, conditions: readonly string[]): string {
  const targets = imports[specifier];
  const target = targets && Object.entries(targets).find(([condition]) => conditions.includes(condition))?.[1];
  if (!target) throw new Error(`package.json's imports give nothing for ${specifier} under ${conditions.join(', ')}`);
  return fileURLToPath(new URL(target.replace(/^\.\/dist\/(.*)\.js$/, 'src/$1.ts'), packageRoot));
}

/** Resolves the package's own `#` imports as a bundler would from the published package.json, to their sources. */
const packageImports = (conditions: readonly string[]): Plugin => ({
  name: 'package-imports-from-source',
  setup(builder) {
    builder.onResolve({ filter: /^#/ }, (args) => ({ path: importedSource(args.path, conditions) }));
  },
});

/** The entry bundled as a merchant would ship it: everything inlined (openapi-fetch included), minified, ESM. */
export async function measureBundle(
  entry: string,
  platform: 'browser' | 'node',
  /** Conditions besides the platform's (`workerd`, `worker`), as Wrangler or a bundler for workers adds them. */
  conditions?: readonly string[],
): Promise<BundleMeasure> {
  const nodeModulesImported: string[] = [];
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'esm',
    platform,
    write: false,
    metafile: true,
    logLevel: 'silent',
    ...(conditions && { conditions: [...conditions] }),
    plugins: [packageImports([...(conditions ?? []), ...platformConditions[platform]]), ...(platform === 'browser' ? [recordNodeBuiltins(nodeModulesImported)] : [])],
  });
  const output = result.outputFiles[0]!.contents;
  return {
    minified: output.length,
    gzipped: gzipSync(output, { level: 9 }).length,
    code: new TextDecoder().decode(output),
    nodeModulesImported,
    metafile: result.metafile,
  };
}
