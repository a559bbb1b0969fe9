// (1) One GET through the client against a loopback server, paired round by round with the same request through
// bare fetch: same URL, same headers, same body read (text, then JSON.parse, as the client does).
//
// Target: with a server that takes 2 ms to answer (the cheapest real hop), the client with its defaults costs at
// most 1.02x bare fetch (median of the paired ratios). The same pair on an instantly answering server shows the
// client's whole cost, without a target: no real call is that fast.
//
// The instant pair runs first, after a warm-up long enough for V8 to have optimised both paths (the ratio keeps
// falling for the first few thousand rounds). Then a second pass shows where the client's cost goes, against bare
// fetch again:
// - "client, no timeout": `timeoutMs: 0`, no deadline, so fetch gets no AbortSignal;
// - "client, no checks": `check: false`, no request checks;
// - "fetch + deadline signal": bare fetch given an AbortController's signal and a timer, the usual way to put a
//   deadline on fetch. The client does the same, one AbortController and one timer per call, the controller also
//   fired by the caller's signal: Node's fetch follows a signal with a listener, a weak reference and a finalizer,
//   which is most of what the deadline costs.
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

async function startServer(serverDelayMs) {
  const server = createServer((_request, response) => {
    const answer = () => response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    if (serverDelayMs) setTimeout(answer, serverDelayMs);
    else answer();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function report(title, times) {
  const baseline = times['bare fetch'];
  console.log(`    ${title} (median per call; ratio to bare fetch in the same round: median [p25-p75]):`);
  for (const [name, list] of Object.entries(times)) {
    const ratios = pairedRatios(list, baseline);
    const gap = (median(list) - median(baseline)) * 1000;
    const ratio = name === 'bare fetch' ? '' : `  ratio ${format(median(ratios), 3)} [${format(quantile(ratios, 0.25), 3)}-${format(quantile(ratios, 0.75), 3)}], ${gap >= 0 ? '+' : ''}${format(gap)} µs`;
    console.log(`      ${name.padEnd(24)} ${format(median(list) * 1000).padStart(7)} µs${ratio}`);
  }
}

async function measure(serverDelayMs, { rounds, warmup, target, breakdown }) {
  const server = await startServer(serverDelayMs);
  const baseUrl = `http://127.0.0.1:${server.address().port}/rest/v1`;
  const url = `${baseUrl}/transactions/1000000001`;
  const bare = async () => readAsClient(await fetch(url, { method: 'GET', headers }));
  const client = createSecretClient({ apiKey, baseUrl });
  const times = await interleaved({ 'bare fetch': bare, client: () => client.transactions.get('1000000001') }, { rounds, warmup });
  report(`server time ${serverDelayMs} ms, ${rounds} rounds after ${warmup} to warm up`, times);
  if (target) {
    const ratio = median(pairedRatios(times.client, times['bare fetch']));
    console.log(`    target: client <= ${target}x bare fetch with a ${serverDelayMs} ms server: ${format(ratio, 3)}x, ${ratio <= target ? 'met' : 'NOT MET'}`);
  }
  if (breakdown) {
    const untimed = createSecretClient({ apiKey, baseUrl, timeoutMs: 0 });
    const unchecked = createSecretClient({ apiKey, baseUrl, check: false });
    const parts = await interleaved(
      {
        'bare fetch': bare,
        'client, no timeout': () => untimed.transactions.get('1000000001'),
        'client, no checks': () => unchecked.transactions.get('1000000001'),
        'fetch + deadline signal': async () => {
          const controller = new AbortController();
          const timer = setTimeout(() => controller.abort(), 60_000);
          try {
            return await readAsClient(await fetch(url, { method: 'GET', headers, signal: controller.signal }));
          } finally {
            clearTimeout(timer);
          }
        },
      },
      { rounds, warmup },
    );
    report('where the cost goes, same server', parts);
  }
  server.closeAllConnections();
  server.close();
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 3000);
console.log('(1) loopback GET through the client vs bare fetch (target: client ratio <= 1.02 with a 2 ms server)');
await measure(0, { rounds, warmup: rounds, breakdown: true });
// The code is hot by now: a short warm-up for the new server's connection.
await measure(2, { rounds, warmup: 300, target: 1.02 });
