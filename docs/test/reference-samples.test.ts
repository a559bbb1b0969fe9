// The code samples of the reference pages, read back from the built site: every operation of every REST contract
// shows its client call and curl, curl carries the reference's authentication, the rules table is in the
// introduction, and the published specs stay free of what only the docs add (samples-compile.test.ts compiles every
// TypeScript sample).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openApiContracts, rulesExtension } from '@paykit/contracts';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { paths } from '../scripts/site-paths.mjs';
import { builtDefinition, builtOperations } from './support/built-reference.js';
import { readSpecSummary } from './support/spec-operations.js';

const rest = await Promise.all(
  openApiContracts.map(async (contract) => ({
    name: contract.name,
    page: contract.docs.page,
    packageName: contract.clientPackage.name,
    spec: await readSpecSummary(join(paths.repoRoot, contract.root)),
    rules: Object.keys((parse(readFileSync(join(paths.repoRoot, contract.root), 'utf8')) as Record<string, object>)[rulesExtension] ?? {}),
  })),
);

/** How each contract's curl samples authenticate, as its reference says. */
const curlAuth: Record<string, (security: string) => RegExp> = {
  // HTTP Basic: the key as the username, an empty password (curl -u "key:").
  payments: (security) => new RegExp(`-u "\\$PAYKIT_${security === 'publishableKey' ? 'PUBLISHABLE' : 'SECRET'}_KEY:"`),
  // The client certificate, a PKCS12 file with its password.
  'file-exchange': () => /--cert-type P12 --cert "\$PAYKIT_FILES_CERT_FILE:\$PAYKIT_FILES_CERT_PASSWORD"/,
};

describe.each(rest)('$name reference ($page) samples', (contract) => {
  const operations = () => builtOperations(builtDefinition(contract.page));

  it('every operation of the spec has the client call and curl', () => {
    const built = new Map(operations().map((op) => [op.operationId, op]));
    expect(contract.spec.operations.length).toBeGreaterThan(0);
    for (const { operationId } of contract.spec.operations) {
      const samples = built.get(operationId)?.codeSamples ?? [];
      expect(samples.map((s) => [s.lang, s.label]), operationId).toEqual([
        ['TypeScript', contract.packageName],
        ['curl', 'curl'],
      ]);
      expect(samples[0]?.source, operationId).toContain(`from '${contract.packageName}`);
    }
  });

  it('curl samples authenticate as the reference says, ask for a media type and send the body', () => {
    const auth = curlAuth[contract.name];
    expect(auth, `no curl authentication rule for ${contract.name}`).toBeDefined();
    for (const op of operations()) {
      const curl = op.codeSamples.find((s) => s.lang === 'curl')?.source ?? '';
      const security = Object.keys(op.security?.[0] ?? {})[0] ?? '';
      expect(curl, op.operationId).toMatch(auth!(security));
      expect(curl, op.operationId).toMatch(op.method === 'get' ? /^curl .*\n {2}"\$PAYKIT_\w+_BASE_URL\// : new RegExp(`-X ${op.method.toUpperCase()} "\\$PAYKIT_\\w+_BASE_URL/`));
      const success = Object.entries((op as { responses?: Record<string, { content?: object }> }).responses ?? {}).find(([status]) => status.startsWith('2'));
      if (success?.[1].content) expect(curl, op.operationId).toMatch(/-H 'Accept: [^']+'|-o \S+$/);
      if (op.requestBody) {
        const data = /-d '([\s\S]*)'$|--data-binary @\S+$/.exec(curl);
        expect(data, `${op.operationId} sends no body`).not.toBeNull();
        if (data?.[1] !== undefined) expect(() => JSON.parse(data[1]!.replace(/'\\''/g, "'")), op.operationId).not.toThrow();
      }
    }
  });

  it('the introduction has a table of every rule of the contract', () => {
    const description = String(builtDefinition(contract.page).info?.description ?? '');
    expect(contract.rules.length).toBeGreaterThan(0);
    expect(description).toContain('## Rules of the reference');
    for (const rule of contract.rules) expect(description).toMatch(new RegExp(`^\\| \`${rule}\` \\|`, 'm'));
  });
});

describe('published specs', () => {
  /** Every file of the folders the contracts are published from: specs/ and the specs the packages ship. */
  const publishedFiles = (): string[] => {
    const roots = [join(paths.repoRoot, 'specs'), ...readdirSync(paths.packages).map((dir) => join(paths.packages, dir, 'spec'))];
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((entry) => (statSync(join(dir, entry)).isDirectory() ? walk(join(dir, entry)) : [join(dir, entry)]));
    return roots.filter((root) => existsSync(root)).flatMap(walk);
  };

  it('carry none of the code samples or rules tables the docs add', () => {
    const files = publishedFiles();
    expect(files.some((f) => f.endsWith('openapi.yaml'))).toBe(true);
    const dirty = files.filter((file) => /x-codeSamples|Rules of the reference/.test(readFileSync(file, 'utf8')));
    expect(dirty.map((file) => relative(paths.repoRoot, file))).toEqual([]);
  });
});
