// Builds the docs site into docs/dist: one self-contained reference page per REST contract (Redoc with its script
// inlined, so pages work offline) and a landing page linking them with the package versions.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { referencePages } from './contracts.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const dist = resolve(here, '../dist');
const redocly = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

mkdirSync(dist, { recursive: true });
const built = [];
for (const page of referencePages) {
  if (!existsSync(join(repoRoot, page.spec))) continue; // a contract not written yet has no page
  execFileSync(
    process.execPath,
    [redocly, 'build-docs', page.api, '--inlineBundle', '--title', page.title, '-o', join(dist, page.page)],
    {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    },
  );
  built.push(page);
}

const packagesDir = join(repoRoot, 'packages');
const packages = readdirSync(packagesDir)
  .map((dir) => JSON.parse(readFileSync(join(packagesDir, dir, 'package.json'), 'utf8')))
  .filter((pkg) => !pkg.private);

const escape = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const landing = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>paykit docs</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
code { background: #f2f2f2; padding: 0 .25em; border-radius: 3px; }
table { border-collapse: collapse; } td, th { text-align: left; padding: .25rem 1rem .25rem 0; }
</style>
</head>
<body>
<h1>paykit docs</h1>
<p>Typed TypeScript clients, local mocks and API references for the payments API and the file exchange.</p>
<h2>API reference</h2>
<ul>
${built.map((p) => `<li><a href="${p.page}">${escape(p.title)}</a></li>`).join('\n')}
</ul>
<h2>Packages</h2>
<table>
<tr><th>package</th><th>version</th><th>what it is</th></tr>
${packages.map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.version)}</td><td>${escape(p.description ?? '')}</td></tr>`).join('\n')}
</table>
<h2>Local mocks</h2>
<p>Run <code>npx paykit-mock</code> (package <code>@paykit/mock-server</code>) to serve every mock on loopback.</p>
</body>
</html>
`;
writeFileSync(join(dist, 'index.html'), landing);
console.log(`docs: ${built.length} reference pages and the landing page in ${dist}`);
