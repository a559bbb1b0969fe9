// One server of the benchmark, as its own process: `serve.mjs sandbox` or `serve.mjs proxy UPSTREAM [--record FILE]`.
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
} else {
  throw new Error('usage: serve.mjs sandbox | proxy UPSTREAM [--record FILE] [--strict]');
}

process.on('message', (message) => {
  if (message !== 'memory') return;
  globalThis.gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  process.send({ rss, heapUsed, exchanges: counter() });
});
process.once('SIGTERM', () => void close().then(() => process.exit(0)));
