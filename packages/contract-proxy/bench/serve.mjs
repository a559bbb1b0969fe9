// One server of the benchmark, as its own process: `serve.mjs sandbox`, `serve.mjs proxy UPSTREAM [--record FILE]`, or
// `serve.mjs forward UPSTREAM`: a bare forwarder made of the proxy's HTTP parts (node:http in front, an undici Pool
// behind, bodies read whole, one write per answer) with no check, no rule and no report: what forwarding alone costs.
// Prints one JSON line once it listens ({ url, ... }); answers `memory` messages (IPC) with the process's memory
// after a full garbage collection and the exchanges seen so far; ends at SIGTERM.
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { record: { type: 'string' }, strict: { type: 'boolean' } } });
const [role, upstream] = positionals;
const secretKey = 'sk_bench_proxy_secret';
const publishableKey = 'pk_bench_proxy_publishable';
let counter = () => 0;
let close;

if (role === 'sandbox') {
  const { startPaymentsSandbox } = await import('@paykit/payments-sandbox');
  const sandbox = await startPaymentsSandbox({ keys: { secret: [secretKey], publishable: [publishableKey] } });
  close = () => sandbox.close();
  console.log(JSON.stringify({ url: sandbox.url, secretKey, publishableKey }));
} else if (role === 'proxy') {
  const { startContractProxy } = await import('@paykit/contract-proxy');
  const proxy = await startContractProxy({
    upstream,
    secretKeys: [secretKey],
    publishableKeys: [publishableKey],
    strict: values.strict ?? false,
    ...(values.record ? { record: { file: values.record } } : {}),
  });
  counter = () => proxy.report().exchanges;
  close = () => proxy.close();
  console.log(JSON.stringify({ url: proxy.url }));
} else if (role === 'forward') {
  const { createServer } = await import('node:http');
  const { Pool } = await import('undici');
  const target = new URL(upstream);
  const pool = new Pool(target.origin, { pipelining: 1 });
  const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'expect']);
  const endToEnd = (headers) => Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHop.has(name)));
  let seen = 0;
  const server = createServer(async (request, response) => {
    seen++;
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const answer = await pool.request({ method: request.method, path: request.url, headers: endToEnd(request.headers), body: chunks.length ? Buffer.concat(chunks) : null });
    const body = Buffer.from(await answer.body.arrayBuffer());
    response.writeHead(answer.statusCode, { ...endToEnd(answer.headers), 'content-length': String(body.length) });
    response.end(body.toString('latin1'), 'latin1');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  counter = () => seen;
  close = () => new Promise((resolve) => (server.close(resolve), server.closeAllConnections())).then(() => pool.destroy());
  console.log(JSON.stringify({ url: `http://127.0.0.1:${server.address().port}${target.pathname}` }));
} else {
  throw new Error('usage: serve.mjs sandbox | proxy UPSTREAM [--record FILE] [--strict] | forward UPSTREAM');
}

process.on('message', (message) => {
  if (message !== 'memory') return;
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.send({ rss, heapUsed, exchanges: counter() });
});
process.once('SIGTERM', () => void close().then(() => process.exit(0)));
