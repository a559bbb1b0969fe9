// The accuracy findings of the review of the guides against the reference, each as a check: what the guides say is
// read from their Markdown, and what they say the packages do is provoked for real (a local HTTP server, the
// payments sandbox, the webhook receiver, the SOAP client's error, the mock's command).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { SoapFaultError } from '@paykit/file-exchange-soap';
import { startPaymentsSandbox } from '@paykit/mock-server';
import { createSecretClient, isPaymentsError } from '@paykit/payments';
import { createPublishableClient } from '@paykit/payments/publishable';
import { createWebhookReceiver, signTestPayload, WebhookVerificationError } from '@paykit/payments/webhooks';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readGuides } from '../scripts/guides.mjs';
import { paths } from '../scripts/site-paths.mjs';
import { unitsOf } from './support/attribution.js';

const guides = readGuides();
const guide = (source: string) => {
  const found = guides.find((g) => g.source === source);
  if (!found) throw new Error(`no guide ${source}`);
  return found.markdown;
};
/** Every paragraph, table row and list item of every guide, with its guide. */
const units = guides.flatMap((g) => unitsOf(g.markdown).map((text) => ({ source: g.source, text })));
const codeBlocks = (markdown: string) => [...markdown.matchAll(/^```ts[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? '');

/** The `entryMode` values a piece of code sets. */
export function entryModesIn(code: string): string[] {
  return [...code.matchAll(/\bentryMode\s*[:=]\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

describe('entryMode in the samples', () => {
  const schema = parse(readFileSync(join(paths.repoRoot, 'specs/payments/components/schemas/TransactionRequest.yaml'), 'utf8')) as {
    properties: { entryMode: { enum?: string[]; examples?: string[] } };
  };
  const published = new Set([...(schema.properties.entryMode.enum ?? []), ...(schema.properties.entryMode.examples ?? [])]);
  const samples = guides.flatMap((g) => codeBlocks(g.markdown).filter((code) => /\bentryMode\b/.test(code)).map((code) => ({ source: g.source, code })));

  it('finds the values a sample sets', () => {
    expect(entryModesIn("{ entryMode: 'ECOMMERCE' }\nconst entryMode = \"STORED_CREDENTIAL\";")).toEqual(['ECOMMERCE', 'STORED_CREDENTIAL']);
  });

  it('every value a guide sets is one the spec publishes', () => {
    expect([...published]).toContain('STORED_CREDENTIAL');
    expect(samples.length).toBeGreaterThan(0);
    const unpublished = samples.flatMap(({ source, code }) => entryModesIn(code).filter((v) => !published.has(v)).map((v) => `${source}: ${v}`));
    expect(unpublished).toEqual([]);
  });

  it('every sample that sets it says a word on `usage`, which STORED_CREDENTIAL may require', () => {
    expect(samples.filter(({ code }) => !/\busage\b/.test(code)).map(({ source }) => source)).toEqual([]);
  });
});

/** Reads a status the contract does not name as a decline ("treats other values as declines"). */
export const readsUnnamedStatusAsDecline = (text: string) =>
  /\b(?:other|unknown|unnamed|unlisted)\s+(?:status(?:es)?|values?)\b[^.|]*?\b(?:as|are|is|means?)\s+(?:an?\s+)?declin/i.test(text);

describe('transaction status values', () => {
  it('finds a guide reading other values as declines', () => {
    expect(readsUnnamedStatusAsDecline('The client treats other values as declines.')).toBe(true);
    expect(readsUnnamedStatusAsDecline('Any unknown status is a decline.')).toBe(true);
    expect(readsUnnamedStatusAsDecline('The client reads any other status as undetermined: not approved, and not known to be declined.')).toBe(false);
  });

  it('no guide reads a status the contract does not name as a decline', () => {
    expect(units.filter((u) => readsUnnamedStatusAsDecline(u.text)).map((u) => `${u.source}: ${u.text}`)).toEqual([]);
  });

  it('the card payments guide gives what the reference gives: Approved, pending, and the suspended transactions', () => {
    const section = markdownSection(guide('02-card-payments.md'), '3. The server takes the payment');
    for (const named of [/`Approved`/, /pending/, /suspended/, /`GET \/transactions\/suspended`/, /`undetermined`/]) expect(section).toMatch(named);
  });

  it('the wallet sample does not tell the payer an undetermined payment failed, and names no decline outcome', () => {
    const sample = codeBlocks(guide('03-digital-wallets.md')).find((code) => /settleTransaction/.test(code)) ?? '';
    expect(sample).toMatch(/if \(outcome === 'approved'\) return \{ complete: 'success', show: 'receipt' \};/);
    // Past the approved branch, the page shows that the payment is being checked: never a failure page.
    const rest = sample.slice(sample.indexOf("if (outcome === 'approved')"));
    expect([...rest.matchAll(/show: '([^']+)'/g)].map((m) => m[1])).toEqual(['receipt', 'payment-being-checked']);
    expect(sample).not.toMatch(/'declined'/);
  });
});

describe('501', () => {
  it('is explained as the reference does: request method not recognised', () => {
    const mentions = units.filter((u) => /\b501\b/.test(u.text));
    expect(mentions.some((u) => /not recognised/.test(u.text))).toBe(true);
    expect(mentions.filter((u) => /\b501\b[^.|]*\b(?:server failure|failed|failure)\b/.test(u.text) && !/not a failure/.test(u.text))).toEqual([]);
  });

  it('is what the guide says of the client: kind server, sent once, no state to query', async () => {
    let requests = 0;
    const server: Server = createServer((_request, response) => {
      requests++;
      response.writeHead(501, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ status: '501', developerMessage: 'method not recognised' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createSecretClient({ apiKey: 'test-key', baseUrl: `http://127.0.0.1:${port}/rest/v1`, retry: { delayMs: 1 } });
      const error = await client.facility.get().catch((e: unknown) => e);
      expect(isPaymentsError(error) && { kind: error.kind, status: error.status, mustQueryState: error.mustQueryState, attempts: error.attempts }).toEqual({
        kind: 'server',
        status: 501,
        mustQueryState: false,
        attempts: 1,
      });
      expect(requests).toBe(1);
    } finally {
      server.close();
    }
  });
});

describe('SOAP Client faults', () => {
  it('not retrying them is presented as our choice, not the reference rule', () => {
    const rows = unitsOf(guide('06-file-transfers.md')).filter((text) => /Client fault/.test(text));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/our choice/);
  });

  it('the SOAP client does not retry them, and retries other faults', () => {
    const fault = (faultCode: string) => new SoapFaultError('uploadFile', 500, { faultCode, faultString: 'refused' });
    expect([fault('soap:Client').retryable, fault('soap:Server').retryable]).toEqual([false, true]);
  });
});

describe('the mocks\' listen address', () => {
  it('no guide says they listen on 127.0.0.1 only, and the mocks guide names --host', () => {
    expect(units.filter((u) => /127\.0\.0\.1 only/.test(u.text))).toEqual([]);
    expect(guide('08-mocks-in-tests.md')).toMatch(/--host/);
  });

  it('paykit-mock takes --host', async () => {
    const pkgPath = createRequire(join(paths.docsRoot, 'package.json')).resolve('@paykit/mock-server/package.json');
    const bin = (JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: Record<string, string> }).bin['paykit-mock']!;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(dirname(pkgPath), bin), '--help'], { timeout: 25_000 });
    expect(`${stdout}${stderr}`).toMatch(/--host/);
    // A real process: starting Node and loading the mocks' command takes seconds on a loaded machine.
  }, 30_000);
});

describe('webhook rows of the troubleshooting guide', () => {
  const row = (reason: string) => unitsOf(guide('11-troubleshooting.md')).find((text) => text.startsWith(`| reason ${reason} `)) ?? '';

  it('say what the receiver does after a valid signature', () => {
    expect(row('malformed-body')).toMatch(/signature was valid/);
    expect(row('malformed-body')).toMatch(/200/);
    expect(row('malformed-body')).not.toMatch(/did not come from the service/);
    expect(row('unknown-event-type')).toMatch(/200/);
    expect(row('unknown-event-type')).toMatch(/onUnknownEvent/);
    expect(row('unknown-event-type')).toMatch(/exist today/);
  });

  it('match the receiver: both are answered 200, one reported to onError, the other to onUnknownEvent', async () => {
    const secret = 'test-webhook-secret';
    const errors: unknown[] = [];
    const unknown: unknown[] = [];
    const receive = createWebhookReceiver({ secret, onEvent: () => undefined, onUnknownEvent: (body) => void unknown.push(body), onError: (e) => void errors.push(e) });
    const server = createServer((request, response) => void receive(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const post = ({ body, header }: { body: string; header: string }) =>
        fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': header }, body });
      const malformed = signTestPayload({ id: 'n-1', timestamp: new Date().toISOString(), data: {} }, { secret });
      const mandate = signTestPayload({ id: 'n-2', timestamp: new Date().toISOString(), eventType: 'mandate.agreement.updated', data: {} }, { secret });
      expect((await post(malformed)).status).toBe(200);
      expect((await post(mandate)).status).toBe(200);
      await expect.poll(() => errors.length + unknown.length).toBe(2);
      expect(errors.map((e) => e instanceof WebhookVerificationError && e.reason)).toEqual(['malformed-body']);
      expect(unknown).toEqual([expect.objectContaining({ eventType: 'mandate.agreement.updated' })]);
    } finally {
      server.close();
    }
  });
});

describe('a secret key on the token endpoint', () => {
  it('every guide passage that gives 403 for the wrong key type names the token endpoint\'s 401', () => {
    const passages = units.filter((u) => /wrong (?:key )?type/.test(u.text) && /\b403\b/.test(u.text));
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.filter((u) => !(/\b401\b/.test(u.text) && /token endpoint/.test(u.text))).map((u) => `${u.source}: ${u.text}`)).toEqual([]);
  });

  it('gets 401 from the sandbox, where a publishable key on a secret resource gets 403', async () => {
    const sandbox = await startPaymentsSandbox({ port: 0 });
    try {
      const options = { baseUrl: sandbox.url, retry: { maxRetries: 0 } };
      const tokenWithSecret = createPublishableClient({ apiKey: sandbox.keys.secret[0]!, ...options });
      const facilityWithPublishable = createSecretClient({ apiKey: sandbox.keys.publishable[0]!, ...options });
      const card = { supplierBusinessCode: 'TEST_BUSINESS', accountType: 'CREDIT_CARD', cardNumber: '4111111111111111', expiryDateMonth: '12', expiryDateYear: '2030' } as const;
      const statusOf = (e: unknown) => (isPaymentsError(e) ? e.status : e);
      expect(statusOf(await tokenWithSecret.singleUseTokens.create(card).catch((e: unknown) => e))).toBe(401);
      expect(statusOf(await facilityWithPublishable.facility.get().catch((e: unknown) => e))).toBe(403);
    } finally {
      await sandbox.close();
    }
  });
});

describe('webhook subscriptions', () => {
  it('no guide says the operator sets them up: the reference does not say who does', () => {
    const claims = units.filter((u) => /subscri/i.test(u.text) && /operator sets (?:them|it|the subscriptions?) up|set (?:the|your) subscriptions? up with the operator/i.test(u.text));
    expect(claims.map((u) => `${u.source}: ${u.text}`)).toEqual([]);
  });
});

describe('the file exchange onboarding in the going-live guide', () => {
  // The reference's eleven onboarding steps, in order.
  const steps = [/test account/, /connectivity form/, /build/, /routing/, /\btest\b/, /sign-off/, /production account/, /production connectivity form/, /routing/, /tested live/, /low-value live testing/];

  it('lists all eleven steps, including routing in test and the low-value live test', () => {
    const markdown = guide('10-going-live.md');
    const list = /eleven steps:\n\n((?:\d+\. .*\n(?: {3}.*\n)*)+)/.exec(markdown)?.[1] ?? '';
    const items = list.split(/\n(?=\d+\. )/).map((item) => item.replace(/\s+/g, ' '));
    expect(items.length).toBe(steps.length);
    steps.forEach((step, i) => expect(items[i], `step ${i + 1}`).toMatch(step));
  });

  it('its checklist keeps routing in test and the low-value live test', () => {
    const checklist = markdownSection(guide('10-going-live.md'), 'Before the first real payment');
    expect(checklist).toMatch(/routing/);
    expect(checklist).toMatch(/low-value live/);
  });
});

describe('the single-use token quota', () => {
  it('is never given without its scope (per facility and per IP address)', () => {
    const mentions = units.filter((u) => /\b1000\b/.test(u.text) && /unused/.test(u.text));
    expect(mentions.length).toBeGreaterThan(0);
    expect(mentions.filter((u) => !/IP address/.test(u.text)).map((u) => `${u.source}: ${u.text}`)).toEqual([]);
  });
});

describe('a refused client certificate', () => {
  it('every guide section that has a certificate refused at the handshake also gives the 403 the reference names', () => {
    const sections = guides.flatMap((g) => g.markdown.split(/\n(?=## )/).map((text) => ({ source: g.source, text })));
    const handshakeOnly = sections.filter(({ text }) => /certificate[^.]*(?:refus|not accept|expired)[^.]*handshake|handshake[^.]*certificate[^.]*refus/i.test(text.replace(/\s+/g, ' ')));
    expect(handshakeOnly.length).toBeGreaterThan(0);
    expect(handshakeOnly.filter(({ text }) => !/\b403\b/.test(text)).map(({ source, text }) => `${source}: ${text.split('\n')[0]}`)).toEqual([]);
  });
});

describe('going live: what a merchant must find', () => {
  // The list, each with the guide and section that answers it.
  const topics: [string, string, string][] = [
    ['New Zealand: addresses, currency, bank accounts', '10-going-live.md', 'New Zealand'],
    ["test data for the operator's test environment", '10-going-live.md', "Test data for the operator's test environment"],
    ['the support details to collect', '10-going-live.md', 'What support needs from you'],
    ['rotating keys without downtime', '10-going-live.md', 'Rotating keys without downtime'],
    ['living with the 10-request limit', '10-going-live.md', 'Living with the 10-request limit'],
    ['a live smoke test', '10-going-live.md', 'A live smoke test'],
    ['reconciliation', '10-going-live.md', 'Reconciliation'],
    ['client certificate expiry and renewal', '12-certificates-proxies-and-encrypted-files.md', 'The client certificate: expiry and renewal'],
    ['PKCS#12 to PEM', '12-certificates-proxies-and-encrypted-files.md', 'PKCS#12 to PEM'],
    ['proxies', '12-certificates-proxies-and-encrypted-files.md', 'Through an HTTP proxy'],
    ['PGP files in and out', '12-certificates-proxies-and-encrypted-files.md', 'Encrypted files (PGP) in and out'],
  ];

  it.each(topics)('%s has its section', (_topic, source, heading) => {
    expect(markdownSection(guide(source), heading).length).toBeGreaterThan(200);
  });

  it('New Zealand covers the addresses, the currency and the bank accounts', () => {
    const section = markdownSection(guide('10-going-live.md'), 'New Zealand');
    for (const part of [/\*\*Addresses\.\*\*/, /\*\*Currency\.\*\*/, /\*\*Bank accounts\.\*\*/, /DIRECT_DEBIT_NZ/, /NZ_DOMESTIC/]) expect(section).toMatch(part);
  });

  it('the live smoke test is one low-value payment, then its refund', () => {
    const sample = codeBlocks(markdownSection(guide('10-going-live.md'), 'A live smoke test'))[0] ?? '';
    const payment = sample.search(/transactionType: 'PAYMENT'/);
    const refund = sample.search(/transactionType: 'REFUND', originalReceiptNumber: transaction\.receiptNumber/);
    expect(payment).toBeGreaterThan(-1);
    expect(refund).toBeGreaterThan(payment);
    expect(sample).toMatch(/principalAmount: 1\.0\b/);
  });

  it('the support record holds what the reference asks for a persisting 500 or 503', () => {
    const sample = codeBlocks(markdownSection(guide('10-going-live.md'), 'What support needs from you'))[0] ?? '';
    for (const field of ['communityCode', 'error.method', 'error.url', 'error.occurredAt', 'error.body']) expect(sample).toContain(field);
  });
});

/** The text of a `##` section of a guide. */
function markdownSection(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}
