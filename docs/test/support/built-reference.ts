// What the built reference pages carry, read back from dist/: the OpenAPI document a Redoc page renders (the one
// build-docs embeds as `__redoc_definition`), and the samples of the SOAP page.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { paths } from '../../scripts/site-paths.mjs';

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface BuiltOperation {
  operationId: string;
  method: string;
  path: string;
  security?: Record<string, string[]>[];
  requestBody?: unknown;
  codeSamples: CodeSample[];
}

type Json = Record<string, any>;

export function builtDefinition(page: string): Json {
  const html = readFileSync(join(paths.dist, page), 'utf8');
  const match = /const __redoc_definition = (.*);\n/.exec(html);
  if (!match?.[1]) throw new Error(`${page} embeds no Redoc definition`);
  return JSON.parse(match[1]) as Json;
}

export function builtOperations(definition: Json): BuiltOperation[] {
  return Object.entries(definition.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([, op]) => op && typeof op === 'object' && 'operationId' in op)
      .map(([method, op]) => ({ ...(op as Json), operationId: op.operationId, method, path, codeSamples: op['x-codeSamples'] ?? [] }) as BuiltOperation),
  );
}

const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/** The sample blocks of each operation section of the SOAP page, by operation and kind (request, response, call). */
export function builtSoapSamples(page: string): Map<string, Record<string, string>> {
  const html = readFileSync(join(paths.dist, page), 'utf8');
  const found = new Map<string, Record<string, string>>();
  for (const section of html.matchAll(/<section class="operation" id="operation-([^"]+)">([\s\S]*?)<\/section>/g)) {
    const blocks: Record<string, string> = {};
    // Each sample is a div.sample holding a highlighted <pre>: its text is the code without the highlighter's spans.
    for (const block of (section[2] ?? '').matchAll(/<div class="sample sample-(\w+)"[^>]*><pre\b[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre><\/div>/g)) {
      blocks[block[1]!] = (block[2] ?? '')
        .replace(/<[^>]+>/g, '')
        .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
        .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
        .replace(/&(lt|gt|quot|amp);/g, (e) => entities[e] ?? e);
    }
    found.set(section[1]!, blocks);
  }
  return found;
}
