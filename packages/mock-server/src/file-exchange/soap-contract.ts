import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Folder of FileExchange.wsdl and FileExchange.xsd: the copy the build puts in dist/specs, or the repo's specs/
 * when running from the sources (tests).
 */
export function soapContractDir(): string {
  const candidates = ['../specs/file-exchange-soap/', '../../../../specs/file-exchange-soap/'];
  for (const candidate of candidates) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(`${dir}FileExchange.wsdl`)) return dir;
  }
  throw new Error('FileExchange.wsdl not found: build @paykit/mock-server first (pnpm build).');
}
