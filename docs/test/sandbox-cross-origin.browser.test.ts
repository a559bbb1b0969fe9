// What a shop's page sees when its script calls the payments API, as the reference's authentication rules imply
// ("the browser may not call this API with script requests (no cross-origin access)"): the payments sandbox, like the
// service, sends no Access-Control-* header, so Chromium refuses the answer to a page from another origin. The page
// tries plain fetch and the published publishable client (its ESM build, loaded as modules); the same requests from
// Node, where no browser enforces origins, succeed.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPaymentsSandbox, type PaymentsSandbox } from '@paykit/mock-server';
import { createPublishableClient } from '@paykit/payments';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveDirectory } from '../scripts/server.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { launchChromium, skipBrowserTests } from './support/chromium.js';

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
const page = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>shop</title>
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

let sandbox: PaymentsSandbox;
let shop: { server: Server; url: string };
let dir: string;
let browser: Browser;

describe.skipIf(skipBrowserTests)('a page from another origin calling the payments sandbox', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paykit-shop-'));
    writeFileSync(join(dir, 'index.html'), page);
    cpSync(join(paths.packages, 'payments', 'dist'), join(dir, 'payments'), { recursive: true });
    [sandbox, shop] = await Promise.all([startPaymentsSandbox(), serveDirectory(dir, 0)]);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), new Promise((resolve) => (shop ? shop.server.close(resolve) : resolve(undefined)))]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the shop and the sandbox are different origins', () => {
    expect(new URL(shop.url).origin).not.toBe(new URL(sandbox.url).origin);
  });

  it('the page sees a network failure, from fetch and from the publishable client, and Chromium says why', async () => {
    const context = await browser.newContext();
    const browserLog: string[] = [];
    const sandboxAnswers: { method: string; status: number; headers: Record<string, string> }[] = [];
    try {
      const tab = await context.newPage();
      tab.on('console', (message) => message.type() === 'error' && browserLog.push(message.text()));
      tab.on('pageerror', (error) => browserLog.push(`uncaught: ${error.message}`));
      tab.on('requestfailed', (request) => browserLog.push(`failed: ${request.url()}`));
      tab.on('response', (response) => response.status() === 404 && browserLog.push(`404: ${response.url()}`));
      tab.on('response', (response) => {
        if (response.url().startsWith(sandbox.url)) sandboxAnswers.push({ method: response.request().method(), status: response.status(), headers: response.headers() });
      });
      const url = `${new URL("index.html", shop.url).href}?${new URLSearchParams({ api: sandbox.url, key: sandbox.keys.publishable[0]! })}`;
      await tab.goto(url);
      await tab.waitForFunction(() => 'outcome' in window, undefined, { timeout: 30_000 }).catch((error: unknown) => {
        throw new Error(`the page never finished: ${JSON.stringify(browserLog)}`, { cause: error });
      });
      const outcome = (await tab.evaluate(() => (window as unknown as { outcome: unknown }).outcome)) as {
        fetch: { error?: string; message?: string; status?: number };
        client: { error?: string; kind?: string; message?: string; status?: number };
      };
      console.log('what the page saw:', JSON.stringify(outcome));
      console.log('what the browser logged:', JSON.stringify(browserLog));

      expect(outcome.fetch).toMatchObject({ error: 'TypeError', message: 'Failed to fetch' });
      expect(outcome.client).toMatchObject({ error: 'PaymentsError', kind: 'network' });
      expect(outcome.client.status).toBeUndefined();
      expect(browserLog.some((text) => /blocked by CORS policy/.test(text)), 'Chromium blames the missing cross-origin headers').toBe(true);
      // Whatever reached the page's browser from the sandbox carried no permission for the shop's origin.
      for (const answer of sandboxAnswers) expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the same request from Node (a server or an app, where no browser enforces origins) gets its token', async () => {
    const client = createPublishableClient({ apiKey: sandbox.keys.publishable[0]!, baseUrl: sandbox.url });
    const token = await client.singleUseTokens.create(tokenRequest);
    expect(token.status).toBe(200);
    expect(token.data.singleUseTokenId).toEqual(expect.any(String));
  });
});
