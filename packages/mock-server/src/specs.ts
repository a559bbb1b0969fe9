import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The REST contracts that ship with this package (bundled at build time from the repo's specs/). */
export type RestContract = 'payments' | 'file-exchange';

/** Path of the bundled contract that the Prism mock serves; its paths already carry the server base path. */
export function mockSpecPath(contract: RestContract): string {
  // `../dist/specs` resolves from both src/ (tests) and dist/ (the published build).
  const path = fileURLToPath(new URL(`../dist/specs/${contract}.json`, import.meta.url));
  if (!existsSync(path)) {
    throw new Error(`The ${contract} mock spec is missing at ${path}: build @paykit/mock-server first (pnpm build).`);
  }
  return path;
}
