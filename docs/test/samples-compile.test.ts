// end-to-end: the TypeScript compiler, run once over every sample of the site (about 3 s idle, 10 s and more on a
// loaded 2-core machine).
//
// Every TypeScript sample the site shows is type-checked against the real workspace packages, so an API change shows
// up here as a failing test instead of a sample that no longer compiles: the guides' samples (errors reported at
// their line in the guide), and the client calls of every reference page (REST and SOAP), read back from the built
// site. One compiler run covers them all, with two samples broken on purpose to prove that the check can fail.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openApiContracts, soapContracts } from '@paykit/contracts';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { extractCodeSamples, type CodeSample } from '../scripts/code-samples.mjs';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { builtDefinition, builtOperations, builtSoapSamples } from './support/built-reference.js';
import { readSpecSummary } from './support/spec-operations.js';
import { typeCheck, writeSamples } from './support/type-check.js';

vi.setConfig({ testTimeout: 10_000, hookTimeout: 120_000 });

const dir = join(paths.docsRoot, 'test-results', 'typescript-samples');
const folders = { guides: join(dir, 'guides'), brokenGuide: join(dir, 'broken-guide'), reference: join(dir, 'reference'), brokenReference: join(dir, 'broken-reference') };

const guideSamples = extractCodeSamples(readGuides());
const brokenGuide = extractCodeSamples([{ source: '09-broken.md', markdown: ['# Broken', '', 'Text.', '', '```ts', "const count: number = 'three';", '```'].join('\n') }]);

/** The client call of every operation of every reference page, by `<page>.<operation>`. */
const referenceSamples = new Map<string, string>();
let referenceOperations = 0;
let soapOperations = 0;
for (const contract of openApiContracts) {
  referenceOperations += (await readSpecSummary(join(paths.repoRoot, contract.root))).operations.length;
  for (const op of builtOperations(builtDefinition(contract.docs.page))) {
    const ts = op.codeSamples.find((s) => s.lang === 'TypeScript');
    if (ts) referenceSamples.set(`${contract.docs.page.replace('.html', '')}.${op.operationId}`, ts.source);
  }
}
for (const contract of soapContracts) {
  for (const [operation, blocks] of builtSoapSamples(contract.docs.page)) {
    soapOperations++;
    if (blocks.call) referenceSamples.set(`${contract.docs.page.replace('.html', '')}.${operation}`, blocks.call);
  }
}
const brokenReference = new Map([
  ['payments.broken', "import { createSecretClient } from '@paykit/payments';\nconst payments = createSecretClient({ apiKey: 'k' });\nawait payments.transactions.refundEverything();"],
]);

/** Writes each reference sample as its own module (top-level await, no name clashes). */
function writeReferenceSamples(samples: Map<string, string>, target: string): void {
  mkdirSync(target, { recursive: true });
  for (const [name, code] of samples) writeFileSync(join(target, `${name}.ts`), `${code}\nexport {};\n`);
}

/** The compiler's errors, by the folder of the sample they are in. */
const errors: Record<keyof typeof folders, string[]> = { guides: [], brokenGuide: [], reference: [], brokenReference: [] };

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const byFile = new Map<string, CodeSample>([...writeSamples(guideSamples, folders.guides), ...writeSamples(brokenGuide, folders.brokenGuide)]);
  writeReferenceSamples(referenceSamples, folders.reference);
  writeReferenceSamples(brokenReference, folders.brokenReference);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: relative(dir, join(paths.docsRoot, 'tsconfig.samples.json')), include: ['**/*.ts'] }));
  // Guide samples are reported at their line in the guide; reference samples by their file (<page>.<operation>.ts).
  for (const line of await typeCheck(join(dir, 'tsconfig.json'), byFile, paths.docsRoot)) {
    const guide = /^guides\/([^:]+):/.exec(line)?.[1];
    const folder = guide
      ? guide === '09-broken.md' ? 'brokenGuide' : 'guides'
      : (Object.entries(folders).find(([, path]) => line.startsWith(`${relative(paths.docsRoot, path)}/`))?.[0] as keyof typeof folders | undefined);
    errors[folder ?? 'guides'].push(line);
  }
});

describe('type-checking the guides\' samples', () => {
  it('reports a type error at its line in the guide', () => {
    expect(errors.brokenGuide).toHaveLength(1);
    expect(errors.brokenGuide[0]).toMatch(/^guides\/09-broken\.md:6:7 error TS2322: Type 'string' is not assignable to type 'number'/);
  });

  it('every sample of the guides compiles against the workspace packages', () => {
    expect(guideSamples.length, 'the guides have TypeScript samples').toBeGreaterThan(0);
    expect(errors.guides).toEqual([]);
  });
});

describe('TypeScript samples of the reference pages', () => {
  it('a sample that calls a method the package lacks fails the check', () => {
    expect(errors.brokenReference.join('\n')).toMatch(/payments\.broken\.ts\(3,\d+\): error TS2339: Property 'refundEverything' does not exist/);
  });

  it('every sample of every reference page compiles against the workspace packages', () => {
    expect(soapOperations).toBeGreaterThan(0);
    expect(referenceSamples.size, 'one sample per operation').toBe(referenceOperations + soapOperations);
    expect(errors.reference).toEqual([]);
  });
});
