import { open, readFile, rename, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { Har } from './har.js';
import { startContractProxy, type ContractProxy } from './proxy.js';
import { renderText } from './report.js';
import { renderHtml } from './report-html.js';
import { replayHar } from './replay.js';
import { formatViolation } from './violation.js';

export const proxyHelp = `usage: paykit-mock proxy --upstream URL [--api payments|file-exchange] [--strict] [--host H] [--port N]
                         [--record FILE.har] [--report-json FILE] [--report-html FILE] [--duration SECONDS]
                         [--secret-key KEY ...] [--publishable-key KEY ...]
                         [--tls-cert FILE --tls-key FILE] [--client-pfx FILE [--client-passphrase P]] [--upstream-ca FILE]

Puts a validating proxy in front of the service at URL (its base address). Every request and answer is checked
against the contract in process (its schemas, and our x-paykit rules for payments); each violation is printed on
stderr as it is found, and a summary at the end (Ctrl-C, SIGTERM, SIGHUP, or after --duration).
  --strict            refuse a request that breaks the contract before it leaves (422, a problem body naming the rules)
  --record FILE.har   record every exchange as HAR 1.2, keys and card numbers redacted; each exchange is on disk
                      before its answer is delivered
  --secret-key / --publishable-key   declare your keys, so a key of the wrong type is named from its first use
  --tls-cert/--tls-key   serve HTTPS with this certificate (PEM) instead of HTTP
  --client-pfx FILE   present this client certificate to the upstream (the file exchange's mTLS)
  --upstream-ca FILE  trust this authority (PEM) for the upstream's certificate`;

export const replayHelp = `usage: paykit-mock replay FILE.har --target URL [--secret-key KEY] [--publishable-key KEY]

Replays a recording against the base address URL (a fresh sandbox, say) and compares each answer with the
recorded one: its status, and its body with identifiers and times aside; exits 1 when one differs.`;

/** Writes a file whole or not at all: a report or recording is complete on disk once we say it is. */
async function writeDurably(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  const handle = await open(temporary, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, path);
}

const asStrings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : value === undefined ? [] : [String(value)]);

function positiveNumber(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`${name} needs a positive number`);
  return number;
}

/** The signals that end a session like Ctrl-C: the reports are written, the recording closed. */
const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Resolves at the first stop signal from now on, instead of the default (ending the process at once). */
function stopSignal(): { stopped: Promise<void>; dispose(): void } {
  let dispose = () => {};
  const stopped = new Promise<void>((resolve) => {
    const stop = () => resolve();
    for (const signal of stopSignals) process.once(signal, stop);
    dispose = () => {
      for (const signal of stopSignals) process.off(signal, stop);
    };
  });
  return { stopped, dispose };
}

export interface ProxyCommandOptions {
  /** Where lines go (default stdout/stderr). */
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/** `paykit-mock proxy ...`: runs until SIGINT/SIGTERM or --duration, then writes the reports and resolves. */
export async function runProxyCommand(argv: string[], command: ProxyCommandOptions = {}): Promise<void> {
  const out = command.out ?? ((line: string) => console.log(line));
  const err = command.err ?? ((line: string) => console.error(line));
  const { values } = parseArgs({
    args: argv,
    options: {
      upstream: { type: 'string' },
      api: { type: 'string', default: 'payments' },
      strict: { type: 'boolean', default: false },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      record: { type: 'string' },
      'report-json': { type: 'string' },
      'report-html': { type: 'string' },
      duration: { type: 'string' },
      'secret-key': { type: 'string', multiple: true },
      'publishable-key': { type: 'string', multiple: true },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'client-pfx': { type: 'string' },
      'client-passphrase': { type: 'string' },
      'upstream-ca': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return void out(proxyHelp);
  if (!values.upstream) throw new Error(`--upstream is required\n\n${proxyHelp}`);
  try {
    new URL(values.upstream);
  } catch {
    throw new Error(`--upstream must be an absolute address (http://... or https://...), not ${JSON.stringify(values.upstream)}`);
  }
  if (values.api !== 'payments' && values.api !== 'file-exchange') throw new Error('--api is payments or file-exchange');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port needs a port number (0 picks a free port)');
  const durationSeconds = positiveNumber(values.duration, '--duration');
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined)) throw new Error('--tls-cert and --tls-key go together');

  const stop = stopSignal();
  try {
    out(`starting the contract proxy (the ${values.api} contract, validated in process)`);
    const proxy: ContractProxy = await startContractProxy({
      upstream: values.upstream,
      contract: values.api,
      strict: values.strict,
      host: values.host,
      port,
      secretKeys: asStrings(values['secret-key']),
      publishableKeys: asStrings(values['publishable-key']),
      // On disk as it grows, each exchange before its answer: a proxy killed mid-session leaves every answered
      // exchange in a HAR that parses; the file is emptied only once the port listens.
      ...(values.record !== undefined ? { record: { file: values.record } } : {}),
      onViolation: (violation) => err(formatViolation(violation)),
      ...(values['tls-cert'] && values['tls-key']
        ? { tls: { cert: await readFile(values['tls-cert']), key: await readFile(values['tls-key']) } }
        : {}),
      upstreamTls: {
        ...(values['client-pfx'] ? { pfx: await readFile(values['client-pfx']) } : {}),
        ...(values['client-passphrase'] !== undefined ? { passphrase: values['client-passphrase'] } : {}),
        ...(values['upstream-ca'] ? { ca: await readFile(values['upstream-ca']) } : {}),
      },
    });
    out(`contract proxy: ${proxy.url} -> ${values.upstream}${values.strict ? ' (strict)' : ''}`);
    out('proxy ready; Ctrl-C stops it and prints the summary');

    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<void>((resolve) => {
      if (durationSeconds !== undefined) timer = setTimeout(resolve, durationSeconds * 1000);
    });
    await Promise.race([stop.stopped, elapsed]);
    clearTimeout(timer);
    await proxy.close();
    const report = proxy.report();
    if (values['report-json']) await writeDurably(values['report-json'], JSON.stringify(report, null, 2));
    if (values['report-html']) await writeDurably(values['report-html'], renderHtml(report));
    out(renderText(report));
  } finally {
    stop.dispose();
  }
}

export interface ReplayCommandOptions extends ProxyCommandOptions {
  /** Card numbers the target knows (a sandbox's test cards): see `ReplayOptions.cards`. */
  cards?: readonly string[];
}

/** `paykit-mock replay FILE.har --target URL`: resolves with the exit status (0 when every status matches). */
export async function runReplayCommand(argv: string[], io: ReplayCommandOptions = {}): Promise<number> {
  const out = io.out ?? ((line: string) => console.log(line));
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      target: { type: 'string' },
      'secret-key': { type: 'string' },
      'publishable-key': { type: 'string' },
      help: { type: 'boolean' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return (out(replayHelp), 0);
  const [file] = positionals;
  if (!file || !values.target) throw new Error(`a HAR file and --target are required\n\n${replayHelp}`);
  const har = JSON.parse(await readFile(file, 'utf8')) as Har;
  if (har?.log?.version !== '1.2' || !Array.isArray(har.log.entries) || typeof har.log._paykitBaseUrl !== 'string') {
    throw new Error(`${file} is not a recording of paykit-mock proxy (HAR 1.2 with log._paykitBaseUrl)`);
  }
  const result = await replayHar(har, {
    target: values.target,
    ...(values['secret-key'] ? { secretKey: values['secret-key'] } : {}),
    ...(values['publishable-key'] ? { publishableKey: values['publishable-key'] } : {}),
    ...(io.cards ? { cards: io.cards } : {}),
  });
  for (const entry of result.entries) {
    const label = `${entry.method} ${entry.path} (${entry.operation})`;
    if (entry.skipped !== undefined) {
      out(`skip ${label}: ${entry.skipped}`);
      continue;
    }
    out(`${entry.matches ? 'ok  ' : 'DIFF'} ${label}: recorded ${entry.recordedStatus}, replayed ${entry.replayedStatus}`);
    for (const difference of entry.differences) out(`       ${difference}`);
  }
  out(`${result.entries.length - result.skipped} exchanges replayed, ${result.mismatches} differ${result.skipped ? `, ${result.skipped} not sent (never answered by the service)` : ''}`);
  return result.mismatches === 0 ? 0 : 1;
}
