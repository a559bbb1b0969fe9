// The bundler run as a published package's build runs it, on a package made in a temporary folder: a private
// dependency (not declared) is inlined, a declared one stays an import, two entry points share one class, and a
// declaration or import naming an undeclared package, or an entry point a declared one does not export, fails the build.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/paykit-bundle-internal.mjs', import.meta.url));
const run = promisify(execFile);

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'paykit-bundle-internal-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

/** A published package `pub` (entry points a.ts and b.ts) using the private `priv` and the declared `dep`. */
async function fixture(declaration: string): Promise<string> {
  const pub = join(root, 'pub');
  await write({
    'pub/package.json': JSON.stringify({ name: 'pub', type: 'module', dependencies: { dep: '1.0.0' } }),
    'pub/src/a.ts': "import { Shared } from 'priv';\nimport { helper } from 'dep';\nexport const a = () => new Shared(helper());\nexport { Shared };\n",
    'pub/src/b.ts': "export { Shared } from 'priv';\n",
    'pub/dist/a.d.ts': declaration,
    'pub/dist/b.d.ts': 'export declare class Shared {}\n',
    'pub/dist/unreached.d.ts': 'export declare const x: number;\n',
    'pub/node_modules/priv/package.json': JSON.stringify({ name: 'priv', private: true, type: 'module', main: 'index.js' }),
    'pub/node_modules/priv/index.js': 'export class Shared { constructor(v) { this.v = v; } }\n',
    'pub/node_modules/dep/package.json': JSON.stringify({ name: 'dep', version: '1.0.0', type: 'module', exports: { '.': './index.js', './extra': './extra.js' } }),
    'pub/node_modules/dep/extra.js': 'export const extra = 1;\n',
    'pub/node_modules/dep/internal.js': 'export const internal = 1;\n',
    'pub/node_modules/dep/index.js': "export const helper = () => 'from dep';\n",
  });
  return pub;
}

describe('paykit-bundle-internal', () => {
  it('inlines the undeclared package, keeps the declared one an import, one class across entry points', async () => {
    const pub = await fixture('export declare class Shared {}\nexport declare const a: () => Shared;\n');
    const { stdout } = await run(process.execPath, [bin, 'src/a.ts', 'src/b.ts'], { cwd: pub });
    expect(stdout).toContain('inlined priv');

    const a = await readFile(join(pub, 'dist/a.js'), 'utf8');
    expect(a).toMatch(/from\s*"dep"/);
    expect(a).not.toMatch(/["']priv["']/);
    const chunks = await readdir(join(pub, 'dist/chunks'));
    expect(chunks).toHaveLength(1);

    const fromA = (await import(pathToFileURL(join(pub, 'dist/a.js')).href)) as { a: () => object; Shared: new () => object };
    const fromB = (await import(pathToFileURL(join(pub, 'dist/b.js')).href)) as { Shared: new () => object };
    expect(fromA.Shared).toBe(fromB.Shared);
    expect(fromA.a()).toBeInstanceOf(fromB.Shared);
    // Declarations no entry point reaches are gone; the entry points' stay.
    expect((await readdir(join(pub, 'dist'))).filter((name) => name.endsWith('.d.ts')).sort()).toEqual(['a.d.ts', 'b.d.ts']);
  });

  it('fails when a declaration names a package a merchant install does not have', async () => {
    const pub = await fixture("export type { Shared } from 'priv';\nexport declare const a: () => unknown;\n");
    const failure = await run(process.execPath, [bin, 'src/a.ts', 'src/b.ts'], { cwd: pub }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('dist/a.d.ts names priv');
  });

  it.each([
    { named: 'dep/internal', outcome: 'dist/a.d.ts names dep/internal, an entry point dep does not export' },
    { named: 'dep/extra', outcome: undefined },
  ])('a declaration naming $named of a declared package: fails unless the package exports it', async ({ named, outcome }) => {
    const pub = await fixture(`export type { Shared } from './b.js';\nexport declare const a: () => typeof import('${named}');\n`);
    const failure = await run(process.execPath, [bin, 'src/a.ts', 'src/b.ts'], { cwd: pub }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.stderr).toEqual(outcome === undefined ? undefined : expect.stringContaining(outcome));
  });

  it('fails when the bundle imports an entry point a declared package does not export', async () => {
    const pub = await fixture('export declare class Shared {}\nexport declare const a: () => Shared;\n');
    await write({ 'pub/src/b.ts': "export { Shared } from 'priv';\nexport { internal } from 'dep/internal';\n" });
    const failure = await run(process.execPath, [bin, 'src/a.ts', 'src/b.ts'], { cwd: pub }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain('imports dep/internal, an entry point dep does not export');
  });

  describe('--from-source: an internal entry of a declared package, inlined from its source', () => {
    /**
     * `app` declares `lib` and inlines lib's unexported `lib/internal` from source; lib's main entry (built, in
     * dist/) exports its error class. `errors` is lib's src/errors.ts, `internal` its src/internal.ts.
     */
    async function fromSource(errors: string, internal = "import { LibError } from './errors.js';\nexport const fail = () => new LibError('no');\n"): Promise<string> {
      const app = join(root, 'app');
      await write({
        'app/package.json': JSON.stringify({ name: 'app', type: 'module', dependencies: { lib: '1.0.0' } }),
        'app/src/index.ts': "import { LibError } from 'lib';\nimport { fail } from 'lib/internal';\nexport const same = () => fail() instanceof LibError;\n",
        'app/dist/index.d.ts': 'export declare const same: () => boolean;\n',
        'app/node_modules/lib/package.json': JSON.stringify({ name: 'lib', version: '1.0.0', type: 'module', exports: { '.': './dist/index.js' }, dependencies: { third: '1.0.0' } }),
        'app/node_modules/lib/dist/index.js': 'export class LibError extends Error {}\n',
        'app/node_modules/lib/src/errors.ts': errors,
        'app/node_modules/lib/src/internal.ts': internal,
        'app/node_modules/lib/node_modules/third/package.json': JSON.stringify({ name: 'third', version: '1.0.0', type: 'module', main: 'index.js' }),
        'app/node_modules/lib/node_modules/third/index.js': 'export const third = 3;\n',
      });
      return app;
    }
    const build = (app: string) =>
      run(process.execPath, [bin, 'src/index.ts', '--from-source', 'lib/internal=node_modules/lib/src/internal.ts'], { cwd: app }).then(
        () => undefined,
        (error: unknown) => error as { code: number; stderr: string },
      );

    it('inlines the internal entry, and a module of wholly public names becomes an import of the package (one class)', async () => {
      const app = await fromSource('export class LibError extends Error {}\n');
      expect(await build(app)).toBeUndefined();
      const bundle = await readFile(join(app, 'dist/index.js'), 'utf8');
      expect(bundle).toContain("new LibError(\"no\")");
      expect(bundle).not.toMatch(/class LibError/);
      const built = (await import(pathToFileURL(join(app, 'dist/index.js')).href)) as { same: () => boolean };
      expect(built.same()).toBe(true);
    });

    it('fails when a module it would inline holds a class the package exports (a second copy)', async () => {
      const app = await fromSource("export class LibError extends Error {}\nexport const helper = () => 1;\n");
      const failure = await build(app);
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('node_modules/lib/src/errors.ts would be inlined with LibError, classes lib exports');
    });

    it("fails when the inlined source imports a dependency of the package that this one does not declare", async () => {
      const app = await fromSource('export class LibError extends Error {}\n', "import { third } from 'third';\nexport const fail = () => third;\n");
      const failure = await build(app);
      expect(failure?.code).toBe(1);
      expect(failure?.stderr).toContain('imports third, a dependency of lib that package.json does not declare');
    });
  });
});
