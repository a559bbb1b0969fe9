import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { HTTP_METHODS, repoRoot } from '@paykit/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../src/cli.js';

/**
 * The gate run on a copy of the real `specs/` tree: released as it is now, then edited the way a contributor
 * would edit the split payments spec.
 */
// Every step bundles and compares the three real contracts in process (5 s a test at a load average of 20 here).
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let root: string;
let baseDir: string;
let changesetDir: string;
let schemaFile: string;
let schemaName: string;
let originalSchema: string;

async function run(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await main(args, (line) => lines.push(line), (line) => lines.push(line));
  return { code, lines };
}

const checkArgs = (): string[] => ['check', '--root', root, '--base-dir', baseDir, '--changeset-dir', changesetDir];

/** A component schema returned by a 2xx JSON response of the released payments bundle, and its source file. */
async function responseSchemaOfPayments(): Promise<{ name: string; file: string }> {
  const bundle = JSON.parse(await readFile(join(baseDir, 'payments.json'), 'utf8')) as Record<string, any>;
  for (const item of Object.values(bundle.paths ?? {}) as Record<string, any>[]) {
    for (const operation of Object.values(item)) {
      for (const [status, response] of Object.entries((operation as any)?.responses ?? {})) {
        const ref: unknown = (response as any)?.content?.['application/json']?.schema?.$ref;
        if (!status.startsWith('2') || typeof ref !== 'string') continue;
        const name = ref.split('/').pop()!;
        const file = join(root, 'specs/payments/components/schemas', `${name}.yaml`);
        const schema = parse(await readFile(file, 'utf8').catch(() => 'null'));
        if (schema && Object.keys(schema.properties ?? {}).length > 0) return { name, file };
      }
    }
  }
  throw new Error('the payments spec has no 2xx JSON response with a component schema of its own file');
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'compat-demo-'));
  baseDir = join(root, 'released');
  changesetDir = join(root, '.changeset');
  await cp(join(repoRoot, 'specs'), join(root, 'specs'), { recursive: true });
  await mkdir(changesetDir);
  expect((await run('snapshot', '--root', root, '--base-dir', baseDir)).code).toBe(0);
  ({ name: schemaName, file: schemaFile } = await responseSchemaOfPayments());
  originalSchema = await readFile(schemaFile, 'utf8');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function editSchema(edit: (schema: Record<string, any>) => void): Promise<void> {
  const schema = parse(originalSchema) as Record<string, any>;
  edit(schema);
  await writeFile(schemaFile, stringify(schema));
}

describe('demonstration on a copy of the real specs', () => {
  it('snapshot then check finds no difference in any contract', async () => {
    await writeFile(schemaFile, originalSchema);
    const { code, lines } = await run(...checkArgs());
    expect(lines).toEqual([
      'payments: 0 difference(s) (0 allowed, 0 breaking), v1 -> v1: OK',
      expect.stringMatching(/^file-exchange: 0 difference\(s\) \(0 allowed, 0 breaking\), \S+ -> \S+: OK$/),
      expect.stringMatching(/^file-exchange-soap: 0 difference\(s\) \(0 allowed, 0 breaking\), \S+ -> \S+: OK$/),
    ]);
    expect(code).toBe(0);
  });

  it('removing a response property fails the gate, naming the rule and the location', async () => {
    const removed = Object.keys(parse(originalSchema).properties).at(-1)!;
    await editSchema((schema) => delete schema.properties[removed]);
    const { code, lines } = await run(...checkArgs(), '--contract', 'payments');
    expect(code).toBe(1);
    const pattern = new RegExp(`^BREAKING removed-response-property \\S+ /\\S+ response 2\\d\\d application/json body<${schemaName}>\\.${removed}: property ${removed} removed$`);
    expect(lines.filter((l) => pattern.test(l)).length).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/^payments: .*FAILED: \d+ breaking change\(s\) within v1/);
  });

  it('adding an optional response property passes only with a changeset for @paykit/payments', async () => {
    await editSchema((schema) => {
      schema.properties.compatDemoNote = { type: 'string', description: 'A note added by the compatibility demonstration.' };
    });
    const without = await run(...checkArgs(), '--contract', 'payments');
    expect(without.code).toBe(1);
    expect(without.lines.filter((l) => l.startsWith('BREAKING'))).toEqual([]);
    expect(without.lines).toContainEqual(expect.stringMatching(new RegExp(`^ALLOWED new-response-property \\S+ /\\S+ response 2\\d\\d application/json body<${schemaName}>\\.compatDemoNote$`)));
    expect(without.lines.at(-1)).toMatch(/FAILED: no pending changeset names @paykit\/payments/);

    await writeFile(join(changesetDir, 'demo-note.md'), '---\n"@paykit/payments": minor\n---\n\nTransactions carry a note.\n');
    const withChangeset = await run(...checkArgs(), '--contract', 'payments');
    expect(withChangeset.code).toBe(0);
    expect(withChangeset.lines.at(-1)).toMatch(/^payments: \d+ difference\(s\) \(\d+ allowed, 0 breaking\), v1 -> v1: OK$/);
    await rm(join(changesetDir, 'demo-note.md'));
  });

  it('making an optional request parameter required fails the gate', async () => {
    await writeFile(schemaFile, originalSchema);
    // A query parameter goes into the snapshot first as optional, then becomes required: a request-side breaking change.
    const parameter = join(root, 'specs/payments/components/parameters');
    const optional = { name: 'compatDemoFilter', in: 'query', required: false, schema: { type: 'string' } };
    const path = join(root, 'specs/payments/paths');
    const first = (await readdir(path)).filter((f) => f.endsWith('.yaml')).sort()[0]!;
    const pathItem = parse(await readFile(join(path, first), 'utf8')) as Record<string, any>;
    const method = HTTP_METHODS.find((m) => pathItem[m])!;
    await writeFile(join(parameter, 'CompatDemoFilter.yaml'), stringify(optional));
    pathItem[method].parameters = [...(pathItem[method].parameters ?? []), { $ref: '../components/parameters/CompatDemoFilter.yaml' }];
    await writeFile(join(path, first), stringify(pathItem));
    expect((await run('snapshot', '--root', root, '--base-dir', baseDir, '--contract', 'payments')).code).toBe(0);

    await writeFile(join(parameter, 'CompatDemoFilter.yaml'), stringify({ ...optional, required: true }));
    const { code, lines } = await run(...checkArgs(), '--contract', 'payments');
    expect(code).toBe(1);
    expect(lines).toContainEqual(
      expect.stringMatching(/^BREAKING new-required-request-field \S+ \S+ parameter query compatDemoFilter: parameter query compatDemoFilter is now required$/),
    );
  });
});
