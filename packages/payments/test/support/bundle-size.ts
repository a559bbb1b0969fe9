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

/** The entry bundled as a merchant would ship it: everything inlined (openapi-fetch included), minified, ESM. */
export async function measureBundle(entry: string, platform: 'browser' | 'node'): Promise<BundleMeasure> {
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
    plugins: platform === 'browser' ? [recordNodeBuiltins(nodeModulesImported)] : [],
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
