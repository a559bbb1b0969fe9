// (2) The client's own per-call work, without any network: the global fetch is replaced by a stub that answers at
// once (built the same way for every arm), so what each arm adds over "stub alone" is its own cost. The "client"
// arm keeps its deadline as on a real fetch (an AbortController per call, handed to the stub, which ignores it);
// "no timeout" makes none. Then the same against bare openapi-fetch through a custom fetch (both build a Request
// then), and what the request checks cost on the two bodies that have the most rules.
import createClient from 'openapi-fetch';
import { createSecretClient } from '../dist/index.js';
import { format, interleaved, median } from './stats.mjs';

const baseUrl = 'https://api.example.test/rest/v1';
const apiKey = 'sk_bench_key';
const answer = JSON.stringify({ receiptNumber: '1000000001', status: 'Approved' });
const stubFetch = async () => new Response(answer, { status: 200, headers: { 'Content-Type': 'application/json' } });

async function readAsClient(response) {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 20000);
const batch = 20; // calls per timed sample, so that each sample is well above the timer's resolution

/** Median µs per call of each arm, the arms interleaved batch by batch. */
async function perCall(arms) {
  const batched = Object.fromEntries(
    Object.entries(arms).map(([name, run]) => [name, async () => { for (let i = 0; i < batch; i++) await run(); }]),
  );
  const times = await interleaved(batched, { rounds: rounds / batch, warmup: 100 });
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, (median(list) / batch) * 1000]));
}

console.log(`(2) stubbed fetch, ${rounds} calls per arm`);
const globalFetch = globalThis.fetch;
globalThis.fetch = stubFetch;
try {
  const clients = {
    default: createSecretClient({ apiKey, baseUrl }),
    untimed: createSecretClient({ apiKey, baseUrl, timeoutMs: 0 }),
    unchecked: createSecretClient({ apiKey, baseUrl, timeoutMs: 0, check: false }),
  };
  const get = await perCall({
    'stub alone': async () => readAsClient(await stubFetch()),
    'client (deadline signal)': () => clients.default.transactions.get('1000000001'),
    'client, no timeout': () => clients.untimed.transactions.get('1000000001'),
    'client, no timeout, no checks': () => clients.unchecked.transactions.get('1000000001'),
  });
  console.log('    GET as the global fetch (µs per call, and over the stub alone):');
  for (const [name, cost] of Object.entries(get)) {
    const over = name === 'stub alone' ? '' : `  +${format(cost - get['stub alone'], 2)} µs`;
    console.log(`      ${name.padEnd(30)} ${format(cost, 2).padStart(6)} µs${over}`);
  }
} finally {
  globalThis.fetch = globalFetch;
}

const custom = createSecretClient({ apiKey, baseUrl, fetch: stubFetch });
const bare = createClient({ baseUrl, fetch: stubFetch, headers: { Authorization: `Basic ${btoa(`${apiKey}:`)}` } });
const viaCustom = await perCall({
  client: () => custom.transactions.get('1000000001'),
  'bare openapi-fetch': () => bare.GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: '1000000001' } } }),
});
console.log(`    GET as a custom fetch (a Request each): client ${format(viaCustom.client, 2)} µs/call, bare openapi-fetch ${format(viaCustom['bare openapi-fetch'], 2)} µs/call, ratio ${format(viaCustom.client / viaCustom['bare openapi-fetch'], 3)}`);

const unchecked = createSecretClient({ apiKey, baseUrl, fetch: stubFetch, check: false });
const payment = {
  transactionType: 'PAYMENT', singleUseTokenId: 'tok-1', supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 100,
  currency: 'AUD', eci: 'INTERNET', ipAddress: '192.0.2.10', entryMode: 'STORED_CREDENTIAL',
};
const threeDS = {
  messageCategory: '01', threeDSRequestorAuthenticationInd: '01', currency: 'AUD', principalAmount: '100.00',
  billAddrLine1: '1 Test Street', billAddrCity: 'Sydney', billAddrPostCode: '2000', billAddrState: 'NSW',
  billAddrCountry: '036', email: 'payer@example.com', mobilePhone: '+61400000000',
};
for (const [label, checkedCall, uncheckedCall] of [
  ['POST /transactions', () => custom.transactions.create(payment), () => unchecked.transactions.create(payment)],
  ['POST 3DS2 authentication', () => custom.singleUseTokens.authenticateThreeDS2('tok-1', threeDS), () => unchecked.singleUseTokens.authenticateThreeDS2('tok-1', threeDS)],
]) {
  const cost = await perCall({ checked: checkedCall, unchecked: uncheckedCall });
  console.log(`    ${label}: with checks ${format(cost.checked, 2)} µs/call, without ${format(cost.unchecked, 2)} µs/call, checks cost ${format(cost.checked - cost.unchecked, 2)} µs`);
}
