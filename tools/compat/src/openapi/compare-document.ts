import { HTTP_METHODS, inlineRefs, isNode, resolveRef, type DocumentNode as Node, type OpenApiDocument } from '@paykit/contracts';
import type { Difference, Direction } from '../difference.js';
import { compareSchema, DOCUMENTATION_KEYWORDS, type SchemaWalk } from './compare-schema.js';
import { sameValue } from './same-value.js';

const REPORT_MEDIA_TYPE = /^text\/csv\b/i;

interface Context {
  before: OpenApiDocument;
  after: OpenApiDocument;
  out: Difference[];
}

/** Path of the first server URL, e.g. `/rest/v1` for `{scheme}://{host}/rest/v1`: it carries the major version. */
export function basePath(document: OpenApiDocument): string {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const url = isNode(servers[0]) && typeof servers[0].url === 'string' ? servers[0].url : '/';
  const path = url.replace(/^[^:/]*:\/\/[^/]*/, '').replace(/^\{[^}]+\}:\/\/[^/]*/, '');
  return path.replace(/\/+$/, '') || '/';
}

/** Major version in a base path or namespace (`/rest/v1` -> 1), or undefined when it carries none. */
export function majorVersion(base: string): number | undefined {
  const match = /(?:^|[/:\s])v(\d+)(?:$|[/:.\s])/.exec(base);
  return match ? Number(match[1]) : undefined;
}

/** Path templates compare equal whatever their parameter names (`/a/{id}` and `/a/{key}` are one resource). */
const pathShape = (path: string): string => path.replace(/\{[^}]*\}/g, '{}');

const documentationDifferences = (before: Node, after: Node, location: string, context: Context, keywords = DOCUMENTATION_KEYWORDS): void => {
  for (const keyword of keywords) {
    if (!sameValue(inlineRefs(context.before, before[keyword]), inlineRefs(context.after, after[keyword]))) {
      context.out.push({ kind: 'documentation-changed', location: `${location} ${keyword}`, keyword, detail: `${keyword} changed` });
    }
  }
};

/** Every difference between two bundled OpenAPI documents, in the order a reader meets them. */
export function compareDocuments(before: OpenApiDocument, after: OpenApiDocument): Difference[] {
  const context: Context = { before, after, out: [] };
  const baseBefore = basePath(before);
  const baseAfter = basePath(after);
  if (baseBefore !== baseAfter) {
    context.out.push({ kind: 'base-path-changed', location: 'servers[0].url', detail: `base path ${baseBefore} -> ${baseAfter}` });
  }
  const infoBefore = isNode(before.info) ? before.info : {};
  const infoAfter = isNode(after.info) ? after.info : {};
  documentationDifferences(infoBefore, infoAfter, 'info', context, ['title', 'summary', 'description']);
  comparePathMap(context, before.paths, after.paths, '', 'request');
  // Webhook payloads are sent by the service and received by the client: the roles of request and response swap.
  comparePathMap(context, before.webhooks, after.webhooks, 'webhook ', 'response');
  return context.out;
}

function comparePathMap(context: Context, beforeMap: unknown, afterMap: unknown, prefix: string, requestDirection: Direction): void {
  const b = isNode(beforeMap) ? beforeMap : {};
  const a = isNode(afterMap) ? afterMap : {};
  const afterByShape = new Map(Object.keys(a).map((p) => [pathShape(p), p]));
  const beforeShapes = new Set(Object.keys(b).map(pathShape));
  for (const path of Object.keys(b)) {
    const match = afterByShape.get(pathShape(path));
    if (match === undefined) {
      context.out.push({ kind: 'path-removed', location: `${prefix}${path}`, detail: `${prefix}${path} removed` });
    } else {
      comparePathItem(context, { template: path, value: b[path] }, { template: match, value: a[match] }, prefix, requestDirection);
    }
  }
  for (const path of Object.keys(a)) {
    if (!beforeShapes.has(pathShape(path))) {
      context.out.push({ kind: 'path-added', location: `${prefix}${path}`, detail: `${prefix}${path} added` });
    }
  }
}

interface PathEntry {
  template: string;
  value: unknown;
}

function comparePathItem(context: Context, beforeEntry: PathEntry, afterEntry: PathEntry, prefix: string, requestDirection: Direction): void {
  const before = resolveRef(context.before, beforeEntry.value)?.node ?? {};
  const after = resolveRef(context.after, afterEntry.value)?.node ?? {};
  const path = `${prefix}${afterEntry.template}`;
  documentationDifferences(before, after, path, context, ['summary', 'description']);
  for (const method of HTTP_METHODS) {
    const location = `${method.toUpperCase()} ${path}`;
    if (before[method] && !after[method]) {
      context.out.push({ kind: 'operation-removed', location, detail: `${location} removed` });
    } else if (!before[method] && after[method]) {
      context.out.push({ kind: 'operation-added', location, detail: `${location} added` });
    } else if (isNode(before[method]) && isNode(after[method])) {
      compareOperation(
        context,
        { template: beforeEntry.template, path: before, operation: before[method] as Node },
        { template: afterEntry.template, path: after, operation: after[method] as Node },
        location,
        requestDirection,
      );
    }
  }
}

interface OperationView {
  /** Path template, e.g. `/transactions/{receiptNumber}`. */
  template: string;
  path: Node;
  operation: Node;
}

const opposite = (direction: Direction): Direction => (direction === 'request' ? 'response' : 'request');

function walkFor(context: Context, direction: Direction, report = false): SchemaWalk {
  return { before: context.before, after: context.after, direction, report, filler: false, visited: new Set(), out: context.out };
}

function compareOperation(context: Context, before: OperationView, after: OperationView, location: string, requestDirection: Direction): void {
  documentationDifferences(before.operation, after.operation, location, context, ['summary', 'description', 'externalDocs', 'deprecated', 'tags']);
  for (const keyword of ['operationId', 'callbacks', 'servers']) {
    if (!sameValue(before.operation[keyword], after.operation[keyword])) {
      context.out.push({ kind: 'other-changed', location: `${location} ${keyword}`, keyword, detail: `${keyword} changed` });
    }
  }
  const securityBefore = effectiveSecurity(context.before, before.operation);
  const securityAfter = effectiveSecurity(context.after, after.operation);
  if (securityBefore !== securityAfter) {
    context.out.push({ kind: 'security-changed', location: `${location} security`, detail: `security ${securityBefore} -> ${securityAfter}` });
  }
  compareParameters(context, before, after, location, requestDirection);
  compareRequestBody(context, before.operation.requestBody, after.operation.requestBody, location, requestDirection);
  compareResponses(context, before.operation.responses, after.operation.responses, location, opposite(requestDirection));
}

/** The security requirements that apply to an operation, with the definition of each scheme they name. */
function effectiveSecurity(document: OpenApiDocument, operation: Node): string {
  const requirements = (Array.isArray(operation.security) ? operation.security : Array.isArray(document.security) ? document.security : []) as unknown[];
  const components = isNode(document.components) ? document.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  const described = requirements
    .filter(isNode)
    .map((requirement) =>
      Object.keys(requirement)
        .sort()
        .map((name) => {
          const scheme = resolveRef(document, schemes[name])?.node ?? {};
          // The description and our `x-` extensions (`x-paykit-sensitive`...) say nothing a client sends.
          const wire = Object.fromEntries(Object.entries(scheme).filter(([key]) => key !== 'description' && !key.startsWith('x-')));
          return `${name}${JSON.stringify(wire)}${JSON.stringify(requirement[name])}`;
        })
        .join('+'),
    )
    .sort();
  return described.length === 0 ? 'none' : described.join(' | ');
}

/**
 * Parameters of an operation (path-level ones first, overridden by the operation's), keyed by what identifies them
 * on the wire: header names ignore case, and a path parameter is its position in the template, since renaming
 * `{id}` to `{receiptNumber}` changes nothing a client sends.
 */
function parameterMap(document: OpenApiDocument, view: OperationView): Map<string, { parameter: Node; label: string }> {
  const map = new Map<string, { parameter: Node; label: string }>();
  const pathNames = [...view.template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
  for (const list of [view.path.parameters, view.operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const parameter = resolveRef(document, raw)?.node;
      if (!parameter) continue;
      const name = String(parameter.name);
      const label = `${String(parameter.in)} ${name}`;
      const key =
        parameter.in === 'path' && pathNames.includes(name)
          ? `path #${pathNames.indexOf(name)}`
          : `${String(parameter.in)} ${parameter.in === 'header' ? name.toLowerCase() : name}`;
      map.set(key, { parameter, label });
    }
  }
  return map;
}

function compareParameters(context: Context, before: OperationView, after: OperationView, location: string, direction: Direction): void {
  const b = parameterMap(context.before, before);
  const a = parameterMap(context.after, after);
  for (const [key, { parameter, label }] of b) {
    const at = `${location} parameter ${a.get(key)?.label ?? label}`;
    const next = a.get(key)?.parameter;
    if (!next) {
      context.out.push({ kind: 'property-removed', location: at, direction, detail: `parameter ${label} removed` });
      continue;
    }
    const requiredBefore = parameter.required === true;
    const requiredAfter = next.required === true;
    if (requiredBefore !== requiredAfter) {
      context.out.push({
        kind: 'property-required-changed',
        location: at,
        direction,
        required: requiredAfter,
        detail: `parameter ${label} is ${requiredAfter ? 'now' : 'no longer'} required`,
      });
    }
    documentationDifferences(parameter, next, at, context, ['description', 'example', 'examples', 'deprecated']);
    for (const keyword of ['style', 'explode', 'allowReserved', 'allowEmptyValue', 'content']) {
      if (!sameValue(parameter[keyword], next[keyword])) {
        context.out.push({ kind: 'other-changed', location: at, direction, keyword, detail: `${keyword} ${JSON.stringify(parameter[keyword])} -> ${JSON.stringify(next[keyword])}` });
      }
    }
    compareSchema(walkFor(context, direction), parameter.schema, next.schema, `${at} schema`);
  }
  for (const [key, { parameter, label }] of a) {
    if (b.has(key)) continue;
    const required = parameter.required === true;
    context.out.push({
      kind: 'property-added',
      location: `${location} parameter ${label}`,
      direction,
      required,
      detail: `${required ? 'required' : 'optional'} parameter ${label} added`,
    });
  }
}

function compareRequestBody(context: Context, beforeValue: unknown, afterValue: unknown, location: string, direction: Direction): void {
  const at = `${location} request body`;
  const before = resolveRef(context.before, beforeValue)?.node;
  const after = resolveRef(context.after, afterValue)?.node;
  if (!before && !after) return;
  if (before && !after) {
    context.out.push({ kind: 'property-removed', location: at, direction, detail: 'request body removed' });
    return;
  }
  if (!before && after) {
    const required = after.required === true;
    context.out.push({ kind: 'property-added', location: at, direction, required, detail: `${required ? 'required' : 'optional'} request body added` });
    return;
  }
  if ((before!.required === true) !== (after!.required === true)) {
    const required = after!.required === true;
    context.out.push({ kind: 'property-required-changed', location: at, direction, required, detail: `request body is ${required ? 'now' : 'no longer'} required` });
  }
  documentationDifferences(before!, after!, at, context, ['description']);
  compareContent(context, before!.content, after!.content, at, direction);
}

function compareContent(context: Context, beforeValue: unknown, afterValue: unknown, location: string, direction: Direction, status?: string): void {
  const b = isNode(beforeValue) ? beforeValue : {};
  const a = isNode(afterValue) ? afterValue : {};
  const statusField = status === undefined ? {} : { status };
  for (const mediaType of Object.keys(b)) {
    const at = `${location} ${mediaType}`;
    if (!(mediaType in a)) {
      context.out.push({ kind: 'media-type-removed', location: at, direction, ...statusField, detail: `media type ${mediaType} removed` });
      continue;
    }
    const before = isNode(b[mediaType]) ? (b[mediaType] as Node) : {};
    const after = isNode(a[mediaType]) ? (a[mediaType] as Node) : {};
    documentationDifferences(before, after, at, context, ['example', 'examples']);
    if (!sameValue(before.encoding, after.encoding)) {
      context.out.push({ kind: 'other-changed', location: at, direction, keyword: 'encoding', detail: 'encoding changed' });
    }
    const report = direction === 'response' && REPORT_MEDIA_TYPE.test(mediaType);
    compareSchema(walkFor(context, direction, report), before.schema, after.schema, `${at} body`);
  }
  for (const mediaType of Object.keys(a)) {
    if (!(mediaType in b)) {
      context.out.push({ kind: 'media-type-added', location: `${location} ${mediaType}`, direction, ...statusField, detail: `media type ${mediaType} added` });
    }
  }
}

function compareResponses(context: Context, beforeValue: unknown, afterValue: unknown, location: string, direction: Direction): void {
  const b = isNode(beforeValue) ? beforeValue : {};
  const a = isNode(afterValue) ? afterValue : {};
  for (const status of Object.keys(b)) {
    const at = `${location} response ${status}`;
    if (!(status in a)) {
      context.out.push({ kind: 'response-removed', location: at, direction, status, detail: `response ${status} removed` });
      continue;
    }
    const before = resolveRef(context.before, b[status])?.node ?? {};
    const after = resolveRef(context.after, a[status])?.node ?? {};
    documentationDifferences(before, after, at, context, ['description']);
    if (!sameValue(before.links, after.links)) {
      context.out.push({ kind: 'other-changed', location: at, direction, keyword: 'links', detail: 'response links changed' });
    }
    compareHeaders(context, before.headers, after.headers, at, direction, status);
    compareContent(context, before.content, after.content, at, direction, status);
  }
  for (const status of Object.keys(a)) {
    if (!(status in b)) {
      context.out.push({ kind: 'response-added', location: `${location} response ${status}`, direction, status, detail: `response ${status} added` });
    }
  }
}

function compareHeaders(context: Context, beforeValue: unknown, afterValue: unknown, location: string, direction: Direction, status: string): void {
  const lower = (map: unknown): Map<string, unknown> =>
    new Map(Object.entries(isNode(map) ? map : {}).map(([k, v]) => [k.toLowerCase(), v]));
  const b = lower(beforeValue);
  const a = lower(afterValue);
  for (const [name, value] of b) {
    const at = `${location} header ${name}`;
    if (!a.has(name)) {
      context.out.push({ kind: 'property-removed', location: at, direction, status, detail: `header ${name} removed` });
      continue;
    }
    const before = resolveRef(context.before, value)?.node ?? {};
    const after = resolveRef(context.after, a.get(name))?.node ?? {};
    if ((before.required === true) !== (after.required === true)) {
      const required = after.required === true;
      context.out.push({ kind: 'property-required-changed', location: at, direction, status, required, detail: `header ${name} is ${required ? 'now' : 'no longer'} required` });
    }
    documentationDifferences(before, after, at, context, ['description', 'example', 'examples', 'deprecated']);
    compareSchema(walkFor(context, direction), before.schema, after.schema, `${at} schema`);
  }
  for (const [name, value] of a) {
    if (b.has(name)) continue;
    const required = resolveRef(context.after, value)?.node.required === true;
    context.out.push({ kind: 'property-added', location: `${location} header ${name}`, direction, status, required, detail: `header ${name} added` });
  }
}
