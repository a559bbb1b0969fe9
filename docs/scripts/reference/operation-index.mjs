// Every operation of the reference pages, with the address of its entry: a Redoc page routes `#/<tag>/<operationid>`
// (the tag's slug, the operationId in lower case), the SOAP page has an `operation-<name>` section. The guides link
// the operations they name to these addresses (../markdown.mjs), and the search index gets one record per operation
// (../search-index.mjs), since Redoc renders operations in the browser and the built page alone does not hold them.
import { bundleOpenApi, fromRoot, readSoapContract } from '@paykit/contracts';
import { publishableKeyOperations, secretKeyOperations } from '@paykit/payments';
import { anchors } from '../soap-page.mjs';
import { slugify } from '../slug.mjs';
import { restOperations } from './rest-samples.mjs';

/**
 * @typedef {{ operationId: string, page: string, href: string, title: string, summary: string, description: string,
 *   method?: string, path?: string, tag?: string, clientMethod?: string, clientPackage: string, contractTitle: string }} ReferenceOperation
 */

/** The client methods generated from a contract, by operationId: `group.name` (`transactions.create`). */
const clientMethods = /** @type {Record<string, Record<string, { group: string, name: string }>>} */ ({
  payments: { ...secretKeyOperations, ...publishableKeyOperations },
});

/** Redoc's route of an operation. @param {string | undefined} tag @param {string} operationId */
export const redocRoute = (tag, operationId) => `#/${tag ? `${slugify(tag)}/` : ''}${operationId.toLowerCase()}`;

/**
 * @param {{ name: string, page: string, title: string, clientPackage: string }} contract
 * @param {import('./example-values.mjs').Json} doc the bundled contract
 * @returns {ReferenceOperation[]}
 */
export function restReferenceOperations(contract, doc) {
  const methods = clientMethods[contract.name] ?? {};
  return restOperations(doc).map(({ operationId, method, path, operation }) => {
    const tag = /** @type {string[] | undefined} */ (operation.tags)?.[0];
    const call = methods[operationId];
    return {
      operationId,
      page: contract.page,
      href: `${contract.page}${redocRoute(tag, operationId)}`,
      title: String(operation.summary ?? operationId),
      summary: String(operation.summary ?? ''),
      description: String(operation.description ?? ''),
      method: method.toUpperCase(),
      path,
      ...(tag ? { tag } : {}),
      ...(call ? { clientMethod: `${call.group}.${call.name}` } : {}),
      clientPackage: contract.clientPackage,
      contractTitle: contract.title,
    };
  });
}

/**
 * @param {{ page: string, title: string, clientPackage: string }} contract
 * @param {import('@paykit/contracts').SoapContractModel} model
 * @returns {ReferenceOperation[]}
 */
export function soapReferenceOperations(contract, model) {
  return model.operations.map((op) => ({
    operationId: op.name,
    page: contract.page,
    href: `${contract.page}#${anchors.operation(op.name)}`,
    title: op.name,
    summary: op.name,
    description: op.documentation,
    clientMethod: op.name,
    clientPackage: contract.clientPackage,
    contractTitle: contract.title,
  }));
}

/**
 * Every operation of every contract with a reference page.
 * @param {{ rest: { name: string, root: string, page: string, title: string, clientPackage: string }[],
 *   soap: { wsdl: string, page: string, title: string, clientPackage: string }[] }} contracts
 * @returns {Promise<ReferenceOperation[]>}
 */
export async function loadReferenceOperations({ rest, soap }) {
  const found = [];
  for (const contract of rest) found.push(...restReferenceOperations(contract, /** @type {any} */ (await bundleOpenApi(contract.root))));
  for (const contract of soap) found.push(...soapReferenceOperations(contract, await readSoapContract(fromRoot(contract.wsdl))));
  return found;
}

const httpCall = /^(GET|PUT|POST|PATCH|DELETE|HEAD|OPTIONS) (\/\S*)$/;
const methodCall = /^(?:[A-Za-z_$][\w$]*\.)?([A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*)\(.*\)$/;
/** Path templates compare by shape: `/aliases/{id}` names the same operation as `/aliases/{aliasId}`. */
const pathShape = (/** @type {string} */ path) => path.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '') || '/';

/**
 * Finds the operation an inline code span of a guide names: `createTransaction` (an operationId, or a SOAP operation),
 * `POST /transactions` (method and path), or `client.transactions.create()` (the generated client's method). A name
 * two contracts share (`uploadFile`, REST and SOAP) names no one operation: it is not linked.
 * @param {ReferenceOperation[]} operations
 */
export function operationNamer(operations) {
  /** @param {(op: ReferenceOperation) => boolean} test */
  const only = (test) => {
    const hits = operations.filter(test);
    return hits.length === 1 ? hits[0] : undefined;
  };
  /** @param {string} text @returns {ReferenceOperation | undefined} */
  return (text) => {
    const code = text.trim();
    const http = httpCall.exec(code);
    if (http) return only((op) => op.method === http[1] && op.path !== undefined && pathShape(op.path) === pathShape(http[2] ?? ''));
    const call = methodCall.exec(code);
    if (call) return only((op) => op.clientMethod === call[1]);
    return only((op) => op.operationId === code);
  };
}

/**
 * The operations a code sample calls through a client package it imports: `.transactions.create(` for the generated
 * payments client, `.uploadFile(` or `.call('uploadFile'` for the SOAP client.
 * @param {ReferenceOperation[]} operations
 * @param {string} code
 * @returns {ReferenceOperation[]}
 */
export function operationsCalledIn(operations, code) {
  const escape = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return operations.filter(
    (op) =>
      op.clientMethod !== undefined &&
      new RegExp(`from ['"]${escape(op.clientPackage)}['"]`).test(code) &&
      new RegExp(`\\.${escape(op.clientMethod)}\\(|\\.call\\(['"]${escape(op.clientMethod)}['"]`).test(code),
  );
}
