import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { soapContract } from './generated/file-exchange-soap/contract.js';

/**
 * The WSDL the SOAP mock serves (the XSD it imports sits beside it): the copy the build puts in dist/specs, or the
 * repository's specs/ when running from the sources (tests).
 */
export function soapWsdlPath(): string {
  const wsdl = basename(soapContract.wsdl);
  const candidates = [
    // From dist/: the copy in dist/specs/<contract>/.
    new URL(`./specs/${soapContract.name}/${wsdl}`, import.meta.url),
    // From src/: the contract in the repository, three folders up.
    new URL(`../../../${dirname(soapContract.wsdl)}/${wsdl}`, import.meta.url),
  ];
  for (const candidate of candidates) {
    const path = fileURLToPath(candidate);
    if (existsSync(path)) return path;
  }
  throw new Error(`${wsdl} not found: build @paykit/file-exchange-mock first (pnpm build).`);
}
