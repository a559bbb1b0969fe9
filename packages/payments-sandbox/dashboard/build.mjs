// Builds the dashboard (dashboard/src) into dist/dashboard: index.html and assets/ (one script, one style sheet), with
// relative addresses only, so that the sandbox serves them under /__sandbox/ui/ from the installed package. Preact and
// the control client are bundled here, at build time: a merchant installs nothing for it, and the page loads nothing
// from outside (the sandbox's Content-Security-Policy allows only its own origin).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, '..', 'dist', 'dashboard');

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });

await build({
  entryPoints: { app: join(here, 'src', 'main.tsx') },
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
