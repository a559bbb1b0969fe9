import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { OpenApiDocument } from './openapi/index.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const redoclyBin = join(require.resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');

export class BundleError extends Error {
  override name = 'BundleError';
}

/**
 * Bundles a split OpenAPI description into one document with `redocly bundle` (the engine that lints the specs),
 * keeping components and their names so that messages can name them. `cwd` is the repository whose
 * `redocly.yaml` applies.
 */
export async function bundleSpec(specPath: string, cwd: string): Promise<OpenApiDocument> {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-compat-'));
  try {
    const out = join(dir, 'bundle.json');
    await run(process.execPath, [redoclyBin, 'bundle', specPath, '--ext', 'json', '-o', out], {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((error: { stderr?: string; message: string }) => {
      throw new BundleError(`cannot bundle ${specPath}: ${(error.stderr ?? error.message).trim().split('\n').slice(-3).join(' ')}`);
    });
    return JSON.parse(await readFile(out, 'utf8')) as OpenApiDocument;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
