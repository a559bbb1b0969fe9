import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './paths.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const redoclyBin = join(require.resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');

export type OpenApiDocument = Record<string, unknown> & { paths?: Record<string, unknown> };

/**
 * Bundles a split OpenAPI description into one document with `redocly bundle`, the same engine that lints it, so
 * that what is generated is exactly what is linted.
 */
export async function bundleSpec(specPath: string): Promise<OpenApiDocument> {
  const dir = await mkdtemp(join(tmpdir(), 'paykit-bundle-'));
  try {
    const out = join(dir, 'bundle.json');
    await run(process.execPath, [redoclyBin, 'bundle', join(repoRoot, specPath), '--ext', 'json', '-o', out], {
      cwd: repoRoot,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return JSON.parse(await readFile(out, 'utf8')) as OpenApiDocument;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
