// The static server of `pnpm start` and of the browser test: serves files of its folder only, gzip on request.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

let root: string;
let server: Server;
let url: string;

beforeAll(async () => {
  const parent = mkdtempSync(join(tmpdir(), 'paykit-docs-server-'));
  root = join(parent, 'site');
  mkdirSync(join(root, 'sub'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<h1>home</h1>');
  writeFileSync(join(root, 'sub', 'index.html'), '<h1>sub</h1>');
  writeFileSync(join(root, 'app.0123456789abcdef.js'), 'hashed();');
  writeFileSync(join(parent, 'secret.txt'), 'outside the site');
  ({ server, url } = await serveDirectory(root, 0));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(join(root, '..'), { recursive: true, force: true });
});

describe('serveDirectory', () => {
  it.each([
    { path: '/', status: 200, body: '<h1>home</h1>' },
    { path: '/index.html', status: 200, body: '<h1>home</h1>' },
    { path: '/sub/', status: 200, body: '<h1>sub</h1>' },
    { path: '/missing.html', status: 404, body: 'not found' },
    { path: '/sub', status: 404, body: 'not found' },
    { path: '/%2e%2e/secret.txt', status: 404, body: 'not found' },
    { path: '/..%2fsecret.txt', status: 404, body: 'not found' },
    { path: '/%E0%A4%A', status: 400, body: 'bad path' },
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
    expect(gunzipSync(gzipped.body).toString()).toBe('<h1>home</h1>');
    const plain = await request(new URL('/index.html', url));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe('<h1>home</h1>');
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
