// `paykit-mock-specs <contract ...>`, run in a mock package's folder by its build: writes the contracts that package
// serves into its dist/specs/. An OpenAPI contract becomes dist/specs/<name>.json, bundled, with every path prefixed
// by the path of the spec's server URL: Prism ignores base paths by design, and the clients call `/rest/v1/...` as the
// real service expects. Two more rewrites serve Prism only: XML examples become XML text (see xml-examples.mjs), and
// `mutualTLS` requirements are dropped because Prism serves plain HTTP, cannot check a client certificate, and flags
// every request with an "unsupported security scheme" violation otherwise. A SOAP contract's WSDL and XSD are copied
// as they are into dist/specs/<name>/. Build time only: the published packages never import @paykit/contracts.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { basePath, bundleOpenApi, contractNamed, contracts, fromRoot, openApiModel } from '@paykit/contracts';
import { serialiseXmlExamples } from './xml-examples.mjs';

const usage = `usage: paykit-mock-specs <${contracts.map((c) => c.name).join('|')}> ...
  writes the named contracts, as the mocks serve them, into dist/specs/ of the current folder`;

/** Removes the security requirements that name a `mutualTLS` scheme, at the root and on each operation. */
function withoutMutualTls(document) {
  const schemes = document.components?.securitySchemes ?? {};
  const isMutualTls = (requirement) => Object.keys(requirement).some((name) => schemes[name]?.type === 'mutualTLS');
  const strip = (holder) => {
    if (!Array.isArray(holder?.security)) return;
    holder.security = holder.security.filter((requirement) => !isMutualTls(requirement));
    if (holder.security.length === 0) delete holder.security;
  };
  // The operations as @paykit/contracts reads them (every method OpenAPI allows), read before the root is changed.
  const operations = openApiModel(document).operations.map((operation) => operation.operation);
  strip(document);
  for (const operation of operations) strip(operation);
}

/** Writes the named contracts into `<cwd>/dist/specs`; 2 on a wrong command line, 1 when a contract fails to bundle. */
export async function main(args, cwd = process.cwd()) {
  const names = args.filter((arg) => !arg.startsWith('-'));
  if (names.length === 0 || names.length !== args.length || names.some((name) => !contracts.some((c) => c.name === name))) {
    console.error(usage);
    return 2;
  }
  const outDir = resolve(cwd, 'dist/specs');
  mkdirSync(outDir, { recursive: true });
  let failed = false;
  for (const contract of names.map(contractNamed)) {
    if (contract.kind === 'soap') {
      // The stateful SOAP mock serves the WSDL and XSD as they are.
      cpSync(dirname(fromRoot(contract.wsdl)), join(outDir, contract.name), { recursive: true });
      console.log(`mock spec ${contract.name}: WSDL and XSD copied`);
      continue;
    }
    let document;
    try {
      document = await bundleOpenApi(contract.root);
    } catch (error) {
      // Bundle the other contracts anyway, so that one broken contract does not hide the state of the rest.
      console.error(`mock spec ${contract.name}: ${error.message}`);
      failed = true;
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
  return failed ? 1 : 0;
}
