import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../repo.js';
import type { OpenApiDocument } from './document.js';

const run = promisify(execFile);
const redoclyBin = join(createRequire(import.meta.url).resolve('@redocly/cli/package.json'), '..', 'bin', 'cli.js');

export class BundleError extends Error {
  override readonly name = 'BundleError';
}

/**
 * Bundles a split OpenAPI description into one JSON document with `redocly bundle`, the engine that lints it, so
 * that what is generated, compared and mocked is exactly what is linted. Components keep their names, so that
 * messages can name them. `cwd` is the folder whose `redocly.yaml` applies (the repository root by default); a
 * relative `specPath` is resolved from it.
 */
export async function bundleOpenApi(specPath: string, options: { cwd?: string } = {}): Promise<OpenApiDocument> {
  const cwd = options.cwd ?? repoRoot;
  const dir = await mkdtemp(join(tmpdir(), 'paykit-bundle-'));
  try {
    const out = join(dir, 'bundle.json');
    await run(process.execPath, [redoclyBin, 'bundle', resolve(cwd, specPath), '--ext', 'json', '-o', out], {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((error: { stderr?: string; message: string }) => {
      const detail = (error.stderr ?? error.message).trim().split('\n').slice(-3).join(' ');
      throw new BundleError(`cannot bundle ${specPath}: ${detail}`);
    });
    return JSON.parse(await readFile(out, 'utf8')) as OpenApiDocument;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
