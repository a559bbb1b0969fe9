import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { Difference } from '../src/difference.js';
import type { OpenApiDocument } from '../src/openapi/index.js';
import { classify } from '../src/rules/index.js';

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export async function loadYamlFixture(rule: string, which: 'before' | 'after'): Promise<OpenApiDocument> {
  return parse(await readFile(join(fixturesDir, rule, `${which}.yaml`), 'utf8')) as OpenApiDocument;
}

export interface Outcome {
  rule: string;
  verdict: string;
  location: string;
}

/** The judgements of a list of differences, sorted so that expectations do not depend on traversal order. */
export function outcomes(differences: Difference[]): Outcome[] {
  return differences
    .map(classify)
    .map(({ rule, difference }) => ({ rule: rule.name, verdict: rule.verdict, location: difference.location }))
    .sort((a, b) => a.location.localeCompare(b.location) || a.rule.localeCompare(b.rule));
}
