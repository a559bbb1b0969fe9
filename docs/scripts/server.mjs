// A static file server for the built site, loopback only. Shared by `pnpm start` and the browser test. Text is sent
// gzip-compressed to clients that accept it (Redoc's 2.3 MB renderer compresses ~3.5x). Files whose name carries a
// hash of their content (`name.<16 hex>.js`, the shared Redoc renderer) never change, so browsers may keep them for a
// year without asking again; everything else is revalidated on each visit (ETag, 304).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { createGzip } from 'node:zlib';

const contentTypes = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/** `redoc.standalone.77aa5a37ad97c107.js`: the name changes whenever the content does. */
const contentHashed = /\.[0-9a-f]{16}\.[a-z]+$/;

/**
 * Serves `root` on 127.0.0.1. Resolves once listening, with the server and its base URL.
 * @param {string} root absolute directory to serve
 * @param {number} port 0 picks a free port
 * @returns {Promise<{ server: import('node:http').Server, url: string }>}
 */
export function serveDirectory(root, port) {
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad path');
      return;
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    // normalize() resolves `..`: anything that lands outside the root is refused.
    if (!(file === root || file.startsWith(root + sep)) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const type = contentTypes[/** @type {keyof typeof contentTypes} */ (extname(file))] ?? 'application/octet-stream';
    const compress = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && /^(text\/|application\/json|image\/svg)/.test(type);
    const stat = statSync(file);
    const etag = `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const caching = {
      'cache-control': contentHashed.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
      etag,
      vary: 'accept-encoding',
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, caching).end();
      return;
    }
    res.writeHead(200, { 'content-type': type, ...caching, ...(compress ? { 'content-encoding': 'gzip' } : {}) });
    const body = createReadStream(file);
    if (compress) body.pipe(createGzip()).pipe(res);
    else body.pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({ server, url: `http://127.0.0.1:${address.port}/` });
    });
  });
}
