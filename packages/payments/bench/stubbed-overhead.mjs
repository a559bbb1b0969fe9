// (2) Per-call cost of the client over bare openapi-fetch, with a stubbed fetch (no network), plus what the
// request checks cost on the two bodies that have the most rules.
import createClient from 'openapi-fetch';
import { createSecretClient } from '../dist/index.js';
import { format, median, paired } from './stats.mjs';

const baseUrl = 'https://api.example.test/rest/v1';
const answer = JSON.stringify({ receiptNumber: '1000000001', status: 'Approved' });
const stubFetch = async () => new Response(answer, { status: 200, headers: { 'Content-Type': 'application/json' } });
const client = createSecretClient({ apiKey: 'sk_bench_key', baseUrl, fetch: stubFetch });
const unchecked = createSecretClient({ apiKey: 'sk_bench_key', baseUrl, fetch: stubFetch, check: false });
const bare = createClient({ baseUrl, fetch: stubFetch, headers: { Authorization: `Basic ${btoa('sk_bench_key:')}` } });

const rounds = Number(process.env.BENCH_ROUNDS ?? 20000);
const batch = 20; // calls per timed sample, so that each sample is well above the timer's resolution

async function perCall(a, b) {
  const times = await paired(
    async () => { for (let i = 0; i < batch; i++) await a(); },
    async () => { for (let i = 0; i < batch; i++) await b(); },
    { rounds: rounds / batch, warmup: 100 },
  );
  return { a: (median(times.a) / batch) * 1000, b: (median(times.b) / batch) * 1000 };
}

const get = await perCall(
  () => client.transactions.get('1000000001'),
  () => bare.GET('/transactions/{receiptNumber}', { params: { path: { receiptNumber: '1000000001' } } }),
);
console.log(`(2) stubbed fetch, ${rounds} calls each`);
console.log(`    GET: client ${format(get.a, 2)} µs/call, bare openapi-fetch ${format(get.b, 2)} µs/call, ratio ${format(get.a / get.b, 3)}`);

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
  ['POST /transactions', () => client.transactions.create(payment), () => unchecked.transactions.create(payment)],
  ['POST 3DS2 authentication', () => client.singleUseTokens.authenticateThreeDS2('tok-1', threeDS), () => unchecked.singleUseTokens.authenticateThreeDS2('tok-1', threeDS)],
]) {
  const cost = await perCall(checkedCall, uncheckedCall);
  console.log(`    ${label}: with checks ${format(cost.a, 2)} µs/call, without ${format(cost.b, 2)} µs/call, checks cost ${format(cost.a - cost.b, 2)} µs`);
}
