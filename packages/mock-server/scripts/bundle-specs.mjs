// Bundles each REST contract into dist/specs/<name>.json, with every path prefixed by the path of the spec's
// server URL: Prism ignores base paths by design, and the clients call `/rest/v1/...` as the real service expects.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../..');
const outDir = resolve(here, '../dist/specs');
const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

const contracts = { payments: 'specs/payments/openapi.yaml', 'file-exchange': 'specs/file-exchange/openapi.yaml' };

/** The path part of the first server URL, with its variables at their defaults: `/rest/v1` for payments. */
function basePath(document) {
  const server = document.servers?.[0];
  if (!server) return '';
  const url = server.url.replace(/\{(\w+)\}/g, (_, name) => server.variables?.[name]?.default ?? '');
  return new URL(url, 'http://placeholder').pathname.replace(/\/$/, '');
}

mkdirSync(outDir, { recursive: true });
for (const [name, spec] of Object.entries(contracts)) {
  if (!existsSync(join(repoRoot, spec))) continue; // a contract not written yet has no mock
  const out = join(outDir, `${name}.json`);
  execFileSync(process.execPath, [redocly, 'bundle', join(repoRoot, spec), '--ext', 'json', '-o', out], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  });
  const document = JSON.parse(readFileSync(out, 'utf8'));
  const prefix = basePath(document);
  document.paths = Object.fromEntries(Object.entries(document.paths ?? {}).map(([p, item]) => [prefix + p, item]));
  document['x-paykit-mock-base-path'] = prefix;
  writeFileSync(out, JSON.stringify(document, null, 2));
  console.log(`mock spec ${name}: ${Object.keys(document.paths).length} paths under ${prefix || '/'}`);
}
