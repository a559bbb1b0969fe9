// Run by process-exit.test.ts in a process of its own: every call below ends in an abort or close() while a
// 5-minute retry wait or a stalled body is pending, then this script simply returns. The process must then exit by
// itself: no timer, socket or listener of either client may keep it alive.
import { FileExchangeClient } from '@paykit/file-exchange';
import { FileExchangeSoapClient } from '../../src/index.js';

// `waiting` and `stalling` address scopes of the test's server whose every request waits or stalls (see the test).
type Urls = { restUrl: string; soapUrl: string };
const input = JSON.parse(process.env.PAYKIT_CHILD_INPUT ?? '{}') as { waiting: Urls; stalling: Urls; pfx: string; passphrase: string; ca: string };
const tls = { pfx: input.pfx, passphrase: input.passphrase, ca: input.ca };
const outcomes: string[] = [];
const note = (what: string) => (error: unknown) => outcomes.push(`${what}: ${(error as Error).name} ${(error as { operation?: string }).operation}`);

// The reference's retry rule (a 5-minute wait after the 500 the server gives), ended by the signal during the wait.
const rest = await FileExchangeClient.create({ baseUrl: input.stalling.restUrl, tls });
const soap = await FileExchangeSoapClient.create({ baseUrl: input.stalling.soapUrl, tls });
const restAbort = new AbortController();
const soapAbort = new AbortController();
const restWaiting = await FileExchangeClient.create({ baseUrl: input.waiting.restUrl, tls, retry: { onRetry: () => restAbort.abort(new Error('operator stop')) } });
const soapWaiting = await FileExchangeSoapClient.create({ baseUrl: input.waiting.soapUrl, tls, retry: { onRetry: () => soapAbort.abort(new Error('operator stop')) } });
await restWaiting.list({ signal: restAbort.signal }).catch(note('REST list, abort in the retry wait'));
await soapWaiting.downloadFiles('Q1', { signal: soapAbort.signal }).catch(note('SOAP downloadFiles, abort in the retry wait'));

// A body that stalls (the default two-minute stall timeout pending), ended by close().
const restDownload = rest.download('A.csv').then((file) => file.body.toArray()).catch(note('REST download, close() mid-body'));
const soapDownload = soap.downloadFiles('Q1').catch(note('SOAP downloadFiles, close() mid-body'));
// Closed once both bodies are coming in: the test, which serves them, says so on standard input.
process.stdin.once('data', () => {
  process.stdin.destroy();
  void Promise.all([rest.close(), soap.close()]);
});
await restDownload;
await soapDownload;
process.stdout.write(`${JSON.stringify(outcomes)}\n`);
