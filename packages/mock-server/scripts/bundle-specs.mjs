// Bundles each OpenAPI contract of the registry into dist/specs/<name>.json, with every path prefixed by the path of
// the spec's server URL: Prism ignores base paths by design, and the clients call `/rest/v1/...` as the real service
// expects. Two more rewrites serve Prism only: XML examples become XML text (see xml-examples.mjs), and `mutualTLS`
// requirements are dropped because Prism serves plain HTTP, cannot check a client certificate, and flags every
// request with an "unsupported security scheme" violation otherwise. Build time only: @paykit/contracts is a
// devDependency and the published package never imports it.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { basePath, bundleOpenApi, fromRoot, openApiContracts, soapContracts } from '@paykit/contracts';
import { serialiseXmlExamples } from './xml-examples.mjs';

const outDir = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/specs');

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
for (const contract of openApiContracts) {
  let document;
  try {
    document = await bundleOpenApi(contract.root);
  } catch (error) {
    // Bundle the other contracts anyway, so that one broken contract does not hide the state of the rest.
    console.error(`mock spec ${contract.name}: ${error.message}`);
    process.exitCode = 1;
    continue;
  }
  const prefix = basePath(document);
  document.paths = Object.fromEntries(Object.entries(document.paths ?? {}).map(([p, item]) => [prefix + p, item]));
  document['x-paykit-mock-base-path'] = prefix;
  serialiseXmlExamples(document);
  withoutMutualTls(document);
  writeFileSync(join(outDir, `${contract.name}.json`), JSON.stringify(document, null, 2));
  console.log(`mock spec ${contract.name}: ${Object.keys(document.paths).length} paths under ${prefix || '/'}`);
}

// The stateful SOAP mock serves the WSDL and XSD as they are; they travel with the package next to the REST bundles.
for (const contract of soapContracts) {
  cpSync(dirname(fromRoot(contract.wsdl)), join(outDir, contract.name), { recursive: true });
  console.log(`mock spec ${contract.name}: WSDL and XSD copied`);
}
