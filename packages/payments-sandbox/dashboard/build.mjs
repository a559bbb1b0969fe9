// Builds the dashboard (dashboard/src) into dist/dashboard: index.html and assets/ (one script, one style sheet), with
// relative addresses only, so that the sandbox serves them under /__sandbox/ui/ from the installed package. Preact and
// the control client are bundled here, at build time: a merchant installs nothing for it, and the page loads nothing
// from outside (the sandbox's Content-Security-Policy allows only its own origin).
//
// The forms' choices (src/contract-choices.ts) are read from the generated contracts here, at build time, and the page
// gets only their values: the generated control document and payments operation table they come from are 65 kB that
// the page would otherwise carry to read five lists.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'dashboard');

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

/** The values src/contract-choices.ts exports, computed by running it (bundled for Node). */
async function contractChoices() {
  const bundled = await build({ entryPoints: [join(here, 'src', 'contract-choices.ts')], bundle: true, format: 'esm', platform: 'node', write: false, logLevel: 'warning' });
  const code = bundled.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

const choices = await contractChoices();
/** @type {import('esbuild').Plugin} */
const choicesAsValues = {
  name: 'contract-choices-as-values',
  setup(builder) {
    builder.onResolve({ filter: /\/contract-choices\.js$/ }, (args) => ({ path: join(args.resolveDir, 'contract-choices.js'), namespace: 'contract-choices' }));
    builder.onLoad({ filter: /.*/, namespace: 'contract-choices' }, () => ({
      contents: Object.entries(choices)
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
        .join('\n'),
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: { app: join(here, 'src', 'main.tsx') },
  plugins: [choicesAsValues],
  outdir: join(out, 'assets'),
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome111', 'firefox111', 'safari16.4'],
  minify: true,
  legalComments: 'none',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  tsconfig: join(here, 'tsconfig.json'),
  logLevel: 'warning',
});
await build({
  entryPoints: { app: join(here, 'src', 'styles.css') },
  outdir: join(out, 'assets'),
  bundle: true,
  minify: true,
  logLevel: 'warning',
});
writeFileSync(join(out, 'index.html'), readFileSync(join(here, 'index.html')));
