import { openApiContractNamed, type OpenApiContract } from '../registry.js';
import { bundleOpenApi } from './bundle.js';
import { basePath, HTTP_METHODS, isNode, type DocumentNode, type HttpMethod, type OpenApiDocument } from './document.js';
import { IdempotencyKeyError, isIdempotencyKey, readIdempotencyKey, type IdempotencyKey } from './idempotency-key.js';
import { deref, escapePointer, inlineRefs, nodeAt, resolvePointer, resolveRef, type Resolved } from './refs.js';

export interface OpenApiParameter {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  readonly required: boolean;
  /** The schema as written (possibly a `$ref`); undefined when the parameter has `content` instead. */
  readonly schema: DocumentNode | undefined;
  /** Where the schema sits, for validators that compile it in place. */
  readonly schemaPointer: string | undefined;
  /** The Parameter object, after its `$ref`s (its `example`, `examples`, `style`...). */
  readonly node: DocumentNode;
}

export interface NamedExample {
  readonly name: string;
  readonly value: unknown;
}

export interface OpenApiMedia {
  readonly mediaType: string;
  /** JSON pointer of the Media Type object (after the `$ref`s of its request body or response). */
  readonly pointer: string;
  /** The schema as written (possibly a `$ref`). */
  readonly schema: DocumentNode | undefined;
  readonly schemaPointer: string | undefined;
  /** The named examples (resolved), else the single `example` as `example`. */
  readonly examples: NamedExample[];
}

export interface OpenApiRequestBody {
  readonly required: boolean;
  readonly content: OpenApiMedia[];
}

export interface OpenApiResponse {
  /** `200`, `4XX`, `default`. */
  readonly status: string;
  /** Header name -> whether it is required, its schema as written and where that sits. */
  readonly headers: Record<string, { required: boolean; schema: DocumentNode | undefined; schemaPointer: string | undefined }>;
  readonly content: OpenApiMedia[];
}

export interface OpenApiOperation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The path template, or the webhook's name. */
  readonly path: string;
  /** JSON pointer of the Operation object. */
  readonly pointer: string;
  /** The Operation object as written. */
  readonly operation: DocumentNode;
  /** Path-level parameters merged under the operation's own: the operation's wins on location and name. */
  readonly parameters: OpenApiParameter[];
  /** The header the operation takes the idempotency key in (the parameter marked `x-paykit-idempotency-key`), if any. */
  readonly idempotencyHeader: string | undefined;
  /** Security scheme names the operation accepts (its own requirements, else the document's). */
  readonly security: string[];
  readonly requestBody: OpenApiRequestBody | undefined;
  readonly responses: OpenApiResponse[];
  /** The operation's `x-paykit-*` extensions. */
  readonly extensions: Record<string, unknown>;
}

/** A bundled OpenAPI contract read once: its operations with resolved parameters, bodies and answers, and its rules. */
export interface OpenApiContractModel {
  readonly document: OpenApiDocument;
  /** The path of the first server URL (`/rest/v1`). */
  readonly basePath: string;
  /** Every operation of `paths`, in path order then `HTTP_METHODS` order. */
  readonly operations: OpenApiOperation[];
  /** Every operation of `webhooks`, the webhook's name as its path. */
  readonly webhooks: OpenApiOperation[];
  /** The document's root `x-paykit-*` extensions (rules, state machines, assumptions...). */
  readonly extensions: Record<string, unknown>;
  /** The header its operations mark as the idempotency key, with its schema; undefined when none is marked. */
  readonly idempotencyKey: IdempotencyKey | undefined;
  /** The operation with this id; throws naming the contract's ids otherwise. */
  operation(operationId: string): OpenApiOperation;
  /** `resolveRef` on this document. */
  resolve(value: unknown): Resolved | undefined;
  /** `deref` on this document. */
  deref(value: unknown): DocumentNode | undefined;
  /** `inlineRefs` on this document: a copy with every reference replaced, recursion left as a `$ref`. */
  inline(value: unknown): unknown;
  nodeAt(pointer: string): unknown;
  resolvePointer(pointer: string): string;
}

export class OpenApiContractError extends Error {
  override readonly name = 'OpenApiContractError';
}

const paykitExtensions = (node: DocumentNode): Record<string, unknown> =>
  Object.fromEntries(Object.entries(node).filter(([key]) => key.startsWith('x-paykit-')));

const parameterKey = (where: unknown, name: string) => `${String(where)}:${where === 'header' ? name.toLowerCase() : name}`;

function examplesOf(document: OpenApiDocument, media: DocumentNode): NamedExample[] {
  const named = isNode(media.examples)
    ? Object.entries(media.examples).map(([name, example]) => ({ name, value: deref(document, example)?.value }))
    : [];
  if (named.length > 0) return named;
  return 'example' in media ? [{ name: 'example', value: media.example }] : [];
}

/** The Media Type objects under `<pointer>/content` of a request body or response (already resolved). */
function contentAt(document: OpenApiDocument, pointer: string): OpenApiMedia[] {
  const content = nodeAt(document, `${pointer}/content`);
  if (!isNode(content)) return [];
  return Object.entries(content).map(([mediaType, raw]) => {
    const media = isNode(raw) ? raw : {};
    const schema = isNode(media.schema) ? media.schema : undefined;
    const at = `${pointer}/content/${escapePointer(mediaType)}`;
    return { mediaType, pointer: at, schema, schemaPointer: schema ? `${at}/schema` : undefined, examples: examplesOf(document, media) };
  });
}

function parametersOf(document: OpenApiDocument, holders: string[]): OpenApiParameter[] {
  const byKey = new Map<string, OpenApiParameter>();
  for (const holder of holders) {
    const list = nodeAt(document, `${holder}/parameters`);
    if (!Array.isArray(list)) continue;
    list.forEach((_, index) => {
      const at = resolvePointer(document, `${holder}/parameters/${index}`);
      const node = deref(document, list[index]);
      if (!node) throw new OpenApiContractError(`${holder}/parameters/${index} is not a Parameter object`);
      const name = String(node.name);
      const parameter: OpenApiParameter = {
        name,
        in: node.in as OpenApiParameter['in'],
        required: node.required === true,
        schema: isNode(node.schema) ? node.schema : undefined,
        schemaPointer: isNode(node.schema) ? `${at}/schema` : undefined,
        node,
      };
      const key = parameterKey(node.in, name);
      // The operation's own parameter replaces the path item's and comes after the shared ones.
      byKey.delete(key);
      byKey.set(key, parameter);
    });
  }
  return [...byKey.values()];
}

function readOperations(document: OpenApiDocument, map: 'paths' | 'webhooks'): OpenApiOperation[] {
  const operations: OpenApiOperation[] = [];
  const items = isNode(document[map]) ? (document[map] as DocumentNode) : {};
  for (const path of Object.keys(items)) {
    const itemPointer = resolvePointer(document, `#/${map}/${escapePointer(path)}`);
    const item = nodeAt(document, itemPointer);
    if (!isNode(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isNode(operation)) continue;
      const label = `${method.toUpperCase()} ${path}`;
      if (map === 'paths' && typeof operation.operationId !== 'string') throw new OpenApiContractError(`${label} has no operationId`);
      const pointer = `${itemPointer}/${method}`;
      const requirements = (operation.security ?? document.security ?? []) as DocumentNode[];
      const bodyPointer = operation.requestBody ? resolvePointer(document, `${pointer}/requestBody`) : undefined;
      const body = bodyPointer ? nodeAt(document, bodyPointer) : undefined;
      const responses = Object.keys(isNode(operation.responses) ? operation.responses : {}).map((status) => {
        const at = resolvePointer(document, `${pointer}/responses/${escapePointer(status)}`);
        const response = nodeAt(document, at);
        const rawHeaders = isNode(response) && isNode(response.headers) ? response.headers : {};
        const headers = Object.fromEntries(
          Object.entries(rawHeaders).map(([name, raw]) => {
            const header = deref(document, raw) ?? {};
            const schema = isNode(header.schema) ? header.schema : undefined;
            const schemaPointer = schema ? `${resolvePointer(document, `${at}/headers/${escapePointer(name)}`)}/schema` : undefined;
            return [name, { required: header.required === true, schema, schemaPointer }];
          }),
        );
        return { status, headers, content: contentAt(document, at) };
      });
      const parameters = parametersOf(document, [itemPointer, pointer]);
      const [idempotencyKey, ...more] = parameters.filter((parameter) => isIdempotencyKey(parameter, `${label} parameter ${parameter.name}`));
      if (more.length > 0) throw new IdempotencyKeyError(`${label} marks ${[idempotencyKey!, ...more].map((p) => p.name).join(' and ')} as its idempotency key`);
      operations.push({
        operationId: typeof operation.operationId === 'string' ? operation.operationId : label,
        method,
        path,
        pointer,
        operation,
        parameters,
        idempotencyHeader: idempotencyKey?.name,
        security: [...new Set(requirements.flatMap((requirement) => Object.keys(requirement)))],
        requestBody: bodyPointer ? { required: isNode(body) && body.required === true, content: contentAt(document, bodyPointer) } : undefined,
        responses,
        extensions: paykitExtensions(operation),
      });
    }
  }
  return operations;
}

/** The model of an already bundled document (one whose references are all local, as `bundleOpenApi` leaves them). */
export function openApiModel(document: OpenApiDocument): OpenApiContractModel {
  const operations = readOperations(document, 'paths');
  const byId = new Map(operations.map((operation) => [operation.operationId, operation]));
  const marked = operations.flatMap(({ operationId, parameters, idempotencyHeader }) =>
    idempotencyHeader === undefined ? [] : [{ operationId, parameter: parameters.find((p) => p.in === 'header' && p.name === idempotencyHeader)! }],
  );
  return {
    document,
    basePath: basePath(document),
    operations,
    webhooks: readOperations(document, 'webhooks'),
    extensions: paykitExtensions(document),
    idempotencyKey: readIdempotencyKey(document, marked),
    operation(operationId) {
      const found = byId.get(operationId);
      if (!found) throw new OpenApiContractError(`no operation ${operationId}; the contract has ${[...byId.keys()].join(', ')}`);
      return found;
    },
    resolve: (value) => resolveRef(document, value),
    deref: (value) => deref(document, value),
    inline: (value) => inlineRefs(document, value),
    nodeAt: (pointer) => nodeAt(document, pointer),
    resolvePointer: (pointer) => resolvePointer(document, pointer),
  };
}

/**
 * Reads an OpenAPI contract: a registry name (`payments`), a registry entry, or the path of a split root
 * (`openapi.yaml` with `$ref`s to other files). The files are bundled by `bundleOpenApi` (the linting engine), so
 * references to other files become components and every reference left is local.
 */
export async function readOpenApiContract(source: string | OpenApiContract, options: { cwd?: string } = {}): Promise<OpenApiContractModel> {
  const root = typeof source !== 'string' ? source.root : /[/\\]|\.(ya?ml|json)$/i.test(source) ? source : openApiContractNamed(source).root;
  return openApiModel(await bundleOpenApi(root, options));
}
