import { gzipSync } from 'node:zlib';
import { build, type Message } from 'esbuild';

export interface BrowserBundle {
  /** esbuild's errors and warnings, one line each (empty: it bundled cleanly). */
  problems: string[];
  /** Minified bundle size and its gzip -9 size, in bytes. */
  bytes: number;
  gzipBytes: number;
  /** The files that went into the bundle, relative to the project. */
  inputs: string[];
}

const describe = (message: Message) => `${message.location?.file ?? ''}: ${message.text}`;

/**
 * Bundles `entryFile` (a sample inside a merchant project) for browsers, as a web app's bundler would: esbuild with
 * platform `browser`, so any Node built-in on the way is an error, not a shim.
 */
export async function bundleForBrowser(projectDir: string, entryFile: string): Promise<BrowserBundle> {
  try {
    const result = await build({
      absWorkingDir: projectDir,
      entryPoints: [entryFile],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.contents ?? new Uint8Array();
    const inputs = Object.keys(result.metafile.inputs);
    const builtins = inputs.filter((input) => input.startsWith('node:') || input.includes('(disabled):'));
    return {
      problems: [...result.warnings.map(describe), ...builtins.map((input) => `Node built-in in the bundle: ${input}`)],
      bytes: code.byteLength,
      gzipBytes: gzipSync(code, { level: 9 }).byteLength,
      inputs,
    };
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    return { problems: errors ? errors.map(describe) : [String(error)], bytes: 0, gzipBytes: 0, inputs: [] };
  }
}
