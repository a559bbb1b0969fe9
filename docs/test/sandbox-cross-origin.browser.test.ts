// end-to-end: a real Chromium enforces the origins between a shop's page and a real payments sandbox.
// What a shop's page sees when its script calls the payments API, as the reference's authentication rules imply
// (<q>The browser may not call this API with script requests (no cross-origin access).</q>): the payments sandbox, like
// the service, sends no Access-Control-* header, so Chromium refuses a page from another origin. The page tries plain
// fetch and the published publishable client (its ESM build, loaded as modules).
//
// So that the refusal cannot be something else (a sandbox out of reach, a request the sandbox would refuse anyway),
// the page talks to the sandbox through a loopback relay that records what reached the sandbox and what it answered:
// Chromium's preflight (OPTIONS) arrived and was answered without any Access-Control-* header, the POST itself never
// arrived, and the same POST sent from Node through the same relay gets its token.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPaymentsSandbox, type PaymentsSandbox } from '@paykit/mock-server';
import { createPublishableClient } from '@paykit/payments';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveDirectory } from '../scripts/server.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { sharedChromium, skipBrowserTests } from './support/chromium.js';

// Each test waits on Chromium and the sandbox; a hang still fails within this bound.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const tokenRequest = {
  supplierBusinessCode: 'TEST_BUSINESS',
  accountType: 'CREDIT_CARD',
  cardholderName: 'Test Cardholder',
  cardNumber: '4111111111111111',
  expiryDateMonth: '12',
  expiryDateYear: '2029',
  cvn: '123',
} as const;

// The shop's page: both calls, each outcome recorded as the page's script can see it.
// The package's files are loaded as they ship, with no bundler: the import map gives the browser the package's own
// `#platform` import (package.json's `imports`, which only bundlers and runtimes read), as the README tells such a page to.
const page = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>shop</title>
<script type="importmap">{ "imports": { "#platform": "./payments/platform/web.js" } }</script>
<script type="module">
import { createPublishableClient } from './payments/publishable.js';
const params = new URLSearchParams(location.search);
const baseUrl = params.get('api');
const apiKey = params.get('key');
const outcome = {};
try {
  const response = await fetch(baseUrl + '/single-use-tokens', {
    method: 'POST',
    headers: { authorization: 'Basic ' + btoa(apiKey + ':'), accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(${JSON.stringify(tokenRequest)}),
  });
  outcome.fetch = { status: response.status };
} catch (error) {
  outcome.fetch = { error: error.name, message: error.message };
}
try {
  const client = createPublishableClient({ apiKey, baseUrl, retry: { maxRetries: 0 } });
  const token = await client.singleUseTokens.create(${JSON.stringify(tokenRequest)});
  outcome.client = { status: token.status };
} catch (error) {
  outcome.client = { error: error.name, kind: error.kind, message: error.message };
}
window.outcome = outcome;
</script>`;

interface Relayed {
  method: string;
  path: string;
  origin?: string;
  status: number;
  headers: IncomingHttpHeaders;
}

/** A loopback relay in front of the sandbox that records each request it passes on and the sandbox's answer. */
async function startRelay(target: string): Promise<{ url: string; seen: Relayed[]; close: () => Promise<void> }> {
  const seen: Relayed[] = [];
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        seen.push({ method: req.method ?? '', path: req.url ?? '', origin: req.headers.origin, status: answer.statusCode ?? 0, headers: answer.headers });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let sandbox: PaymentsSandbox;
let relay: Awaited<ReturnType<typeof startRelay>>;
let shop: { server: Server; url: string };
let dir: string;

describe.skipIf(skipBrowserTests)('a page from another origin calling the payments sandbox', () => {
  const chromium = sharedChromium();
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paykit-shop-'));
    writeFileSync(join(dir, 'index.html'), page);
    cpSync(join(paths.packages, 'payments', 'dist'), join(dir, 'payments'), { recursive: true });
    [sandbox, shop] = await Promise.all([startPaymentsSandbox(), serveDirectory(dir, 0)]);
    relay = await startRelay(sandbox.url);
  });

  afterAll(async () => {
    await Promise.all([relay?.close(), sandbox?.close(), new Promise((resolve) => (shop ? shop.server.close(resolve) : resolve(undefined)))]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the shop and the sandbox are different origins', () => {
    expect(new URL(shop.url).origin).not.toBe(new URL(relay.url).origin);
    expect(new URL(shop.url).origin).not.toBe(new URL(sandbox.url).origin);
  });

  it('the page sees a network failure, from fetch and from the publishable client, because Chromium stops at the preflight', async () => {
    const context = await chromium.browser.newContext();
    const browserLog: string[] = [];
    try {
      const tab = await context.newPage();
      tab.on('console', (message) => message.type() === 'error' && browserLog.push(message.text()));
      tab.on('pageerror', (error) => browserLog.push(`uncaught: ${error.message}`));
      const url = `${new URL('index.html', shop.url).href}?${new URLSearchParams({ api: relay.url, key: sandbox.keys.publishable[0]! })}`;
      await tab.goto(url);
      await tab.waitForFunction(() => 'outcome' in window, undefined, { timeout: 20_000 }).catch((error: unknown) => {
        throw new Error(`the page never finished: ${JSON.stringify(browserLog)}`, { cause: error });
      });
      const outcome = (await tab.evaluate(() => (window as unknown as { outcome: unknown }).outcome)) as {
        fetch: { error?: string; message?: string; status?: number };
        client: { error?: string; kind?: string; message?: string; status?: number };
      };
      const seen = JSON.stringify(relay.seen.map(({ method, path, status }) => `${method} ${path} ${status}`));

      // What the page's script could see: a failure, no answer.
      expect(outcome.fetch, `what the page saw; the browser logged ${JSON.stringify(browserLog)}`).toMatchObject({ error: 'TypeError', message: 'Failed to fetch' });
      expect(outcome.client).toMatchObject({ error: 'PaymentsError', kind: 'network' });
      expect(outcome.client.status).toBeUndefined();
      // Why: both calls' preflights reached the sandbox (so it was up and reachable from the page), from the shop's
      // origin, and were answered without any permission for that origin; the token request itself was never sent.
      const preflights = relay.seen.filter((r) => r.method === 'OPTIONS' && r.path.endsWith('/single-use-tokens'));
      expect(preflights.length, `requests that reached the sandbox: ${seen}`).toBe(2);
      for (const preflight of preflights) {
        expect(preflight.origin).toBe(new URL(shop.url).origin);
        expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      }
      expect(relay.seen.filter((r) => r.method === 'POST'), `requests that reached the sandbox: ${seen}`).toEqual([]);
      expect(browserLog.filter((text) => /blocked by CORS policy/.test(text)), 'Chromium blames the missing cross-origin headers, once per call').toHaveLength(2);
    } finally {
      await context.close();
    }
  });

  it('the same request from Node (a server or an app, where no browser enforces origins), through the same relay, gets its token', async () => {
    const before = relay.seen.length;
    const client = createPublishableClient({ apiKey: sandbox.keys.publishable[0]!, baseUrl: relay.url });
    const token = await client.singleUseTokens.create(tokenRequest);
    expect(token.status).toBe(200);
    expect(token.data.singleUseTokenId).toEqual(expect.any(String));
    expect(relay.seen.slice(before).map((r) => `${r.method} ${r.status}`)).toEqual(['POST 200']);
  });
});
