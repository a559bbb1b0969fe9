// Bundles the Prism CLI and everything it requires into dist/prism/prism.cjs, with the licence texts of what went in
// beside it (THIRD-PARTY-NOTICES.txt). The published package then depends on no Prism package: Prism's libraries
// ask for `^` ranges of each other, and their newest releases declare Node 24 (`engines`), which yarn 1 refuses on
// Node 20 whatever version we pin; under Yarn Plug'n'Play, prism-core requires @stoplight/types without declaring
// it. A bundle has no dependency tree for either to trip on. The bundled versions are the lockfile's (pinned by
// `overrides` in pnpm-workspace.yaml to releases that declare Node 20).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const outDir = resolve(dirname(fileURLToPath(import.meta.url)), '../dist/prism');
const cli = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

/** jsonc-parser's UMD build (its `main`) requires its files by computed paths, which no bundler follows; its ES build not. */
const jsoncParserEsm = {
  name: 'jsonc-parser-esm',
  setup(build) {
    build.onResolve({ filter: /^jsonc-parser$/ }, ({ importer }) => {
      const umdMain = createRequire(importer).resolve('jsonc-parser');
      return { path: join(dirname(umdMain), '..', 'esm', 'main.js') };
    });
  },
};

mkdirSync(outDir, { recursive: true });
const { metafile } = await build({
  entryPoints: [cli],
  outfile: join(outDir, 'prism.cjs'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // Whitespace and syntax only: renaming identifiers could change names some libraries read at run time.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  // macOS only, optional for chokidar.
  external: ['fsevents'],
  plugins: [jsoncParserEsm],
  metafile: true,
  logLevel: 'warning',
});

/** The folder of the package an input file belongs to (the last `node_modules/<name>` in its path). */
function packageDirOf(input) {
  const path = resolve(input);
  const at = path.lastIndexOf(`node_modules${'/'}`);
  if (at < 0) return undefined;
  const [scope, name] = path.slice(at + 'node_modules/'.length).split('/');
  return path.slice(0, at) + join('node_modules', scope.startsWith('@') ? join(scope, name) : scope);
}

const packages = new Map();
for (const input of Object.keys(metafile.inputs)) {
  const dir = packageDirOf(input);
  if (dir && !packages.has(dir)) packages.set(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
}
const notices = [...packages.entries()]
  .sort(([, a], [, b]) => `${a.name}@${a.version}`.localeCompare(`${b.name}@${b.version}`))
  .map(([dir, manifest]) => {
    const file = readdirSync(dir).find((name) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(name));
    const text = file && existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8').trim() : `License: ${manifest.license ?? 'see package'}`;
    return `${manifest.name}@${manifest.version}\n${'-'.repeat(60)}\n${text}\n`;
  });
writeFileSync(
  join(outDir, 'THIRD-PARTY-NOTICES.txt'),
  `prism.cjs bundles the following packages; their licences follow.\n\n${notices.join('\n')}`,
);
console.log(`prism bundle: ${packages.size} packages into dist/prism/prism.cjs`);
