import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageDir } from '../rules/package-dir.js';

/**
 * The dashboard's built files (`dist/dashboard/`: `index.html` and `assets/*`, made by the dashboard's build), served
 * to a signed-in browser, and the headers every page of the dashboard carries: a strict Content-Security-Policy
 * (nothing from another origin, no inline script or style, no framing), no MIME sniffing, no referrer.
 */

/** The package's `dist/dashboard/`, whether this module runs from `src/http/` (tests) or bundled in `dist/` (built). */
export const defaultDashboardDir = join(packageDir(fileURLToPath(import.meta.url)), 'dist', 'dashboard') + sep;

export const contentSecurityPolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The headers of every answer under `/__sandbox/ui/`. */
export const pageHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file name of the build: letters, digits, `.`, `_`, `-`, in folders; nothing that could leave the folder. */
const assetPath = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function answerText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(text);
  res
    .writeHead(status, { ...pageHeaders, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': String(body.length), ...headers })
    .end(body);
}

const notBuilt = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox dashboard not built</title></head>
<body><h1>The dashboard is not built</h1>
<p>This sandbox has no dashboard files (<code>dist/dashboard/</code> of <code>@paykit/payments-sandbox</code>).
In the repository, run <code>pnpm turbo run build --filter @paykit/payments-sandbox</code>; the control interface under
<code>/__sandbox</code> works without it.</p></body></html>
`;

export class DashboardFiles {
  constructor(readonly dir: string = defaultDashboardDir) {}

  /**
   * Answers `GET` of `relative` (`''` for the page, `assets/app.js`): the file with its content type, or 404; the
   * page with no caching, so that a new build is seen at the next load; 503 when the dashboard is not built.
   */
  async serve(res: ServerResponse, relative: string, method: string, ifNoneMatch: string | undefined): Promise<void> {
    const page = relative === '' || relative === 'index.html';
    if (!page && !(relative.startsWith('assets/') && assetPath.test(relative))) return answerText(res, 404, 'no such file of the dashboard');
    const root = resolve(this.dir);
    const file = resolve(root, page ? 'index.html' : relative);
    if (!file.startsWith(root + sep)) return answerText(res, 404, 'no such file of the dashboard');
    const found = await stat(file).catch(() => undefined);
    if (!found?.isFile()) {
      if (!page) return answerText(res, 404, 'no such file of the dashboard');
      const body = Buffer.from(notBuilt);
      res.writeHead(503, { ...pageHeaders, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': String(body.length) });
      return void res.end(body);
    }
    const etag = `"${found.size.toString(36)}-${Math.floor(found.mtimeMs).toString(36)}"`;
    const headers = {
      ...pageHeaders,
      'Content-Type': contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Cache-Control': page ? 'no-store' : 'no-cache',
      ...(page ? {} : { ETag: etag }),
    };
    if (!page && ifNoneMatch === etag) return void res.writeHead(304, headers).end();
    res.writeHead(200, { ...headers, 'Content-Length': String(found.size) });
    if (method === 'HEAD') return void res.end();
    await new Promise<void>((done) => {
      const stream = createReadStream(file);
      stream.once('error', () => (res.destroy(), done()));
      stream.once('end', done);
      res.once('close', () => (stream.destroy(), done()));
      stream.pipe(res);
    });
  }
}
