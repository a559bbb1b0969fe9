// end-to-end: a real Chromium drives the dashboard of a real sandbox process, paying with the packed payments client.
// The dashboard as a developer uses it, on a desktop and on a 390×844 phone, light and dark: sign in with the link the
// sandbox printed, take a payment with the packed @paykit/payments and see it appear live, open its timeline, let a
// payer pay an alias and see the webhook delivery in the timeline and the webhooks view, advance the clock from the
// dashboard and see the payment settle, inject a fault from the dashboard and see the next request fail with it.
// Every wait is for the page's state or the sandbox's answer, never for a while. Screenshots of each view go to
// test-results/dashboard/ (gitignored); with PAYKIT_UPDATE_SCREENSHOTS=1 the guide's are written to docs/guides/images.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { createSandboxControl, type SandboxControl } from '../../src/http/control-client.js';
import { debitCards } from '../../src/rules/conventions.js';
import { installHint, skipBrowserTests } from './support/chromium.js';

// A browser, a sandbox process and a dozen page loads per configuration on a busy 2-core machine: a hang still fails
// within these bounds; no wait below is a pause.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 30_000 });

type Payments = typeof import('@paykit/payments');

const results = fileURLToPath(new URL('../../test-results/dashboard/', import.meta.url));
const guideImages = fileURLToPath(new URL('../../../../docs/guides/images/', import.meta.url));
const updateScreenshots = process.env.PAYKIT_UPDATE_SCREENSHOTS === '1';

/**
 * The configurations, and the views of each that the guide shows (docs/guides/images/sandbox-dashboard-VIEW-NAME.png,
 * the top of the screen: the guide's images stay small).
 */
const configurations: { name: string; options: BrowserContextOptions; phone: boolean; guide: string[] }[] = [
  { name: 'desktop-light', options: { viewport: { width: 1280, height: 860 }, colorScheme: 'light' }, phone: false, guide: ['transactions', 'timeline-webhook', 'faults'] },
  { name: 'desktop-dark', options: { viewport: { width: 1280, height: 860 }, colorScheme: 'dark' }, phone: false, guide: [] },
  { name: 'phone-light', options: { viewport: { width: 390, height: 844 }, colorScheme: 'light', isMobile: true, hasTouch: true }, phone: true, guide: [] },
  { name: 'phone-dark', options: { viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true, hasTouch: true }, phone: true, guide: ['transactions'] },
];

interface SandboxProcess {
  child: ChildProcess;
  url: string;
  origin: string;
  signIn: string;
  secretKey: string;
  publishableKey: string;
  output: string[];
}

/** Starts the sandbox's own process and reads what it prints until it is ready. */
function startSandbox(): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./support/dashboard-sandbox.mjs', import.meta.url))], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return new Promise((resolve, reject) => {
    const printed: Record<string, string> = {};
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it was ready: ${output.join('')}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const match = /^([\w -]+): (.+)$/.exec(line);
      if (match) printed[match[1]!] = match[2]!;
      if (printed['payments-sandbox ready']) {
        const url = printed['payments-sandbox ready'];
        resolve({ child, url, origin: new URL(url).origin, signIn: printed.dashboard!, secretKey: printed['secret key']!, publishableKey: printed['publishable key']!, output });
      }
    });
  });
}

async function stopSandbox(sandbox: SandboxProcess | undefined) {
  if (!sandbox || sandbox.child.exitCode !== null) return;
  const exited = new Promise((resolve) => sandbox.child.once('exit', resolve));
  sandbox.child.kill('SIGTERM');
  await exited;
}

/** A merchant's webhook endpoint: answers 200 to every notification, and keeps the signature each one carried. */
async function startReceiver(): Promise<{ server: Server; url: string; signatures: string[] }> {
  const signatures: string[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      signatures.push(String(req.headers['x-webhook-signature']));
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('received');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, signatures };
}

let sandbox: SandboxProcess | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
let browser: Browser | undefined;
let payments: Payments;
let control: SandboxControl;

describe.skipIf(skipBrowserTests)('the sandbox dashboard in Chromium', () => {
  beforeAll(async () => {
    const endpoint = inject('chromiumEndpoint');
    if (!endpoint) throw new Error(installHint);
    [sandbox, receiver, browser, payments] = await Promise.all([
      startSandbox(),
      startReceiver(),
      chromium.connect(endpoint),
      import(inject('packedPayments')) as Promise<Payments>,
    ]);
    const token = decodeURIComponent(new URL(sandbox.signIn).hash.replace(/^#token=/, ''));
    control = createSandboxControl(sandbox.origin, { token });
    rmSync(results, { recursive: true, force: true });
    mkdirSync(results, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await stopSandbox(sandbox);
    await new Promise((resolve) => (receiver ? receiver.server.close(resolve) : resolve(undefined)));
  });

  beforeEach(async () => {
    await control.resetSandbox();
    await control.createWebhookSubscription({ url: receiver!.url, secret: 'whsec_dashboard_test' });
  });

  it('prints a sign-in link to the dashboard', () => {
    expect(sandbox!.signIn).toMatch(new RegExp(`^${sandbox!.origin}/__sandbox/ui/#token=.{16,}$`));
  });

  it.each(configurations)('$name: sign in, pay, see it live, its timeline, its webhook, settle it, fail the next request', async (configuration) => {
    const s = sandbox!;
    const context = await browser!.newContext({ ...configuration.options, deviceScaleFactor: 1, serviceWorkers: 'block' });
    const offsite: string[] = [];
    const problems: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === s.origin || url.protocol === 'data:') return route.continue();
      offsite.push(url.href);
      return route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
    let shot = 0;
    const screenshot = async (view: string) => {
      shot += 1;
      const file = `${results}${configuration.name}-${String(shot).padStart(2, '0')}-${view}.png`;
      await page.screenshot({ path: file, fullPage: false });
      if (updateScreenshots && configuration.guide.includes(view)) {
        mkdirSync(guideImages, { recursive: true });
        const { width } = page.viewportSize()!;
        const clip = configuration.phone ? { x: 0, y: 0, width, height: 700 } : { x: 0, y: 0, width: 1200, height: 640 };
        await page.screenshot({ path: `${guideImages}sandbox-dashboard-${view}-${configuration.name}.png`, clip });
      }
    };
    const go = (route: string) => page.evaluate((hash) => void (location.hash = hash), route);

    try {
      // Sign in: the link's token goes to the sandbox once, then leaves the address bar and the history.
      await page.goto(s.signIn);
      await page.waitForURL((url) => url.pathname === '/__sandbox/ui/' && !url.hash.includes('token'));
      await page.locator('[data-live="live"]').waitFor();
      await page.getByRole('heading', { name: 'Transactions', level: 1 }).waitFor();
      // Light or dark as the system says.
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).toBe(configuration.options.colorScheme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
      expect(page.url()).not.toContain('token');
      const session = (await context.cookies(`${s.origin}/__sandbox/ui/`)).find((c) => c.httpOnly);
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      expect(await page.evaluate(() => document.cookie)).toBe('');
      await page.locator('[data-testid="no-transactions"]').waitFor();

      // A pending payment (an amount ending in .52, the sandbox's convention), taken with the packed client.
      const tokens = payments.createPublishableClient({ apiKey: s.publishableKey, baseUrl: s.url });
      const secret = payments.createSecretClient({ apiKey: s.secretKey, baseUrl: s.url, retry: { maxRetries: 0 } });
      const card = async () =>
        (await tokens.singleUseTokens.create({ supplierBusinessCode: 'TEST_BUSINESS', accountType: 'CREDIT_CARD', cardNumber: [...debitCards][0]!, expiryDateMonth: '12', expiryDateYear: '2030' })).data
          .singleUseTokenId!;
      const payment = async (principalAmount: number) =>
        secret.transactions.create({ singleUseTokenId: await card(), supplierBusinessCode: 'TEST_BUSINESS', principalAmount, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' });
      const pending = { singleUseTokenId: await card(), supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 25.52, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' };
      const idempotencyKey = `dashboard-${configuration.name}-1`;
      const paid = await secret.transactions.create(pending, { idempotencyKey });
      const receipt = paid.data.receiptNumber!;
      expect(paid.data.status).toBe('Pending');

      // It appears without a reload: the event stream told the page.
      const row = page.locator(`tr[data-receipt="${receipt}"]`);
      await row.waitFor();
      expect(await row.getAttribute('data-status')).toBe('Pending');
      await screenshot('transactions');

      // Its timeline: the request that made it, its body masked, and a resend under the same key, replayed.
      const resent = await secret.transactions.create(pending, { idempotencyKey });
      expect(resent.data.receiptNumber).toBe(receipt);
      await row.getByRole('link', { name: receipt }).click();
      await page.locator('[data-kind="created"]').waitFor();
      await page.locator('[data-kind="replay"]', { hasText: idempotencyKey }).waitFor();
      await page.getByRole('heading', { name: `Transaction ${receipt}` }).waitFor();
      expect(await page.locator('[data-kind="created"]').innerText()).toContain('POST');
      expect(await page.content()).not.toContain([...debitCards][0]!);
      await screenshot('timeline');

      // An alias registered with the packed client; the dashboard's clock moves a day: the registration completes
      // (its webhook is posted) and the pending payment settles.
      const aliasAddress = `invoice-${configuration.name}@pay.example.com`;
      const { data: alias } = await secret.aliases.register({ aliasAddress, type: 'SINGLE', supplierBusinessCode: 'TEST_BUSINESS', paymentAmount: '25.50' });
      await page.getByRole('link', { name: 'Time and faults' }).click();
      await page.locator('[data-testid="clock"]').waitFor();
      const clockBefore = await page.locator('[data-testid="clock"]').innerText();
      await page.getByLabel('Advance by').fill('1');
      await page.getByLabel('Unit').selectOption({ label: 'days' });
      await page.getByRole('button', { name: 'Advance the clock' }).click();
      await page.locator('[data-testid="clock"]', { hasText: 'ahead of the real clock' }).waitFor();
      expect(await page.locator('[data-testid="clock"]').innerText()).not.toBe(clockBefore);
      await screenshot('time');

      await go(`#/transactions/${receipt}`);
      await page.locator('[data-kind="settled"]').waitFor();
      await page.locator('[data-testid="transaction-status"]', { hasText: 'Approved' }).waitFor();

      // The payer pays the alias: a transaction made by the sandbox, and the notification it caused, delivered to
      // the merchant's endpoint, in its timeline with the attempt's answer and signature.
      await go('#/transactions');
      const payer = await control.payAlias(alias.id!, { amount: 25.5 });
      const aliasReceipt = payer.transaction!.receiptNumber;
      const aliasRow = page.locator(`tr[data-receipt="${aliasReceipt}"]`);
      await aliasRow.waitFor();
      await aliasRow.getByRole('link', { name: aliasReceipt }).click();
      const delivered = page.locator('[data-kind="webhook"] [data-attempt-status="200"]');
      await delivered.waitFor();
      const shown = await page.locator('[data-kind="webhook"]').innerText();
      expect(shown).toContain('alias.payment.received');
      // The signature shown is the one the merchant's endpoint received.
      expect(receiver!.signatures.some((signature) => shown.includes(`Signature ${signature}`))).toBe(true);
      await screenshot('timeline-webhook');

      await page.getByRole('link', { name: 'Webhooks' }).click();
      const registered = page.locator('[data-event-type="alias.registered"][data-outcome="delivered"]');
      await registered.waitFor();
      await page.locator('[data-event-type="alias.payment.received"][data-outcome="delivered"]').waitFor();
      await screenshot('webhooks');
      // Deliver again: a second attempt, by hand, answered 200 by the endpoint.
      const before = receiver!.signatures.length;
      await registered.getByRole('button', { name: 'Deliver again' }).click();
      await registered.locator('li[data-attempt-status="200"]', { hasText: 'by hand' }).waitFor();
      expect(receiver!.signatures.length).toBe(before + 1);

      await page.getByRole('link', { name: 'Customers' }).click();
      await page.locator(`[data-alias="${aliasAddress}"]`).waitFor();
      await screenshot('customers');

      // A fault from the dashboard: the next payment fails with it.
      await page.getByRole('link', { name: 'Time and faults' }).click();
      const inject = page.getByRole('form', { name: 'Inject a fault' });
      await inject.getByLabel('Fault', { exact: true }).selectOption({ label: 'answer 503' });
      await inject.getByLabel('Only operation', { exact: true }).selectOption('createTransaction');
      await inject.getByRole('button', { name: 'Inject', exact: true }).click();
      await page.locator('[data-testid="pending-faults"]', { hasText: '503' }).waitFor();
      const failed = await payment(30).catch((error: unknown) => error);
      expect(payments.isPaymentsError(failed) && failed.status).toBe(503);
      await page.locator('[data-testid="applied-faults"]', { hasText: '503' }).waitFor();
      await screenshot('faults');

      await page.getByRole('link', { name: 'Requests' }).click();
      await page.locator('[data-status="503"][data-fault]').first().waitFor();
      // The card number the token was made from is in no request body the page holds (they are masked).
      await page.locator('[data-request]', { hasText: 'createSingleUseToken' }).first().waitFor();
      expect(await page.content()).not.toContain([...debitCards][0]!);
      expect(await page.locator('[data-status="503"][data-fault]').first().getAttribute('data-fault')).toMatch(/^503/);
      await screenshot('requests');

      await page.getByRole('link', { name: 'Contract violations' }).click();
      await page.getByRole('heading', { name: 'Contract violations', level: 1 }).waitFor();
      await page.locator('main p, main ol').first().waitFor();
      await screenshot('violations');

      // The search: the alias payment's receipt number finds it alone; a status filter keeps the address.
      await go('#/transactions');
      await page.locator(`tr[data-receipt="${receipt}"]`).waitFor();
      await page.getByRole('searchbox', { name: 'Search' }).fill(aliasReceipt);
      await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
      await page.waitForFunction((only) => {
        const rows = [...document.querySelectorAll('tr[data-receipt]')];
        return rows.length === 1 && rows[0]!.getAttribute('data-receipt') === only;
      }, aliasReceipt);
      expect(new URL(page.url()).hash).toContain(`q=${aliasReceipt}`);

      // Keyboard: on a page just loaded, the first Tab reaches the skip link, which moves the focus to the content.
      await page.reload();
      await page.locator('[data-live="live"]').waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');

      if (configuration.phone) {
        // Readable on the phone: nothing wider than the screen.
        await go('#/transactions');
        await page.locator(`tr[data-receipt="${receipt}"]`).waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      }

      expect(offsite).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('pages transactions 50 at a time, newest first', async () => {
    const s = sandbox!;
    const tokens = payments.createPublishableClient({ apiKey: s.publishableKey, baseUrl: s.url });
    const secret = payments.createSecretClient({ apiKey: s.secretKey, baseUrl: s.url });
    const receipts: string[] = [];
    for (let n = 0; n < 51; n++) {
      const { data: token } = await tokens.singleUseTokens.create({ supplierBusinessCode: 'TEST_BUSINESS', accountType: 'CREDIT_CARD', cardNumber: [...debitCards][0]!, expiryDateMonth: '12', expiryDateYear: '2030' });
      const paid = await secret.transactions.create({ singleUseTokenId: token.singleUseTokenId!, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10 + n, currency: 'AUD', entryMode: 'STORED_CREDENTIAL' });
      receipts.push(paid.data.receiptNumber!);
    }
    const context = await browser!.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const page = await context.newPage();
      await page.goto(s.signIn);
      await page.waitForURL((url) => url.pathname === '/__sandbox/ui/' && !url.hash.includes('token'));
      const rows = () => page.locator('tr[data-receipt]').evaluateAll((found) => found.map((row) => row.getAttribute('data-receipt')));
      await page.locator(`tr[data-receipt="${receipts[50]}"]`).waitFor();
      expect(await rows()).toEqual(receipts.slice(1).reverse());
      await page.getByRole('link', { name: 'Older →' }).click();
      await page.locator(`tr[data-receipt="${receipts[0]}"]`).waitFor();
      expect(await rows()).toEqual([receipts[0]]);
      expect(await page.getByRole('link', { name: 'Older →' }).count()).toBe(0);
      await page.getByRole('link', { name: '← Newer' }).click();
      await page.locator(`tr[data-receipt="${receipts[50]}"]`).waitFor();
      expect(await rows()).toHaveLength(50);
    } finally {
      await context.close();
    }
  });
});
