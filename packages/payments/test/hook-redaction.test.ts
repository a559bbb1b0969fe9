import { afterEach, describe, expect, it } from 'vitest';
import { isPaymentsError, type RequestLog } from '../src/index.js';
import { json, startLoopbackServer, type LoopbackServer } from './support/loopback-server.js';
import { secretClient } from './support/fixtures.js';

// Hooks are where merchants log: whatever credential a request carries, they see `[redacted]`, and the service still
// gets the real value.

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sent = {
  Cookie: 'session=cookie-secret',
  'X-Api-Key': 'gateway-secret',
  'Proxy-Authorization': 'Basic cHJveHktc2VjcmV0',
  'X-Merchant-Token': 'merchant-secret',
  'X-Request-Id': 'visible-1',
};

describe('the logging hooks see secrets redacted', () => {
  it.each([
    { label: 'without secretHeaders', secretHeaders: undefined, merchantToken: 'merchant-secret' },
    { label: 'with X-Merchant-Token marked secret', secretHeaders: ['X-Merchant-Token'], merchantToken: '[redacted]' },
    { label: 'with the name marked in another case', secretHeaders: ['x-merchant-token'], merchantToken: '[redacted]' },
  ])('$label', async ({ secretHeaders, merchantToken }) => {
    server = await startLoopbackServer((_request, res) => json(res, 200, { receiptNumber: '1' }));
    const logs: RequestLog[] = [];
    const client = secretClient(server.url, { secretHeaders, onRequest: (r) => logs.push(r), onResponse: (r) => logs.push(r) });
    await client.transactions.get('1', { headers: sent });
    expect(logs).toHaveLength(2);
    for (const { headers } of logs) {
      expect(headers).toMatchObject({
        authorization: '[redacted]',
        cookie: '[redacted]',
        'x-api-key': '[redacted]',
        'proxy-authorization': '[redacted]',
        'x-merchant-token': merchantToken,
        'x-request-id': 'visible-1',
      });
    }
    expect(server.requests[0]!.headers).toMatchObject({ cookie: 'session=cookie-secret', 'x-api-key': 'gateway-secret', 'x-merchant-token': 'merchant-secret' });
  });

  it.each([['X-Token'], [['X-Token', 7]], [['']]])('refuses secretHeaders %j when the client is made', (secretHeaders) => {
    let error: unknown;
    try {
      secretClient('http://127.0.0.1:9/rest/v1', { secretHeaders: secretHeaders as never });
    } catch (caught) {
      error = caught;
    }
    expect(isPaymentsError(error) && error.kind).toBe('configuration');
    expect(isPaymentsError(error) && error.option).toBe('secretHeaders');
  });
});
