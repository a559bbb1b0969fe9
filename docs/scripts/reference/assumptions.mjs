// Where a contract goes beyond the reference: its root `x-paykit-assumptions` (what we assume and what to confirm,
// by key) and the `x-paykit-assumption: <key>` marks on the operations, parameters, webhooks and schemas concerned.
// The reference pages show each mark as a note in the marked object's description (in the docs bundle only), and
// the "Confirm with the operator" page lists them all. The lint rule `paykit/assumptions-declared` keeps both halves
// consistent in the specs; this module only reads them.
import { isHttpMethod } from '@paykit/contracts';

export const catalogueExtension = 'x-paykit-assumptions';
export const markExtension = 'x-paykit-assumption';
export const confirmPage = { page: 'confirm-with-the-operator.html', title: 'Confirm with the operator' };

/**
 * @typedef {{ title: string, assume: string, confirm: string, keywords: string[] }} AssumptionText
 * @typedef {AssumptionText & { key: string }} Assumption
 * @typedef {{ keys: string[], where: string, path: string[], node: Record<string, unknown> }} Mark
 */

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The assumptions of a bundled contract, in the order the contract lists them.
 * @param {Record<string, unknown>} doc
 * @returns {Assumption[]}
 */
export function readAssumptions(doc) {
  const entries = doc[catalogueExtension];
  if (!isObject(entries)) return [];
  return Object.entries(entries).map(([key, entry]) => {
    const { title, assume, confirm, keywords } = /** @type {AssumptionText} */ (entry);
    return { key, title: title.trim(), assume: assume.trim(), confirm: confirm.trim(), keywords };
  });
}

/**
 * What a path in the bundled document is, in a reader's words: the operation, webhook, parameter or schema.
 * @param {string[]} path
 * @param {Record<string, unknown>} doc
 */
function describe(path, doc) {
  const [top, name, third] = path;
  if (top === 'info') return 'the API as a whole';
  if ((top === 'paths' || top === 'webhooks') && name && third && isHttpMethod(third)) {
    const operation = /** @type {Record<string, unknown>} */ (/** @type {any} */ (doc)[top][name][third]);
    const id = typeof operation.operationId === 'string' ? ` (\`${operation.operationId}\`)` : '';
    const what = top === 'paths' ? `\`${third.toUpperCase()} ${name}\`` : `the webhook \`${name}\``;
    const rest = path.slice(3);
    return rest.length === 0 ? `${what}${id}` : `${what}${id}, ${rest.join(' ')}`;
  }
  if (top === 'components' && name && third) {
    const kind = { parameters: 'the parameter', schemas: 'the schema', responses: 'the response', headers: 'the header' }[name] ?? name;
    const inner = path.slice(3).filter((p) => p !== 'properties' && p !== 'allOf' && !/^\d+$/.test(p));
    return `${kind} \`${third}\`${inner.length > 0 ? `, field \`${inner.join('.')}\`` : ''}`;
  }
  return path.join(' ');
}

/**
 * Every marked object of a bundled contract, with the keys it names and where it is.
 * @param {Record<string, unknown>} doc
 * @returns {Mark[]}
 */
export function findMarks(doc) {
  /** @type {Mark[]} */
  const marks = [];
  /** @param {unknown} node @param {string[]} path */
  const walk = (node, path) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...path, String(i)]));
    if (!isObject(node)) return;
    const value = node[markExtension];
    if (value !== undefined) marks.push({ keys: typeof value === 'string' ? [value] : /** @type {string[]} */ (value), where: describe(path, doc), path, node });
    for (const [key, child] of Object.entries(node)) if (key !== catalogueExtension && key !== markExtension) walk(child, [...path, key]);
  };
  walk(doc, []);
  return marks;
}

/** @param {string} key */
export const assumptionAnchor = (key) => `assumption-${key}`;

/**
 * The note a marked object's description gets on the reference page: what we assume, what to confirm, and the link
 * to the full list.
 * @param {Assumption} assumption
 */
export function assumptionNote(assumption) {
  const oneLine = (/** @type {string} */ text) => text.replace(/\s*\n\s*/g, ' ');
  return [
    `> **Our assumption, not the reference's: ${assumption.title}.** ${oneLine(assumption.assume)}`,
    '>',
    `> **Confirm with the operator:** ${oneLine(assumption.confirm)} ([all assumptions](${confirmPage.page}#${assumptionAnchor(assumption.key)}))`,
  ].join('\n');
}

/**
 * Adds the note of every mark to the description of the marked object. Only for the docs bundle: the specs and the
 * packages' copies keep the marks and nothing else.
 * @param {Record<string, unknown>} doc a bundled contract, changed in place
 */
export function addAssumptionNotes(doc) {
  const byKey = new Map(readAssumptions(doc).map((a) => [a.key, a]));
  for (const mark of findMarks(doc)) {
    const notes = mark.keys.map((key) => {
      const assumption = byKey.get(key);
      if (!assumption) throw new Error(`${mark.where} is marked with the assumption "${key}", which the contract does not hold`);
      return assumptionNote(assumption);
    });
    const description = typeof mark.node.description === 'string' ? mark.node.description.trimEnd() : '';
    mark.node.description = [description, ...notes].filter(Boolean).join('\n\n');
  }
}

/**
 * Where a mark's entry is on the contract's Redoc page: the operation or webhook itself; for a parameter or schema,
 * the operations that use it (directly or through other schemas), at most `limit`; the page for the API as a whole.
 * @param {Mark} mark
 * @param {Record<string, unknown>} doc the bundled contract
 * @param {string} page its reference page
 * @param {(tag: string | undefined, operationId: string) => string} route Redoc's route of an operation
 * @returns {{ label: string, href: string }[]}
 */
export function markLinks(mark, doc, page, route, limit = 3) {
  const [top, name, third] = mark.path;
  const any = /** @type {any} */ (doc);
  const linkTo = (/** @type {any} */ operation) => ({ label: String(operation.operationId), href: `${page}${route(operation.tags?.[0], String(operation.operationId))}` });
  if ((top === 'paths' || top === 'webhooks') && name && third && isHttpMethod(third)) return [linkTo(any[top][name][third])];
  if (top !== 'components' || !name || !third) return [{ label: 'the page', href: page }];
  // Every component that leads to this one, then the operations whose text refers to any of them.
  const refs = new Set([`#/components/${name}/${third}`]);
  const components = Object.entries(any.components ?? {}).flatMap(([kind, entries]) => Object.entries(/** @type {object} */ (entries)).map(([n, v]) => [`#/components/${kind}/${n}`, JSON.stringify(v)]));
  for (let grew = true; grew; ) {
    grew = false;
    for (const [ref, text] of components) {
      if (!refs.has(/** @type {string} */ (ref)) && [...refs].some((r) => /** @type {string} */ (text).includes(`"${r}"`))) {
        refs.add(/** @type {string} */ (ref));
        grew = true;
      }
    }
  }
  const users = [];
  for (const top of ['paths', 'webhooks']) {
    for (const item of Object.values(any[top] ?? {})) {
      const shared = JSON.stringify(item.parameters ?? []);
      for (const [method, operation] of Object.entries(item)) {
        if (!isHttpMethod(method)) continue;
        const text = `${shared}${JSON.stringify(operation)}`;
        if ([...refs].some((r) => text.includes(`"${r}"`))) users.push(linkTo(operation));
      }
    }
  }
  return users.length ? users.slice(0, limit) : [{ label: 'the page', href: page }];
}
