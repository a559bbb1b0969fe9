// Bundles each REST contract into dist/specs/<name>.json, with every path prefixed by the path of the spec's
// server URL: Prism ignores base paths by design, and the clients call `/rest/v1/...` as the real service expects.
// Two more rewrites serve Prism only: XML examples become XML text (see xml-examples.mjs), and `mutualTLS`
// requirements are dropped because Prism serves plain HTTP, cannot check a client certificate, and flags every
// request with an "unsupported security scheme" violation otherwise.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialiseXmlExamples } from './xml-examples.mjs';

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

/** Removes the security requirements that name a `mutualTLS` scheme, at the root and on each operation. */
function withoutMutualTls(document) {
  const schemes = document.components?.securitySchemes ?? {};
  const isMutualTls = (requirement) => Object.keys(requirement).some((name) => schemes[name]?.type === 'mutualTLS');
  const strip = (holder) => {
    if (!Array.isArray(holder?.security)) return;
    holder.security = holder.security.filter((requirement) => !isMutualTls(requirement));
    if (holder.security.length === 0) delete holder.security;
  };
  strip(document);
  for (const pathItem of Object.values(document.paths ?? {})) for (const operation of Object.values(pathItem)) strip(operation);
}

mkdirSync(outDir, { recursive: true });
for (const [name, spec] of Object.entries(contracts)) {
  if (!existsSync(join(repoRoot, spec))) continue; // a contract not written yet has no mock
  const out = join(outDir, `${name}.json`);
  try {
    execFileSync(process.execPath, [redocly, 'bundle', join(repoRoot, spec), '--ext', 'json', '-o', out], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
  } catch {
    // Bundle the other contracts anyway, so that one broken contract does not hide the state of the rest.
    console.error(`mock spec ${name}: bundling ${spec} failed (see above)`);
    process.exitCode = 1;
    continue;
  }
  const document = JSON.parse(readFileSync(out, 'utf8'));
  const prefix = basePath(document);
  document.paths = Object.fromEntries(Object.entries(document.paths ?? {}).map(([p, item]) => [prefix + p, item]));
  document['x-paykit-mock-base-path'] = prefix;
  serialiseXmlExamples(document);
  withoutMutualTls(document);
  writeFileSync(out, JSON.stringify(document, null, 2));
  console.log(`mock spec ${name}: ${Object.keys(document.paths).length} paths under ${prefix || '/'}`);
}

// The stateful SOAP mock serves the WSDL and XSD as they are; they travel with the package next to the REST bundles.
const soapContract = join(repoRoot, 'specs/file-exchange-soap');
if (existsSync(soapContract)) {
  cpSync(soapContract, join(outDir, 'file-exchange-soap'), { recursive: true });
  console.log('mock spec file-exchange-soap: WSDL and XSD copied');
}
