// Run by folder-crash.test.ts in a process of its own: drains a queue with downloadAllToFolder and logs each file
// handled (`fileID fileName size sha256`), killing itself with SIGKILL in the handler of the file named by
// PAYKIT_KILL_IN_HANDLER, before its line is logged (the handler did not finish).
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { FileExchangeSoapClient } from '../../src/index.js';

const input = JSON.parse(process.env.PAYKIT_CHILD_INPUT ?? '{}') as { soapUrl: string; pfx: string; passphrase: string; ca: string; folder: string; log: string };
const client = await FileExchangeSoapClient.create({
  baseUrl: input.soapUrl,
  tls: { pfx: input.pfx, passphrase: input.passphrase, ca: input.ca },
  retry: { intervalMs: 10, maxDurationMs: 5_000, allowShortIntervals: true },
});
for await (const file of client.downloadAllToFolder('Q1', input.folder)) {
  if (process.env.PAYKIT_KILL_IN_HANDLER === file.fileID) process.kill(process.pid, 'SIGKILL');
  const sha = createHash('sha256').update(readFileSync(file.path)).digest('hex');
  appendFileSync(input.log, `${file.fileID} ${file.fileName ?? '-'} ${file.size} ${sha}\n`);
}
await client.close();
