// (1) One GET through the client against a loopback server, paired with the same request through bare fetch.
// Measured twice: with an instant server (the client's whole cost shows) and with 2 ms of server time (closer to a
// real service, which answers in tens of milliseconds).
import { createServer } from 'node:http';
import { createSecretClient } from '../dist/index.js';
import { format, median, paired } from './stats.mjs';

const body = JSON.stringify({ receiptNumber: '1000000001', status: 'Approved', totalAmount: { currency: 'AUD', amount: 100 } });
const apiKey = 'sk_bench_key';
const headers = { Authorization: `Basic ${btoa(`${apiKey}:`)}`, Accept: 'application/json' };

async function measure(serverDelayMs, rounds) {
  const server = createServer((_request, response) => {
    const answer = () => response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    if (serverDelayMs) setTimeout(answer, serverDelayMs);
    else answer();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${server.address().port}/rest/v1`;
  const client = createSecretClient({ apiKey, baseUrl });
  const times = await paired(
    () => client.transactions.get('1000000001'),
    async () => (await fetch(`${baseUrl}/transactions/1000000001`, { headers })).json(),
    { rounds, warmup: Math.min(300, rounds / 5) },
  );
  server.closeAllConnections();
  server.close();
  const clientMedian = median(times.a);
  const fetchMedian = median(times.b);
  console.log(`    server time ${serverDelayMs} ms, ${rounds} pairs: client median ${format(clientMedian * 1000)} µs, bare fetch median ${format(fetchMedian * 1000)} µs`);
  console.log(`      ratio of medians ${format(clientMedian / fetchMedian, 3)}, median of paired ratios ${format(median(times.a.map((t, i) => t / times.b[i])), 3)}, difference ${format((clientMedian - fetchMedian) * 1000)} µs (target ratio <= 1.05)`);
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 3000);
console.log('(1) loopback GET through the client vs bare fetch');
await measure(0, rounds);
await measure(2, Math.max(100, Math.round(rounds / 6)));
