import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A merchant compiles against the declarations this package publishes, with `tsc --strict` and quite possibly without
// @types/node (a browser app, an edge runtime). The declarations are emitted here from the sources, as the build
// emits them, and a consumer is type-checked against them in a program that cannot see @types/node.

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const buildConfig = ts.getParsedCommandLineOfConfigFile(join(packageDir, 'tsconfig.build.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  },
})!;
/** Where the virtual declarations live: inside the package, so that its own dependencies (openapi-fetch) resolve. */
const virtualDist = join(packageDir, '.published-types', 'dist');

/** The package's declarations, emitted in memory from the sources with the build's options. */
function emitDeclarations(): Map<string, string> {
  const files = new Map<string, string>();
  const options = { ...buildConfig.options, outDir: virtualDist, declaration: true, emitDeclarationOnly: true, noEmit: false };
  const program = ts.createProgram(buildConfig.fileNames, options);
  const result = program.emit(undefined, (fileName, text) => files.set(resolve(fileName), text));
  expect(result.diagnostics).toEqual([]);
  return files;
}

const hiddenNodeTypes = /[\\/]@types[\\/]node[\\/]/;

/** Source files of the TypeScript libraries and dependencies, parsed once for every consumer program. */
const parsed = new Map<string, ts.SourceFile>();

/**
 * Type errors of a consumer file compiled against the declarations: strict, with no @types/node to be found. Only
 * the consumer and the package's declarations it reaches are checked: the TypeScript libraries are not ours.
 */
function consumerErrors(declarations: Map<string, string>, consumer: string): string[] {
  const root = join(virtualDist, '..');
  const consumerPath = join(root, 'consumer.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const read = (path: string) => (path === consumerPath ? consumer : declarations.get(resolve(path)));
  host.fileExists = (path) => read(path) !== undefined || (!hiddenNodeTypes.test(path) && ts.sys.fileExists(path));
  host.readFile = (path) => read(path) ?? (hiddenNodeTypes.test(path) ? undefined : ts.sys.readFile(path));
  host.directoryExists = (path) => !hiddenNodeTypes.test(`${path}/`) && (path.startsWith(root) || ts.sys.directoryExists!(path));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (path, language) => {
    const text = read(path);
    if (text !== undefined) return ts.createSourceFile(path, text, language);
    let file = parsed.get(path);
    if (!file) parsed.set(path, (file = getSourceFile(path, language)!));
    return file;
  };
  const program = ts.createProgram([consumerPath], options, host);
  const ours = program.getSourceFiles().filter((file) => file.fileName.startsWith(root));
  return [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ].map((d) => `${d.file?.fileName.slice(root.length + 1) ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

const consumers = {
  webhooks: `import { createWebhookReceiver, verifySignature, type WebhookEvent } from './dist/webhooks/index.js';
const receive = createWebhookReceiver({ secret: 'whsec', onEvent: (event: WebhookEvent) => console.log(event.eventType) });
export const run = (request: Parameters<typeof receive>[0], response: Parameters<typeof receive>[1]) => receive(request, response);
export const checked = verifySignature('{}', 't=1,v1=00', { secret: 'whsec' }).timestamp;`,
  publishable: `import { createPublishableClient, isPaymentsError } from './dist/publishable.js';
const client = createPublishableClient({ apiKey: 'pk', baseUrl: 'https://api.example.test/rest/v1' });
const card = { supplierBusinessCode: 'B', accountType: 'CREDIT_CARD', cardNumber: '4111111111111111', expiryDateMonth: '12', expiryDateYear: '2030' } as const;
export const token = client.singleUseTokens.create(card).catch((e: unknown) => isPaymentsError(e));`,
  main: `import { createSecretClient } from './dist/index.js';
export const facility = createSecretClient({ apiKey: 'sk', baseUrl: 'https://api.example.test/rest/v1' }).facility.get();`,
  validation: `import { publishableRequestCheck } from './dist/validation/index.js';
export const check = publishableRequestCheck();`,
};

describe('the published declarations need no @types/node', () => {
  const declarations = emitDeclarations();

  it('would notice a declaration that needs Node types (the check can fail)', () => {
    const needsNode = `import type { IncomingMessage } from 'node:http';\nexport type Seen = IncomingMessage;\n`;
    expect(consumerErrors(declarations, needsNode).join('\n')).toMatch(/node:http/);
  });

  it.each(Object.entries(consumers))('the %s entry compiles in a strict consumer', (_entry, consumer) => {
    expect(consumerErrors(declarations, consumer)).toEqual([]);
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
