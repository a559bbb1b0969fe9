// A static file server for the built site, loopback only. Shared by `pnpm start` and the browser test. Text is sent
// gzip-compressed to clients that accept it: the Redocly pages carry a 2.5 MB inline bundle that compresses ~4x.
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
    res.writeHead(200, { 'content-type': type, vary: 'accept-encoding', ...(compress ? { 'content-encoding': 'gzip' } : {}) });
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
