// (1) One GET through the client against a loopback server, paired round by round with the same request through
// bare fetch: same URL, same headers, same body read (text, then JSON.parse, as the client does). Measured with an
// instant server (the client's whole cost shows) and with 2 ms of server time (closer to a real service).
//
// Two more arms run in the same rounds to show where the gap comes from:
// - "fetch + deadline signal": bare fetch given an AbortController's signal and a timer, the least a client needs to
//   stop a call at its deadline; its ratio is the floor of any client that keeps a timeout.
// - "client, no timeout": the client with `timeoutMs: 0`, which hands fetch no signal when the caller gives none.
import { createServer } from 'node:http';
import { createSecretClient } from '../dist/index.js';
import { format, interleaved, median, pairedRatios, quantile } from './stats.mjs';

const body = JSON.stringify({ receiptNumber: '1000000001', status: 'Approved', totalAmount: { currency: 'AUD', amount: 100 } });
const apiKey = 'sk_bench_key';
// What the client sends on a GET, names as it writes them.
const headers = { accept: 'application/json', authorization: `Basic ${btoa(`${apiKey}:`)}` };

async function readAsClient(response) {
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

async function measure(serverDelayMs, rounds) {
  const server = createServer((_request, response) => {
    const answer = () => response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    if (serverDelayMs) setTimeout(answer, serverDelayMs);
    else answer();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${server.address().port}/rest/v1`;
  const url = `${baseUrl}/transactions/1000000001`;
  const client = createSecretClient({ apiKey, baseUrl });
  const untimed = createSecretClient({ apiKey, baseUrl, timeoutMs: 0 });
  const arms = {
    'bare fetch': async () => readAsClient(await fetch(url, { method: 'GET', headers })),
    client: () => client.transactions.get('1000000001'),
    'fetch + deadline signal': async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 60_000);
      try {
        return await readAsClient(await fetch(url, { method: 'GET', headers, signal: controller.signal }));
      } finally {
        clearTimeout(timer);
      }
    },
    'client, no timeout': () => untimed.transactions.get('1000000001'),
  };
  const times = await interleaved(arms, { rounds, warmup: Math.min(300, Math.round(rounds / 5)) });
  server.closeAllConnections();
  server.close();

  const baseline = times['bare fetch'];
  console.log(`    server time ${serverDelayMs} ms, ${rounds} rounds (median per call; ratio to bare fetch in the same round: median [p25-p75]):`);
  for (const [name, list] of Object.entries(times)) {
    const ratios = pairedRatios(list, baseline);
    const gap = (median(list) - median(baseline)) * 1000;
    const ratio = name === 'bare fetch' ? '' : `  ratio ${format(median(ratios), 3)} [${format(quantile(ratios, 0.25), 3)}-${format(quantile(ratios, 0.75), 3)}], ${gap >= 0 ? '+' : ''}${format(gap)} µs`;
    console.log(`      ${name.padEnd(24)} ${format(median(list) * 1000).padStart(7)} µs${ratio}`);
  }
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 3000);
console.log('(1) loopback GET through the client vs bare fetch (target: client ratio <= 1.05)');
await measure(0, rounds);
await measure(2, Math.max(100, Math.round(rounds / 6)));
