// The OpenAPI document the docs render for a contract: the contract bundled by the same engine that lints it, plus
// what only the docs need (the code samples of every operation, the table of the reference's rules, a visible note
// wherever the contract marks one of its assumptions, and the reference's words «…» as quotations). The published
// specs (specs/, and the copies shipped in the packages) are never touched: this exists only in the built page.
import { bundleOpenApi, readOpenApiContract, readSensitiveMarks } from '@paykit/contracts';
import { quotesToHtml } from '../quotes.mjs';
import { addAssumptionNotes } from './assumptions.mjs';
import { restOperations, restSamples } from './rest-samples.mjs';
import { rulesSection } from './rules-table.mjs';

/**
 * @param {{ name: string, root: string }} contract an OpenAPI contract of the registry
 * @returns {Promise<import('./example-values.mjs').Json>}
 */
export async function docsDefinition(contract) {
  const doc = /** @type {import('./example-values.mjs').Json} */ (await bundleOpenApi(contract.root));
  // The samples never show a value the contract marks sensitive (a card number, a security code, a key).
  const marks = readSensitiveMarks(await readOpenApiContract(contract.root));
  const samples = restSamples(contract.name, doc, marks.properties);
  for (const op of restOperations(doc)) op.operation['x-codeSamples'] = samples.get(op.operationId);
  addAssumptionNotes(doc);
  doc.info = { ...doc.info, description: `${doc.info?.description ?? ''}${rulesSection(doc)}` };
  quoteDescriptions(doc);
  return doc;
}

/**
 * The reference's words marked «…» in descriptions become <q> elements, which Redoc renders as quotations.
 * @param {unknown} node changed in place
 */
function quoteDescriptions(node) {
  if (Array.isArray(node)) return node.forEach(quoteDescriptions);
  if (!node || typeof node !== 'object') return;
  const object = /** @type {Record<string, unknown>} */ (node);
  for (const [key, value] of Object.entries(object)) {
    if (key === 'description' && typeof value === 'string') object[key] = quotesToHtml(value);
    else if (key !== 'x-codeSamples') quoteDescriptions(value);
  }
}
