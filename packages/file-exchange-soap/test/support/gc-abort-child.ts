// Run by process-exit.test.ts in a process of its own with --expose-gc: each call is given `AbortSignal.timeout(ms)`
// as its only end (no stall timeout) against a server that never answers, while garbage collections run. On Node 20 a
// signal derived from such a timeout signal (AbortSignal.any, a Request's signal) that nobody else references stopped
// following it after a collection, and the call never ended. Prints what each call ended with.
import { FileExchangeClient } from '@paykit/file-exchange';
import { FileExchangeSoapClient } from '../../src/index.js';

type Urls = { restUrl: string; soapUrl: string };
const input = JSON.parse(process.env.PAYKIT_CHILD_INPUT ?? '{}') as { silent: Urls; pfx: string; passphrase: string; ca: string; folder: string };
const tls = { pfx: input.pfx, passphrase: input.passphrase, ca: input.ca };
const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with --expose-gc');
// Collections all along, what the calls must survive; the verdict is what each call ends with, not when.
// real-time: a garbage collection every 5 ms
const collecting = setInterval(collect, 5);

const rest = await FileExchangeClient.create({ baseUrl: input.silent.restUrl, tls, stallTimeoutMs: 0, retry: false });
const soap = await FileExchangeSoapClient.create({ baseUrl: input.silent.soapUrl, tls, stallTimeoutMs: 0, retry: false });
const outcome = (what: string, call: Promise<unknown>) =>
  call.then(
    () => `${what}: no error`,
    (error: Error) => `${what}: ${error.name} ${(error.cause as Error | undefined)?.name ?? ''}`.trim(),
  );
// Nothing keeps the signals but the calls themselves.
const outcomes = await Promise.all([
  outcome('REST list', rest.list({ signal: AbortSignal.timeout(200) })),
  outcome('REST downloadToFile', rest.downloadToFile('A.csv', `${input.folder}/A.csv`, { signal: AbortSignal.timeout(200) })),
  outcome('REST delete', rest.delete('A.csv', { signal: AbortSignal.timeout(200) })),
  outcome('SOAP downloadFiles', soap.downloadFiles('Q1', { signal: AbortSignal.timeout(200) })),
]);
clearInterval(collecting);
await Promise.all([rest.close(), soap.close()]);
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
