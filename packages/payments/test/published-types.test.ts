// end-to-end: runs the TypeScript compiler over the emitted declarations, one consumer program per test (CPU-bound:
// about a second each, several on a loaded 2-core machine).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
// The oldest TypeScript the package states it supports, for merchants' projects that have not moved on.
import ts50 from 'typescript-5.0';
import { describe, expect, it, vi } from 'vitest';

// A merchant compiles against the declarations this package publishes, with `tsc --strict` and quite possibly without
// @types/node (a browser app, an edge runtime), and with the module resolution of a recent set-up (nodenext) or of an
// older one (node10, which ignores `exports`). The declarations are emitted here from the sources, as the build
// emits them, into a virtual node_modules/@paykit/payments beside this package.json, and a consumer importing the
// package by name is type-checked against them in a program that cannot see @types/node.

vi.setConfig({ testTimeout: 30_000 });

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const buildConfig = ts.getParsedCommandLineOfConfigFile(join(packageDir, 'tsconfig.build.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  },
})!;
/** Where the virtual package lives: inside this one, so that its own dependencies (openapi-fetch) resolve. */
const root = join(packageDir, '.published-types');
const virtualPackage = join(root, 'node_modules', '@paykit', 'payments');
const virtualDist = join(virtualPackage, 'dist');
const packageJson = readFileSync(join(packageDir, 'package.json'), 'utf8');

/** The package's declarations, emitted in memory from the sources with the build's options, and its package.json. */
function emitDeclarations(): Map<string, string> {
  const files = new Map([[join(virtualPackage, 'package.json'), packageJson]]);
  const options = { ...buildConfig.options, outDir: virtualDist, declaration: true, emitDeclarationOnly: true, noEmit: false };
  const program = ts.createProgram(buildConfig.fileNames, options);
  const result = program.emit(undefined, (fileName, text) => files.set(resolve(fileName), text));
  expect(result.diagnostics).toEqual([]);
  return files;
}

const hiddenNodeTypes = /[\\/]@types[\\/]node[\\/]/;

/** Source files of the TypeScript libraries and dependencies, parsed once for every consumer program. */
const parsed = new Map<string, ts.SourceFile>();

const nodenext = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
/** The module settings of a merchant's tsconfig that the declarations are checked under, and the consumer's file. */
const resolutions = {
  nodenext: { options: nodenext, file: 'consumer.ts' },
  // A CommonJS file under nodenext: TypeScript 5.8 and later let it require() an ES module, as Node 20.19 does.
  'nodenext from CommonJS': { options: nodenext, file: 'consumer.cts' },
  // TypeScript's `node` (`node10`): what older projects (module commonjs) have; it finds types through `types` and
  // `typesVersions`, never `exports`.
  node10: { options: { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }, file: 'consumer.ts' },
} satisfies Record<string, { options: ts.CompilerOptions; file: string }>;
type Resolution = keyof typeof resolutions;

/**
 * Type errors of a consumer file compiled against the declarations: strict, with no @types/node to be found. Only
 * the consumer and the package's declarations it reaches are checked: the TypeScript libraries are not ours.
 */
function consumerErrors(declarations: Map<string, string>, consumer: string, resolution: Resolution = 'nodenext', compiler: typeof ts = ts): string[] {
  const consumerPath = join(root, resolutions[resolution].file);
  const options: ts.CompilerOptions = { strict: true, noEmit: true, types: [], target: ts.ScriptTarget.ES2022, ...resolutions[resolution].options };
  const host = compiler.createCompilerHost(options);
  const read = (path: string) => (path === consumerPath ? consumer : declarations.get(resolve(path)));
  host.fileExists = (path) => read(path) !== undefined || (!hiddenNodeTypes.test(path) && ts.sys.fileExists(path));
  host.readFile = (path) => read(path) ?? (hiddenNodeTypes.test(path) ? undefined : ts.sys.readFile(path));
  host.directoryExists = (path) => !hiddenNodeTypes.test(`${path}/`) && (path.startsWith(root) || ts.sys.directoryExists!(path));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (path, language) => {
    const text = read(path);
    if (text !== undefined) return compiler.createSourceFile(path, text, language);
    if (compiler !== ts) return getSourceFile(path, language);
    let file = parsed.get(path);
    if (!file) parsed.set(path, (file = getSourceFile(path, language)!));
    return file;
  };
  const program = compiler.createProgram([consumerPath], options, host);
  const ours = program.getSourceFiles().filter((file) => file.fileName.startsWith(root));
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ].map((d) => `${d.file?.fileName.slice(root.length + 1) ?? ''}: ${compiler.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

const consumers = {
  webhooks: `import { createWebhookReceiver, verifySignature, type WebhookEvent } from '@paykit/payments/webhooks';
const receive = createWebhookReceiver({ secret: 'whsec', onEvent: (event: WebhookEvent) => console.log(event.eventType) });
export const run = (request: Parameters<typeof receive>[0], response: Parameters<typeof receive>[1]) => receive(request, response);
export const checked = verifySignature('{}', 't=1,v1=00', { secret: 'whsec' }).timestamp;`,
  publishable: `import { createPublishableClient, isPaymentsError } from '@paykit/payments/publishable';
const client = createPublishableClient({ apiKey: 'pk', baseUrl: 'https://api.example.test/rest/v1' });
const card = { supplierBusinessCode: 'B', accountType: 'CREDIT_CARD', cardNumber: '4111111111111111', expiryDateMonth: '12', expiryDateYear: '2030' } as const;
export const token = client.singleUseTokens.create(card).catch((e: unknown) => isPaymentsError(e));`,
  main: `import { createSecretClient } from '@paykit/payments';
export const facility = createSecretClient({ apiKey: 'sk', baseUrl: 'https://api.example.test/rest/v1' }).facility.get();`,
  raw: `import { createSecretClient } from '@paykit/payments';
import { createRawClient } from '@paykit/payments/raw';
export const answer = createRawClient(createSecretClient({ apiKey: 'sk', baseUrl: 'https://api.example.test/rest/v1' })).GET('/');`,
  validation: `import { publishableRequestCheck } from '@paykit/payments/validation';
export const check = publishableRequestCheck();`,
};

describe('the published declarations need no @types/node', () => {
  const declarations = emitDeclarations();

  it('would notice a declaration that needs Node types (the check can fail)', () => {
    const needsNode = `import type { IncomingMessage } from 'node:http';\nexport type Seen = IncomingMessage;\n`;
    expect(consumerErrors(declarations, needsNode).join('\n')).toMatch(/node:http/);
  });

  it.each(Object.keys(resolutions).flatMap((resolution) => Object.entries(consumers).map(([entry, consumer]) => ({ entry, consumer, resolution: resolution as Resolution }))))(
    'the $entry entry compiles in a strict consumer with $resolution resolution',
    ({ consumer, resolution }) => {
      expect(consumerErrors(declarations, consumer, resolution)).toEqual([]);
    },
  );

  it('would notice an entry that node10 resolution cannot find (the check can fail)', () => {
    expect(consumerErrors(declarations, `export * from '@paykit/payments/no-such-entry';\n`, 'node10').join('\n')).toMatch(/Cannot find module '@paykit\/payments\/no-such-entry'/);
  });
});

describe('the oldest TypeScript stated (peerDependencies: typescript >= 5.4)', () => {
  const declarations = emitDeclarations();

  // Our declarations compile from 5.0; openapi-fetch's own need 5.4 unless skipLibCheck (they are not ours, and not
  // checked here). A mapped tuple in a rest position (TS2574 before 5.4) failed ours.
  it.each(Object.entries(consumers).flatMap(([entry, consumer]) => (['nodenext', 'node10'] as const).map((resolution) => ({ entry, consumer, resolution }))))(
    'the $entry entry compiles under TypeScript 5.0 with $resolution resolution',
    ({ consumer, resolution }) => {
      expect(ts50.version).toBe('5.0.4');
      expect(consumerErrors(declarations, consumer, resolution, ts50 as unknown as typeof ts)).toEqual([]);
    },
  );

  it('TypeScript 5.0 still finds a type error in a consumer (the check can fail)', () => {
    const wrong = `import { createSecretClient } from '@paykit/payments';\nexport const call = createSecretClient({ apiKey: 'sk' }).transactions.get(42 as unknown as boolean);\n`;
    expect(consumerErrors(declarations, wrong, 'nodenext', ts50 as unknown as typeof ts).join('\n')).toMatch(/boolean/);
  });
});

describe('the package.json', () => {
  it('maps every entry with types in typesVersions (for node10) to the declarations exports names', () => {
    const { exports, typesVersions } = JSON.parse(packageJson) as {
      exports: Record<string, string | { types?: string }>;
      typesVersions: { '*': Record<string, string[]> };
    };
    const typed = Object.entries(exports).flatMap(([entry, target]) => (typeof target === 'object' && target.types ? [[entry, target.types] as const] : []));
    const main = typed.find(([entry]) => entry === '.');
    expect(JSON.parse(packageJson).types).toBe(main?.[1]);
    expect(typesVersions['*']).toEqual(Object.fromEntries(typed.filter(([entry]) => entry !== '.').map(([entry, types]) => [entry.slice(2), [types]])));
  });
});

describe('the published build', () => {
  it('emits no source or declaration maps: they would point at sources the package does not ship', () => {
    const files: string[] = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).files;
    const shipsSources = files.some((entry) => entry === 'src' || entry.startsWith('src/'));
    const { sourceMap, declarationMap, inlineSourceMap } = buildConfig.options;
    expect(shipsSources || !(sourceMap || declarationMap || inlineSourceMap)).toBe(true);
  });
});
