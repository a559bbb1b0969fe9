// The static server of `pnpm start` and of the browser test (sirv): serves files of its folder only, the build's gzip
// copies on request (`precompress`, tested here too), with their content types and caching headers.
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../scripts/precompress.mjs';
import { serveDirectory } from '../scripts/server.mjs';

/** A raw GET (no automatic decompression, unlike fetch). */
function request(target: URL, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
    get(target, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** Large enough for its gzip copy to be smaller; the sub page is not, and is sent as it is. */
const home = `<h1>home</h1>${'<p>text</p>'.repeat(50)}`;

let root: string;
let server: Server;
let url: string;

beforeAll(async () => {
  const parent = mkdtempSync(join(tmpdir(), 'paykit-docs-server-'));
  root = join(parent, 'site');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'index.html'), home);
  writeFileSync(join(root, 'sub', 'index.html'), '<h1>sub</h1>');
  writeFileSync(join(root, 'app.0123456789abcdef.js'), 'hashed();');
  writeFileSync(join(root, 'site.css'), `body { color: black; }\n${'p { margin: 0; }\n'.repeat(50)}`);
  writeFileSync(join(root, 'diagram.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<rect/>'.repeat(50)}</svg>`);
  writeFileSync(join(root, 'data.json'), JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => i) }));
  writeFileSync(join(root, 'logo.png'), Buffer.alloc(2000, 7));
  writeFileSync(join(parent, 'secret.txt'), 'outside the site');
  precompress(root);
  ({ server, url } = await serveDirectory(root, 0));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(join(root, '..'), { recursive: true, force: true });
});

describe('serveDirectory', () => {
  it.each([
    { path: '/', status: 200, body: home },
    { path: '/index.html', status: 200, body: home },
    { path: '/sub/', status: 200, body: '<h1>sub</h1>' },
    { path: '/missing.html', status: 404, body: 'not found' },
    // sirv's clean addresses: a folder or a page without its `.html`.
    { path: '/sub', status: 200, body: '<h1>sub</h1>' },
    { path: '/index', status: 200, body: home },
    { path: '/%2e%2e/secret.txt', status: 404, body: 'not found' },
    { path: '/..%2fsecret.txt', status: 404, body: 'not found' },
    { path: '/%E0%A4%A', status: 404, body: 'not found' },
  ])('GET $path answers $status', async ({ path, status, body }) => {
    const response = await request(new URL(path, url));
    expect(response.status).toBe(status);
    expect(response.body.toString()).toBe(body);
  });

  it('listens on loopback only', () => {
    expect(new URL(url).hostname).toBe('127.0.0.1');
  });

  it('compresses HTML for clients that accept gzip, and only for them', async () => {
    const gzipped = await request(new URL('/index.html', url), { 'accept-encoding': 'gzip, deflate' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(home);
    const plain = await request(new URL('/index.html', url));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(home);
  });

  it.each([
    { path: '/index.html', type: 'text/html;charset=utf-8', encoding: 'gzip' },
    { path: '/site.css', type: 'text/css', encoding: 'gzip' },
    { path: '/diagram.svg', type: 'image/svg+xml', encoding: 'gzip' },
    { path: '/data.json', type: 'application/json', encoding: 'gzip' },
    // Too small for gzip to gain anything, and not text: sent as they are.
    { path: '/app.0123456789abcdef.js', type: 'text/javascript', encoding: undefined },
    { path: '/logo.png', type: 'image/png', encoding: undefined },
  ])('sends $path as $type, encoding $encoding, to a client that accepts gzip', async ({ path, type, encoding }) => {
    const response = await request(new URL(path, url), { 'accept-encoding': 'gzip' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(type);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers.vary).toBe('Accept-Encoding');
    const file = readFileSync(join(root, path));
    expect(encoding ? gunzipSync(response.body) : response.body).toEqual(file);
  });

  it('revalidates the gzip copy by its own ETag', async () => {
    const gzipped = await request(new URL('/index.html', url), { 'accept-encoding': 'gzip' });
    const plain = await request(new URL('/index.html', url));
    expect(gzipped.headers.etag).not.toBe(plain.headers.etag);
    const again = await request(new URL('/index.html', url), { 'accept-encoding': 'gzip', 'if-none-match': String(gzipped.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('lets files named by their content hash be cached for good, and revalidates the others', async () => {
    const hashed = await request(new URL('/app.0123456789abcdef.js', url));
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await request(new URL('/index.html', url));
    expect(page.headers['cache-control']).toBe('no-cache');
    const etag = String(page.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    const again = await request(new URL('/index.html', url), { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect((await request(new URL('/index.html', url), { 'if-none-match': 'W/"other"' })).status).toBe(200);
  });
});

describe('precompress', () => {
  it.each([
    { file: 'index.html', copy: true },
    { file: 'site.css', copy: true },
    { file: 'diagram.svg', copy: true },
    { file: 'data.json', copy: true },
    { file: 'sub/index.html', copy: false },
    { file: 'app.0123456789abcdef.js', copy: false },
    { file: 'logo.png', copy: false },
  ])('$file: a gzip copy $copy', ({ file, copy }) => {
    const gz = join(root, `${file}.gz`);
    expect(existsSync(gz)).toBe(copy);
    if (copy) expect(gunzipSync(readFileSync(gz))).toEqual(readFileSync(join(root, file)));
  });
});
