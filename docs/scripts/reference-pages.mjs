// Builds one self-contained Redocly page per REST contract (`build-docs --inlineBundle`: the Redoc script is inlined,
// so the page needs no CDN), wrapped in our template so it carries the site bar like every other page.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { escapeHtml } from './html.mjs';
import { siteBar, siteBarStyle } from './layout.mjs';
import { paths } from './site-paths.mjs';

const redoclyCli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

// Redoc 3 draws its attribution logo from cdn.redoc.ly whatever the options say. Offline that request fails and logs
// a console error, so the built page gets the same attribution as a local inline image instead.
const cdnLogos = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const inlineLogo = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="54" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#555">Redocly</text></svg>',
)}`;

/**
 * @param {{ api: string, page: string, title: string, related?: string }} contract
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
<style>body { padding: 0; margin: 0; } ${siteBarStyle}</style>
{{{redocHead}}}
</head>
<body>
${siteBar(site, contract.page)}
${relatedNote}
{{{redocHTML}}}
</body>
</html>
`;
}

/**
 * @param {{ api: string, page: string, title: string, related?: string }} contract
 * @param {import('./layout.mjs').Site} site
 */
export function buildReferencePage(contract, site) {
  const work = mkdtempSync(join(tmpdir(), 'paykit-docs-'));
  try {
    const templateFile = join(work, 'template.hbs');
    writeFileSync(templateFile, template(contract, site));
    const output = join(paths.dist, contract.page);
    execFileSync(
      process.execPath,
      [
        redoclyCli,
        'build-docs',
        contract.api,
        '--inlineBundle',
        '--title',
        contract.title,
        '--template',
        templateFile,
        // Redoc skips telemetry on loopback hosts by itself; this keeps it off wherever the site is hosted.
        '--openapi.disableTelemetry=true',
        '-o',
        output,
      ],
      {
        cwd: paths.repoRoot,
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    writeFileSync(output, readFileSync(output, 'utf8').replace(cdnLogos, inlineLogo));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
