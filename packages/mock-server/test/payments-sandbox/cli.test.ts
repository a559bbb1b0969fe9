// end-to-end: paykit-mock as a process, started and stopped in every test (three times in the --state one).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { mockSettings } from '../../src/generated/payments/mock-settings.js';
import { services } from '../../src/index.js';
import { startPaykitMock } from '../support/paykit-mock-process.js';

// A process start is about a second idle, several on a loaded 2-core machine; the --state test makes three.
vi.setConfig({ testTimeout: 60_000 });

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

/** Runs `paykit-mock` until it says it is ready, does `whileRunning`, then stops it; resolves with what it printed. */
async function runUntilReady(args: string[], whileRunning: (output: string) => Promise<void>, env?: NodeJS.ProcessEnv): Promise<string> {
  const { child, output, exited } = await startPaykitMock(args, env ? { env } : {});
  try {
    await whileRunning(output);
  } finally {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  return output;
}

describe('paykit-mock payments-sandbox', () => {
  it('is a service of its own on the sandbox port of the contract registry', () => {
    const sandbox = services.find((s) => s.name === 'payments-sandbox');
    expect(sandbox?.defaultPort).toBe(mockSettings.ports.stateful);
  });

  it('prints its address, the keys it generated, its control address and where its state is', async () => {
    const output = await runUntilReady(['payments-sandbox', '--port-payments-sandbox', '0'], async (printed) => {
      const url = /payments-sandbox mock: (http:\/\/127\.0\.0\.1:\d+\/rest\/v1)/.exec(printed)![1]!;
      const secret = /secret key: (sk_sandbox_\w+)/.exec(printed)![1]!;
      const response = await fetch(`${url}/`, { headers: { authorization: basic(secret), accept: 'application/json' } });
      expect(response.status).toBe(200);
    });
    expect(output).toMatch(/publishable key: pk_sandbox_\w+/);
    expect(output).toMatch(/control: http:\/\/127\.0\.0\.1:\d+\/__sandbox/);
    expect(output).toContain('state: in memory');
  });

  it('prints the control token it generated, which the control interface takes and nothing else replaces', async () => {
    await runUntilReady(['payments-sandbox', '--port-payments-sandbox', '0'], async (printed) => {
      const control = /control: (http:\S+)/.exec(printed)![1]!;
      const token = /control token: (ctl_sandbox_\S+)/.exec(printed)![1]!;
      expect((await fetch(`${control}/clock`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      const refused = await fetch(`${control}/clock`);
      expect(refused.status).toBe(401);
      expect((await refused.json()).error).toContain('control token');
    });
  });

  it('prints one dashboard link that signs a browser in; the token is in no other line it prints, the session in none', async () => {
    const run = await startPaykitMock(['payments-sandbox', '--port-payments-sandbox', '0']);
    let token = '';
    let session = '';
    const cardNumber = '4111111111111111';
    try {
      const link = new URL(/dashboard: (http:\S+)/.exec(run.output)![1]!);
      token = new URLSearchParams(link.hash.slice(1)).get('token')!;
      expect([link.pathname, token]).toEqual(['/__sandbox/ui/', /control token: (\S+)/.exec(run.output)![1]]);
      const origin = link.origin;
      const api = /payments-sandbox mock: (http:\S+)/.exec(run.output)![1]!;
      const secret = /secret key: (\S+)/.exec(run.output)![1]!;
      const publishable = /publishable key: (\S+)/.exec(run.output)![1]!;
      // A whole sign-in as the page's script does it: the page, its script, a wrong token, the right one.
      expect((await fetch(`${origin}/__sandbox/ui/`)).status).toBe(200);
      expect((await fetch(`${origin}/__sandbox/ui/sign-in.js`)).status).toBe(200);
      const signIn = (body: string) => fetch(`${origin}/__sandbox/ui/session`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body });
      expect((await signIn(JSON.stringify({ token: `${token}-not` }))).status).toBe(401);
      const signedIn = await signIn(JSON.stringify({ token }));
      expect(signedIn.status).toBe(204);
      session = /paykit_sandbox_session=([^;]+)/.exec(signedIn.headers.get('set-cookie')!)![1]!;
      const cookie = `paykit_sandbox_session=${session}`;
      // The session in use: a page, reads, a change, refusals, the stream; a payment with card data that makes the
      // sandbox write a line (an unpublished entryMode is flagged on stderr), so that the output is not empty.
      expect([200, 503]).toContain((await fetch(`${origin}/__sandbox/ui/`, { headers: { cookie } })).status);
      const same = { cookie, 'sec-fetch-site': 'same-origin' };
      expect((await fetch(`${origin}/__sandbox/transactions`, { headers: same })).status).toBe(200);
      const json = { ...same, origin, 'content-type': 'application/json' };
      expect((await fetch(`${origin}/__sandbox/clock/advance`, { method: 'POST', headers: json, body: '{"ms":1}' })).status).toBe(200);
      expect((await fetch(`${origin}/__sandbox/clock/advance`, { method: 'POST', headers: { ...json, 'content-type': 'text/plain' }, body: '{"ms":1}' })).status).toBe(415);
      expect((await fetch(`${origin}/__sandbox/clock`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
      const tokenAnswer = await fetch(`${api}/single-use-tokens`, {
        method: 'POST',
        headers: { authorization: basic(publishable), accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ supplierBusinessCode: 'TEST_BUSINESS', accountType: 'CREDIT_CARD', cardholderName: 'T', cardNumber, expiryDateMonth: '12', expiryDateYear: '2040' }),
      });
      const { singleUseTokenId } = (await tokenAnswer.json()) as { singleUseTokenId: string };
      const payment = await fetch(`${api}/transactions`, {
        method: 'POST',
        headers: { authorization: basic(secret), accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ transactionType: 'PAYMENT', singleUseTokenId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10, currency: 'AUD', eci: 'INTERNET', entryMode: 'KEYED' }),
      });
      expect(payment.status).toBe(201);
      const events = await fetch(`${origin}/__sandbox/events`, { headers: same });
      expect(events.status).toBe(200);
      await events.body?.cancel();
      await run.until('entryMode');
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
    const lines = run.printed().split('\n');
    expect(lines.length).toBeGreaterThan(run.output.split('\n').length);
    expect(lines.filter((line) => line.includes(token)).map((line) => line.split(':')[0]!.trim())).toEqual(['control token', 'dashboard']);
    expect(run.printed()).not.toContain(session);
    expect(run.printed()).not.toContain(cardNumber);
  });

  it.each([
    { how: '--control-token', args: ['--control-token', 'given-control-token-cli-1'], env: undefined },
    { how: 'PAYKIT_SANDBOX_CONTROL_TOKEN', args: [], env: { ...process.env, PAYKIT_SANDBOX_CONTROL_TOKEN: 'given-control-token-cli-1' } },
  ])('takes the control token from $how and never prints it', async ({ args, env }) => {
    const output = await runUntilReady(
      ['payments-sandbox', '--port-payments-sandbox', '0', ...args],
      async (printed) => {
        const control = /control: (http:\S+)/.exec(printed)![1]!;
        expect((await fetch(`${control}/clock`, { headers: { authorization: 'Bearer given-control-token-cli-1' } })).status).toBe(200);
      },
      env,
    );
    expect(output).toContain('control token: given (not printed)');
    expect(output).not.toContain('given-control-token-cli-1');
  });

  it('warns when it listens beyond loopback, and prints addresses a client can call', async () => {
    const output = await runUntilReady(['payments-sandbox', '--port-payments-sandbox', '0', '--host', '0.0.0.0'], async (printed) => {
      const control = /control: (http:\/\/127\.0\.0\.1:\d+\/__sandbox)/.exec(printed)![1]!;
      const token = /control token: (ctl_sandbox_\S+)/.exec(printed)![1]!;
      expect((await fetch(`${control}/clock`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    });
    expect(output).toContain('other machines can reach');
    expect(output).toMatch(/payments-sandbox mock: http:\/\/127\.0\.0\.1:\d+\/rest\/v1/);
    expect(output).not.toContain('0.0.0.0:');
  });

  it('takes keys from the command line and never prints them', async () => {
    const output = await runUntilReady(
      ['payments-sandbox', '--port-payments-sandbox', '0', '--secret-key', 'sk_given_secret', '--publishable-key', 'pk_given_key'],
      async (printed) => {
        const url = /payments-sandbox mock: (\S+)/.exec(printed)![1]!;
        expect((await fetch(`${url}/`, { headers: { authorization: basic('sk_given_secret'), accept: 'application/json' } })).status).toBe(200);
      },
    );
    expect(output).not.toContain('sk_given_secret');
    expect(output).not.toContain('pk_given_key');
    expect(output).toContain('secret key: 1 given (not printed)');
  });

  it('--state FILE: a payment made through the sandbox is still there after the CLI is stopped and started again', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paykit-mock-state-'));
    const state = join(dir, 'sandbox-state');
    // Given keys, so that both runs accept the same ones whatever the state keeps of generated keys.
    const inMemory = ['payments-sandbox', '--port-payments-sandbox', '0', '--secret-key', 'sk_state_cli', '--publishable-key', 'pk_state_cli'];
    const args = [...inMemory, '--state', state];
    const json = { accept: 'application/json', 'content-type': 'application/json' };
    const sandboxUrl = (printed: string) => /payments-sandbox mock: (http:\/\/127\.0\.0\.1:\d+\/rest\/v1)/.exec(printed)![1]!;
    try {
      let receiptNumber = '';
      const first = await runUntilReady(args, async (printed) => {
        const url = sandboxUrl(printed);
        const token = await fetch(`${url}/single-use-tokens`, {
          method: 'POST',
          headers: { ...json, authorization: basic('pk_state_cli') },
          body: JSON.stringify({
            supplierBusinessCode: 'TEST_BUSINESS',
            accountType: 'CREDIT_CARD',
            cardholderName: 'Test Cardholder',
            cardNumber: '4111111111111111',
            expiryDateMonth: '12',
            expiryDateYear: String(new Date().getUTCFullYear() + 3),
          }),
        });
        expect(token.status).toBe(200);
        const { singleUseTokenId } = (await token.json()) as { singleUseTokenId: string };
        const payment = await fetch(`${url}/transactions`, {
          method: 'POST',
          headers: { ...json, authorization: basic('sk_state_cli'), 'idempotency-key': 'cli-state-payment-1' },
          body: JSON.stringify({
            transactionType: 'PAYMENT',
            singleUseTokenId,
            supplierBusinessCode: 'TEST_BUSINESS',
            principalAmount: 12.5,
            currency: 'AUD',
            eci: 'INTERNET',
            entryMode: 'STORED_CREDENTIAL',
          }),
        });
        expect(payment.status).toBe(201);
        ({ receiptNumber } = (await payment.json()) as { receiptNumber: string });
      });
      expect(first).toContain(`state: ${state}`);
      expect(receiptNumber).not.toBe('');

      const second = await runUntilReady(args, async (printed) => {
        const response = await fetch(`${sandboxUrl(printed)}/transactions/${receiptNumber}`, { headers: { ...json, authorization: basic('sk_state_cli') } });
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ receiptNumber, status: 'Approved', principalAmount: { amount: 12.5, currency: 'AUD' } });
      });
      expect(second).toContain(`state: ${state}`);

      // And without the state file the same receipt is unknown: the payment came back from the state, not by chance.
      await runUntilReady(inMemory, async (printed) => {
        const response = await fetch(`${sandboxUrl(printed)}/transactions/${receiptNumber}`, { headers: { ...json, authorization: basic('sk_state_cli') } });
        expect(response.status).toBe(404);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
