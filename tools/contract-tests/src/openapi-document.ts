import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openApiContractNamed } from '@paykit/contracts';
import { parse as parseYaml } from 'yaml';

/** A JSON value of the spec, read loosely: every walk below checks what it reads. */
export type Node = Record<string, unknown>;

export interface OpenApiDocument extends Node {
  paths?: Record<string, Node>;
  components?: Node;
  security?: Record<string, unknown>[];
}

/** An OpenAPI contract of the registry (`payments`, `file-exchange`). */
export type ContractName = string;

const require = createRequire(import.meta.url);

/**
 * Path of the bundled spec the contract's client package publishes (the registry names the package): the same
 * document its generated code comes from (the codegen's drift check keeps them in step with `specs/`). Reading the
 * published copy means the matrix tests what ships. Read from disk: the file-exchange export map names another file.
 */
export function contractPath(contract: ContractName): string {
  const { clientPackage } = openApiContractNamed(contract);
  return join(dirname(require.resolve(`${clientPackage.name}/package.json`)), 'spec', 'openapi.yaml');
}

export function loadContract(contract: ContractName): OpenApiDocument {
  return parseYaml(readFileSync(contractPath(contract), 'utf8')) as OpenApiDocument;
}

export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows local `$ref`s (`#/components/...`) until a node without one. */
export function resolveRef(document: OpenApiDocument, value: unknown): Node {
  let node = value;
  for (let hops = 0; isNode(node) && typeof node.$ref === 'string'; hops++) {
    if (hops > 32) throw new Error(`Reference cycle at ${node.$ref}`);
    const ref = node.$ref;
    if (!ref.startsWith('#/')) throw new Error(`Only local references are supported, got ${ref}`);
    node = ref
      .slice(2)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((at, key) => (isNode(at) ? at[key] : undefined), document);
  }
  if (!isNode(node)) throw new Error('A reference leads to nothing');
  return node;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Node;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

export interface NamedExample {
  name: string;
  value: unknown;
}

export interface MediaContent {
  mediaType: string;
  schema: Node | undefined;
  examples: NamedExample[];
}

export interface ResponseSpec {
  status: string;
  headers: Record<string, { required: boolean; schema: Node | undefined }>;
  content: MediaContent[];
}

export interface OperationInfo {
  operationId: string;
  method: string;
  path: string;
  parameters: Parameter[];
  security: string[];
  requestBody: { required: boolean; content: MediaContent[] } | undefined;
  responses: ResponseSpec[];
  /** JSON pointer of the operation in the document, for schema references. */
  pointer: string;
}

const methods = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head', 'trace'];

function escapePointer(part: string): string {
  return part.replace(/~/g, '~0').replace(/\//g, '~1');
}

function examplesOf(document: OpenApiDocument, media: Node): NamedExample[] {
  const named = isNode(media.examples)
    ? Object.entries(media.examples).map(([name, example]) => ({ name, value: resolveRef(document, example).value }))
    : [];
  if (named.length > 0) return named;
  return 'example' in media ? [{ name: 'example', value: media.example }] : [];
}

function contentOf(document: OpenApiDocument, holder: Node): MediaContent[] {
  if (!isNode(holder.content)) return [];
  return Object.entries(holder.content).map(([mediaType, media]) => {
    const node = isNode(media) ? media : {};
    return { mediaType, schema: isNode(node.schema) ? node.schema : undefined, examples: examplesOf(document, node) };
  });
}

/** Every operation of the document with its parameters (path-level ones merged), body, responses and security. */
export function listOperations(document: OpenApiDocument): OperationInfo[] {
  const operations: OperationInfo[] = [];
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const item = resolveRef(document, rawItem);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of methods) {
      const operation = item[method];
      if (!isNode(operation)) continue;
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      const byKey = new Map<string, Parameter>();
      for (const raw of [...shared, ...own]) {
        const p = resolveRef(document, raw);
        const parameter: Parameter = {
          name: String(p.name),
          in: p.in as Parameter['in'],
          required: p.required === true,
          schema: isNode(p.schema) ? p.schema : {},
          ...('example' in p ? { example: p.example } : {}),
          ...(isNode(p.examples) ? { examples: p.examples as Parameter['examples'] } : {}),
        };
        byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      }
      const requirements = (operation.security ?? document.security ?? []) as Record<string, unknown>[];
      const body = operation.requestBody ? resolveRef(document, operation.requestBody) : undefined;
      const responses = Object.entries(isNode(operation.responses) ? operation.responses : {}).map(([status, raw]) => {
        const response = resolveRef(document, raw);
        const headers = Object.fromEntries(
          Object.entries(isNode(response.headers) ? response.headers : {}).map(([name, rawHeader]) => {
            const header = resolveRef(document, rawHeader);
            return [name, { required: header.required === true, schema: isNode(header.schema) ? header.schema : undefined }];
          }),
        );
        return { status, headers, content: contentOf(document, response) };
      });
      operations.push({
        operationId: String(operation.operationId ?? `${method} ${path}`),
        method: method.toUpperCase(),
        path,
        parameters: [...byKey.values()],
        security: [...new Set(requirements.flatMap((r) => Object.keys(r)))],
        requestBody: body ? { required: body.required === true, content: contentOf(document, body) } : undefined,
        responses,
        pointer: `#/paths/${escapePointer(path)}/${method}`,
      });
    }
  }
  return operations;
}

export const isSuccessStatus = (status: string) => /^2\d\d$/.test(status);
export const isJsonMediaType = (mediaType: string) => /^application\/([\w.-]+\+)?json$/i.test(mediaType);
