// The static server of the built site, loopback only, shared by `pnpm start` and the browser tests: sirv, which sends
// the gzip copy the build wrote next to a text file (./precompress.mjs) to clients that accept gzip, with a weak ETag
// and a 304 when it still matches. Files whose name carries a hash of their content (`name.<16 hex>.js`, the shared
// Redoc renderer and the site script) never change, so browsers may keep them for a year without asking again;
// everything else is revalidated on each visit. sirv reads the folder's list of files once, when the server starts. An
// address with no page gets the site's 404 page (dist/404.html), with status 404.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import sirv from 'sirv';
import { notFoundPage } from './site-paths.mjs';

/** `redoc.standalone.77aa5a37ad97c107.js`: the name changes whenever the content does. */
const contentHashed = /\.[0-9a-f]{16}\.[a-z]+$/;

/**
 * Serves `root` on 127.0.0.1. Resolves once listening, with the server and its base URL.
 * @param {string} root absolute directory to serve
 * @param {number} port 0 picks a free port
 * @returns {Promise<{ server: import('node:http').Server, url: string }>}
 */
export function serveDirectory(root, port) {
  const handler = sirv(root, {
    gzip: true,
    etag: true,
    extensions: ['html'],
    setHeaders: (res, pathname) => res.setHeader('cache-control', contentHashed.test(pathname) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    onNoMatch: (_req, res) => {
      // The site's own page for a missing address (read per request: the folder may be rebuilt while it is served).
      const page = join(root, notFoundPage);
      if (existsSync(page)) res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' }).end(readFileSync(page));
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    },
  });
  const server = createServer((req, res) => handler(req, res));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({ server, url: `http://127.0.0.1:${address.port}/` });
    });
  });
}
