// The operations and tags of an OpenAPI contract, read straight from the split YAML sources (path items may be
// `$ref`s to files), so the browser test expects what the spec says rather than what Redoc happened to render.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';

export interface SpecOperation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
}

export interface SpecSummary {
  title: string;
  version: string;
  operations: SpecOperation[];
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

type Json = Record<string, unknown>;

function load(file: string, pointer = ''): Json {
  let node: unknown = parse(readFileSync(file, 'utf8'));
  for (const segment of pointer.split('/').filter(Boolean)) {
    node = (node as Json)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node as Json;
}

function resolveRef(node: Json, from: string): { node: Json; file: string } {
  const ref = node.$ref;
  if (typeof ref !== 'string') return { node, file: from };
  const [file = '', pointer] = ref.split('#');
  const target = file ? resolve(dirname(from), file) : from;
  return resolveRef(load(target, pointer), target);
}

export function readSpecSummary(specFile: string): SpecSummary {
  const root = load(specFile);
  const info = root.info as Json;
  const operations: SpecOperation[] = [];
  for (const [path, item] of Object.entries((root.paths ?? {}) as Record<string, Json>)) {
    const { node: pathItem, file } = resolveRef(item, specFile);
    for (const method of methods) {
      const raw = pathItem[method] as Json | undefined;
      if (!raw) continue;
      const operation = resolveRef(raw, file).node;
      operations.push({
        method,
        path,
        operationId: String(operation.operationId),
        summary: String(operation.summary ?? ''),
        tag: String((operation.tags as string[] | undefined)?.[0] ?? ''),
      });
    }
  }
  return { title: String(info.title), version: String(info.version), operations };
}
