// The OpenAPI document the docs render for a contract: the contract bundled by the same engine that lints it, plus
// what only the docs need (the code samples of every operation, the table of the reference's rules, and a visible
// note wherever the contract marks one of its assumptions). The published
// specs (specs/, and the copies shipped in the packages) are never touched: this exists only in the built page.
import { bundleOpenApi } from '@paykit/contracts';
import { addAssumptionNotes } from './assumptions.mjs';
import { restOperations, restSamples } from './rest-samples.mjs';
import { rulesSection } from './rules-table.mjs';

/**
 * @param {{ name: string, root: string }} contract an OpenAPI contract of the registry
 * @returns {Promise<import('./example-values.mjs').Json>}
 */
export async function docsDefinition(contract) {
  const doc = /** @type {import('./example-values.mjs').Json} */ (await bundleOpenApi(contract.root));
  const samples = restSamples(contract.name, doc);
  for (const op of restOperations(doc)) op.operation['x-codeSamples'] = samples.get(op.operationId);
  addAssumptionNotes(doc);
  doc.info = { ...doc.info, description: `${doc.info?.description ?? ''}${rulesSection(doc)}` };
  return doc;
}
