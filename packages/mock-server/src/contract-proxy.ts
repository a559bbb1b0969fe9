import type { ValidatorStarter } from '@paykit/contract-proxy';
import { startPrismProxy } from './prism.js';
import type { RestContract } from './specs.js';

/** The contract proxy's validator: Prism's proxy mode on one of our REST contracts, from the Prism this package bundles. */
export function prismValidator(contract: RestContract): ValidatorStarter {
  return ({ upstream, errors }) => startPrismProxy({ contract, upstream, errors });
}
