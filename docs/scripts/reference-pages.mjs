// Builds one Redocly page per REST contract, wrapped in our template so it carries the site bar like every other
// page. `build-docs --inlineBundle` writes Redoc's renderer into each page (no CDN); we then take the renderer out into
// one shared, cached script (./reference/redoc-script.mjs). The document rendered is the contract's docs definition:
// the bundled contract plus the code samples and rules table (./reference/docs-definition.mjs).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { escapeHtml } from './html.mjs';
import { siteBar, siteBarStyle, siteScriptTag, themeBootScript } from './layout.mjs';
import { docsDefinition } from './reference/docs-definition.mjs';
import { clientSamples } from './reference/rest-samples.mjs';
import { redocScript, splitRedocPage } from './reference/redoc-script.mjs';
import { assetsDir } from './site/site-assets.mjs';
import { paths } from './site-paths.mjs';

const redoclyCli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

// Redoc 3 draws its attribution logo from cdn.redoc.ly whatever the options say. Offline that request fails and logs
// a console error, so the built page gets the same attribution as a local inline image instead.
const cdnLogos = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const inlineLogo = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="54" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#555">Redocly</text></svg>',
)}`;

/**
 * @param {{ page: string, related?: string }} contract
 * @param {import('./layout.mjs').Site} site
 */
function template(contract, site) {
  const related = site.references.find((p) => p.page === contract.related);
  const relatedNote = related
    ? `<p class="related-protocol" style="margin:0;padding:.4rem 1.25rem;font:14px system-ui,sans-serif;background:#eef4ff">The same service over another protocol: <a href="${escapeHtml(related.page)}">${escapeHtml(related.title)}</a>.</p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{title}}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
${themeBootScript}
<style>body { padding: 0; margin: 0; } ${siteBarStyle}</style>
${siteScriptTag(site)}
{{{redocHead}}}
</head>
<body>
${siteBar(site, contract.page, { themeToggle: true })}
${relatedNote}
{{{redocHTML}}}
</body>
</html>
`;
}

/**
 * Redoc's options: the sample panel offers our client package's call, then curl, then the request body (Redoc shows
 * only the languages listed here, and would generate samples of its own for its default ones).
 * @param {string} contract the contract's name in the registry
 */
function redocOptions(contract) {
  const client = clientSamples[contract];
  if (!client) throw new Error(`no client samples for the contract ${contract}`);
  return {
    // Redoc skips telemetry on loopback hosts by itself; this keeps it off wherever the site is hosted.
    disableTelemetry: true,
    codeSamples: { languages: [{ lang: 'TypeScript', label: client.packageName }, { lang: 'curl', label: 'curl' }, { lang: 'payload', label: 'Payload' }] },
  };
}

/**
 * One page with Redoc's renderer inline, as `build-docs` writes it.
 * @param {{ name: string, root: string, page: string, title: string, related?: string }} contract
 * @param {import('./layout.mjs').Site} site
 */
async function renderInline(contract, site) {
  const work = mkdtempSync(join(tmpdir(), 'paykit-docs-'));
  try {
    const files = { template: join(work, 'template.hbs'), definition: join(work, 'openapi.json'), options: join(work, 'redoc.json'), output: join(work, contract.page) };
    writeFileSync(files.template, template(contract, site));
    writeFileSync(files.definition, JSON.stringify(await docsDefinition(contract)));
    writeFileSync(files.options, JSON.stringify(redocOptions(contract.name)));
    execFileSync(
      process.execPath,
      [redoclyCli, 'build-docs', files.definition, '--inlineBundle', '--title', contract.title, '--template', files.template, '--openapi', files.options, '-o', files.output],
      {
        cwd: paths.repoRoot,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    return readFileSync(files.output, 'utf8').replace(cdnLogos, inlineLogo);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Builds the reference page of every REST contract into the site, and Redoc's renderer once, in `assets/`.
 * @param {{ name: string, root: string, page: string, title: string, related?: string }[]} contracts
 * @param {import('./layout.mjs').Site} site
 * @returns {Promise<string>} the shared script's path in the site
 */
export async function buildReferencePages(contracts, site) {
  const pages = [];
  for (const contract of contracts) pages.push({ contract, split: splitRedocPage(await renderInline(contract, site), contract.page) });
  const bundles = new Set(pages.map((p) => p.split.bundle));
  if (bundles.size !== 1) throw new Error(`build-docs wrote ${bundles.size} different Redoc bundles into ${pages.length} pages; expected one to share`);
  const script = redocScript(pages[0]?.split.bundle ?? '');
  const scriptPath = `${assetsDir}/${script.fileName}`;
  mkdirSync(join(paths.dist, assetsDir), { recursive: true });
  writeFileSync(join(paths.dist, scriptPath), script.contents);
  for (const { contract, split } of pages) writeFileSync(join(paths.dist, contract.page), split.page(scriptPath));
  return scriptPath;
}
