// (3) Minified + gzip -9 size of each entry of the built package, as a merchant's bundler would ship it.
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const entries = [
  { name: 'publishable', contents: `export * from './publishable.js';`, platform: 'browser', budget: 6000 },
  { name: 'full (secret + publishable + checks)', contents: `export * from './index.js';`, platform: 'node', budget: 15000 },
  { name: 'full + raw client (openapi-fetch)', contents: `export * from './index.js'; export * from './raw.js';`, platform: 'node' },
  { name: 'publishable + opt-in checks', contents: `export * from './publishable.js'; export { publishableRequestCheck } from './validation/index.js';`, platform: 'browser' },
  { name: 'checks: interpreter alone', contents: `export { createRequestCheck } from './validation/request-check.js';`, platform: 'browser' },
  { name: 'checks: secret-operation data alone', contents: `export { secretKeyValidation } from './generated/validation.js';`, platform: 'browser' },
  { name: 'checks: publishable-operation data alone', contents: `export { publishableKeyValidation } from './generated/validation.js';`, platform: 'browser' },
  { name: 'webhooks', contents: `export * from './webhooks/index.js';`, platform: 'node' },
];

console.log('(3) bundle sizes (minified, gzip -9; 1 kB = 1000 B)');
for (const entry of entries) {
  const result = await build({
    stdin: { contents: entry.contents, resolveDir: dist, loader: 'js' },
    bundle: true, minify: true, format: 'esm', platform: entry.platform, write: false, logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const gzipped = gzipSync(code, { level: 9 }).length;
  const budget = entry.budget ? ` (budget ${entry.budget} B: ${gzipped <= entry.budget ? 'within' : 'OVER'})` : '';
  console.log(`    ${entry.name.padEnd(40)} ${String(code.length).padStart(6)} B min, ${String(gzipped).padStart(6)} B gz${budget}`);
}
