import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli.js';
import { changesetText, demoRepository, fixtureText as fixture, judgeDemo, temporaryDir } from './demo-repository.js';
import { fixturesDir } from './fixtures.js';

const toV2 = (spec: string): string => spec.replace('/rest/v1', '/rest/v2');

describe('the gate decides per contract', () => {
  const cases: { case: string; released?: [string, 'before' | 'after']; current: [string, 'before' | 'after']; v2?: boolean; changeset?: string; status: string; problem?: RegExp }[] = [
    { case: 'no released version passes', current: ['removed-operation', 'after'], status: 'no-released-version' },
    { case: 'no difference needs no changeset', released: ['new-resource', 'before'], current: ['new-resource', 'before'], status: 'passed' },
    { case: 'an allowed change without a changeset fails', released: ['new-resource', 'before'], current: ['new-resource', 'after'], status: 'failed', problem: /no pending changeset names @paykit\/demo/ },
    { case: 'a changeset for another package does not count', released: ['new-resource', 'before'], current: ['new-resource', 'after'], changeset: '@paykit/payments minor', status: 'failed', problem: /no pending changeset names @paykit\/demo/ },
    { case: 'an allowed change with a changeset passes', released: ['new-resource', 'before'], current: ['new-resource', 'after'], changeset: '@paykit/demo minor', status: 'passed' },
    { case: 'a breaking change within v1 fails even with a changeset', released: ['removed-operation', 'before'], current: ['removed-operation', 'after'], changeset: '@paykit/demo major', status: 'failed', problem: /1 breaking change\(s\) within v1/ },
    { case: 'a breaking change in a new major version passes with a major changeset', released: ['removed-operation', 'before'], current: ['removed-operation', 'after'], v2: true, changeset: '@paykit/demo major', status: 'passed' },
    { case: 'a new major version needs a major changeset', released: ['removed-operation', 'before'], current: ['removed-operation', 'after'], v2: true, changeset: '@paykit/demo minor', status: 'failed', problem: /must be a major bump, not minor/ },
  ];

  it.each(cases)('$case', async ({ released, current, v2, changeset, status, problem }) => {
    const currentText = await fixture(...current);
    const [changesetPackage, bump] = changeset?.split(' ') ?? [];
    const root = await demoRepository({
      released: released ? await fixture(...released) : undefined,
      current: v2 ? toV2(currentText) : currentText,
      changesets: changesetPackage && bump ? { 'demo.md': changesetText({ [changesetPackage]: bump }, 'Demo.') } : {},
    });
    const result = await judgeDemo(root);
    const [report] = result.reports;
    expect(report!.status).toBe(status);
    expect(result.ok).toBe(status !== 'failed');
    if (problem) expect(report!.problems.join('\n')).toMatch(problem);
    else expect(report!.problems).toEqual([]);
  });
});

describe('command line', () => {
  it.each([
    {
      case: 'a snapshot that is not JSON',
      setup: async (root: string) => writeFile(join(root, 'tools/compat/released/payments.json'), '{ not json'),
      message: /cannot read \S+payments\.json/,
    },
    {
      case: 'a snapshot of another kind of document',
      setup: async (root: string) => writeFile(join(root, 'tools/compat/released/payments.json'), '{"hello": 1}'),
      message: /payments\.json is not a bundled OpenAPI document/,
    },
    {
      case: 'an XSD that is not well-formed',
      setup: async (root: string) => writeFile(join(root, 'specs/file-exchange-soap/FileExchange.xsd'), '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element></xs:schema>'),
      message: /\S+FileExchange\.xsd:1:\d+: not well-formed XML: unexpected close tag/,
    },
    {
      case: 'a spec redocly cannot bundle',
      setup: async (root: string) => writeFile(join(root, 'specs/payments/openapi.yaml'), 'openapi: 3.1.0\npaths:\n  /a:\n    $ref: missing.yaml\n'),
      message: /cannot bundle \S+openapi\.yaml/,
    },
  ])('check reports $case as an error (exit 1) naming the file', async ({ setup, message }) => {
    const root = await temporaryDir('compat-errors-');
    await mkdir(join(root, 'tools/compat/released'), { recursive: true });
    await mkdir(join(root, 'specs/payments'), { recursive: true });
    await mkdir(join(root, 'specs/file-exchange-soap'), { recursive: true });
    await writeFile(join(root, 'specs/payments/openapi.yaml'), await fixture('new-resource', 'before'));
    await writeFile(join(root, 'specs/file-exchange-soap/FileExchange.wsdl'), await readFile(join(fixturesDir, 'soap/service.wsdl'), 'utf8'));
    await writeFile(join(root, 'specs/file-exchange-soap/FileExchange.xsd'), await readFile(join(fixturesDir, 'soap-new-response-property/before.xsd'), 'utf8'));
    await writeFile(join(root, 'tools/compat/released/payments.json'), JSON.stringify(parse(await fixture('new-resource', 'before'))));
    await setup(root);
    const errors: string[] = [];
    expect(await main(['check', '--root', root], () => {}, (line) => errors.push(line))).toBe(1);
    expect(errors.join('\n')).toMatch(message);
  });

  it.each([
    { args: [], code: 2 },
    { args: ['publish'], code: 2 },
    { args: ['check', '--contract', 'nope'], code: 2 },
    { args: ['check', '--no-such-option'], code: 2 },
    { args: ['--help'], code: 0 },
  ])('paykit-compat $args exits $code with the usage', async ({ args, code }) => {
    const errors: string[] = [];
    expect(await main(args, () => {}, (line) => errors.push(line))).toBe(code);
    expect(errors.join('\n')).toMatch(/usage:/);
  });

  it('rules prints the whole rule book', async () => {
    const lines: string[] = [];
    expect(await main(['rules'], (line) => lines.push(line))).toBe(0);
    expect(lines.some((l) => /^ALLOWED\s+new-open-enum-value\s/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/^BREAKING\s+unclassified-change\s/);
  });
});
