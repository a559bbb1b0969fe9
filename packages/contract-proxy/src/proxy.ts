import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { contractValidator, isJsonMediaType, mediaTypeOf, type ContractName, type MatchedOperation, type Problem } from '@paykit/contract-validation';
import { endToEnd, exchange, readAll, upstreamOf, writeAnswer, type Answer, type UpstreamTls } from './http-exchange.js';
import { harEntry } from './har-entry.js';
import { harHead, recordedBaseUrl, type Har, type HarEntry } from './har.js';
import { HarJournal } from './har-journal.js';
import { Masking } from './masking.js';
import { ReportCollector, type Outcome, type ProxyReport } from './report.js';
import { RequestRules, type ReceivedRequest, type Ticket } from './request-rules.js';
import { ruleNames, type Violation } from './violation.js';
import { version } from './version.js';

/** The REST contracts the proxy checks traffic against. */
export type ProxyContract = 'payments' | 'file-exchange';
// The published name of the validator's contracts (whose types stay out of our declarations): compiling fails when
// the two lists part.
const sameContracts: [ProxyContract, ContractName] extends [ContractName, ProxyContract] ? true : never = true;
void sameContracts;

export interface ContractProxyOptions {
  /** The service's base address, e.g. `https://api.example.com/rest/v1` or a sandbox's `url`. */
  upstream: string;
  /** The contract the traffic is checked against (default `payments`). */
  contract?: ProxyContract;
  /** Refuse a request that breaks the contract before it leaves (answered 422 with a problem body naming the rules). */
  strict?: boolean;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Serve HTTPS with this certificate (the merchant's client trusts it) rather than HTTP. */
  tls?: Pick<ServerOptions, 'cert' | 'key' | 'pfx' | 'passphrase' | 'ca' | 'requestCert'>;
  /** The client certificate presented to an HTTPS upstream, and the authorities trusted for it. */
  upstreamTls?: UpstreamTls;
  /** Keys declared as secret or publishable, so that a key of the wrong type is named from its first use. */
  secretKeys?: readonly string[];
  publishableKeys?: readonly string[];
  /** Called with each violation as it is found (the CLI prints a line). */
  onViolation?: (violation: Violation) => void;
  /**
   * Record every exchange as HAR. `true` keeps the recording in memory (`har()`); `{ file }` writes each entry to the
   * file before its answer is delivered and keeps nothing in memory, so that memory stays flat however long the
   * session and a killed proxy leaves every answered exchange on disk. The file is emptied only once the proxy
   * listens: a start that fails leaves it as it was.
   */
  record?: boolean | { file: string };
  /** Called with each recorded entry (masked) once it is recorded. A callback that throws loses only its own call. */
  onRecord?: (entry: HarEntry) => void;
  /** A clock for the rules that count time (retry waits, token lifetimes): tests. */
  now?: () => number;
}

export interface ContractProxy {
  /** The base address to give the merchant's client instead of the service's, e.g. `http://127.0.0.1:5123/rest/v1`. */
  url: string;
  origin: string;
  report(): ProxyReport;
  /** The recording so far (empty unless `record` is set); with `record: { file }`, read back from the file. */
  har(): Har;
  /** Stops listening, ends open connections and closes the recording (synced). */
  close(): Promise<void>;
}

/** The media type of the problem bodies the proxy answers with itself. */
const problemMediaType = 'application/problem+json';

function problem(response: ServerResponse, status: number, body: Record<string, unknown>): Answer {
  const text = Buffer.from(JSON.stringify({ status, ...body }));
  const headers = { 'content-type': problemMediaType, 'content-length': String(text.length) };
  response.writeHead(status, headers);
  response.end(text);
  return { status, statusText: '', headers, body: text };
}

/** The body as JSON when its media type says it is JSON; undefined otherwise or when it does not parse. */
function jsonOf(headers: IncomingMessage['headers'], body: Buffer): unknown {
  if (body.length === 0) return undefined;
  const mediaType = mediaTypeOf(headers['content-type']);
  if (mediaType === undefined || !isJsonMediaType(mediaType)) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Calls a caller's callback about an exchange that is already answered, reported and recorded: one that throws
 * loses only its own call, never the exchange's entry or report line.
 */
function notify<T>(callback: ((value: T) => void) | undefined, value: T): void {
  try {
    callback?.(value);
  } catch {
    // Theirs to handle; the proxy's own record of the exchange is complete.
  }
}

async function listen(server: Server, host: string, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

const closeServer = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/**
 * Starts the validating proxy. Each request is matched to its operation and checked in process against the
 * contract (the compiled schemas of @paykit/contract-validation) and our `x-paykit-*` rules; it is then sent to the
 * service as it came (or refused, with `strict`), and the service's answer is checked the same way and delivered as
 * it came. No other process is involved.
 */
export async function startContractProxy(options: ContractProxyOptions): Promise<ContractProxy> {
  const host = options.host ?? '127.0.0.1';
  const contractName = options.contract ?? 'payments';
  const validator = contractValidator(contractName);
  const base = new URL(options.upstream.replace(/\/+$/, ''));
  const basePath = base.pathname.replace(/\/+$/, '');
  const upstream = upstreamOf(base, options.upstreamTls);
  const strict = options.strict ?? false;
  const rules = contractName === 'payments' ? new RequestRules(options) : undefined;
  const masking = new Masking(contractName, [...(options.secretKeys ?? []), ...(options.publishableKeys ?? [])]);
  const report = new ReportCollector({
    context: {
      proxy: { name: '@paykit/contract-proxy', version },
      contract: { name: validator.contract.name, title: validator.contract.title, version: validator.contract.version },
      upstream: recordedBaseUrl(options.upstream),
      mode: strict ? 'strict' : 'observe',
    },
    operations: validator.contract.operations.map(({ id, method, path }) => ({ id, method, path })),
  });
  const memory: HarEntry[] = [];
  let journal: HarJournal | undefined;
  const recordFile = typeof options.record === 'object' ? options.record.file : undefined;
  let exchanges = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const number = ++exchanges;
    const startedAt = Date.now();
    const started = performance.now();
    const method = request.method ?? 'GET';
    const body = await readAll(request);
    const target = request.url ?? '/';
    const question = target.indexOf('?');
    const pathname = question < 0 ? target : target.slice(0, question);
    const search = question < 0 ? '' : target.slice(question);
    const subPath = pathname.startsWith(basePath) ? pathname.slice(basePath.length) : pathname;
    const matched: MatchedOperation | undefined = method === 'OPTIONS' ? undefined : validator.match(method, subPath);
    const operation = matched?.operation.id ?? `${method} ${subPath}`;
    const json = jsonOf(request.headers, body);
    const violations: Violation[] = [];
    const found = (side: Violation['side'], list: readonly Pick<Problem, 'rule' | 'location' | 'message' | 'source'>[]) => {
      for (const { rule, location, message, source } of list) violations.push({ rule, side, operation, location, message, source, exchange: number });
    };

    let ticket: Ticket | undefined;
    const received: ReceivedRequest = { method, headers: request.headers, json };
    if (matched) {
      found('request', validator.checkRequest(matched, { headers: request.headers, ...(search ? { query: new URLSearchParams(search) } : {}), body, json }));
      if (rules) {
        const checked = rules.check(received, matched);
        ticket = checked.ticket;
        found('request', checked.findings);
      }
    } else if (method !== 'OPTIONS') {
      // CORS preflights are the browser's, and the contract describes none: they pass unvalidated.
      found('request', [{ rule: ruleNames.unknownOperation, location: 'path', message: `the ${validator.contract.name} contract has no operation ${method} ${subPath}`, source: '#/paths' }]);
    }

    let delivered: Answer;
    let outcome: Outcome;
    let answeredBy: 'proxy' | undefined;
    let answerJson: unknown;
    if (strict && violations.length > 0) {
      if (ticket) rules?.refused(ticket);
      delivered = refusal(operation, violations);
      outcome = 'refused';
      answeredBy = 'proxy';
    } else {
      try {
        const answer = await exchange(upstream, method, `${basePath}${subPath}${search}`, endToEnd(request.headers), body);
        answerJson = jsonOf(answer.headers, answer.body);
        if (matched) found('answer', validator.checkAnswer(matched.operation, { status: answer.status, headers: answer.headers, body: answer.body, json: answerJson }));
        if (ticket) rules?.answered(ticket, matched, answer.status, answerJson);
        delivered = answer;
        outcome = answer.status;
      } catch (error) {
        if (ticket) rules?.answered(ticket, matched, 'network-error', undefined);
        // The service never answered: the 502 is the proxy's, and is recorded and reported as such.
        delivered = problemAnswer(502, { title: 'The contract proxy could not reach the service', detail: error instanceof Error ? error.message : String(error) });
        outcome = 'unreachable';
        answeredBy = 'proxy';
      }
    }

    // Recorded before it is delivered: an exchange the client saw answered is in the recording.
    let entry: HarEntry | undefined;
    if (options.record) {
      entry = harEntry(
        {
          exchange: number,
          startedAt: new Date(startedAt),
          durationMs: Math.round(performance.now() - started),
          method,
          url: `${base.origin}${basePath}${subPath}${search}`,
          operation,
          request: { headers: request.headers, body, json },
          status: delivered.status,
          statusText: delivered.statusText,
          response: { headers: delivered.headers, body: delivered.body, json: answeredBy ? undefined : answerJson },
          violations,
          matched,
          ...(answeredBy ? { answeredBy } : {}),
          key: ticket?.key,
        },
        masking,
      );
      if (journal) await journal.append(entry);
      else memory.push(entry);
    }
    writeAnswer(response, delivered);
    report.exchange({ number, startedAt, operation, method, outcome }, violations);
    for (const violation of violations) notify(options.onViolation, violation);
    if (entry) notify(options.onRecord, entry);
  }

  function problemAnswer(status: number, body: Record<string, unknown>): Answer {
    const text = Buffer.from(JSON.stringify({ status, ...body }));
    return { status, statusText: '', headers: { 'content-type': problemMediaType }, body: text };
  }

  function refusal(operation: string, violations: readonly Violation[]): Answer {
    const rulesBroken = [...new Set(violations.map((v) => v.rule))];
    return problemAnswer(422, {
      type: 'https://paykit.dev/problems/contract-violation',
      title: `Refused by the contract proxy (--strict): ${rulesBroken.join(', ')}`,
      detail: violations.map((v) => `${v.rule} at ${v.location || '(message)'}: ${v.message}`).join('; '),
      operation,
      violations: violations.map(({ rule, side, location, message, source }) => ({ rule, side, location, message, source })),
    });
  }

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) problem(response, 502, { title: 'contract proxy failure', detail: error instanceof Error ? error.message : String(error) });
      else response.destroy();
    });
  };
  const front = options.tls ? createHttpsServer(options.tls, onRequest) : createHttpServer(onRequest);
  // The merchant's port first: a port already taken fails at once, before the recording's file is touched.
  let port: number;
  try {
    port = await listen(front, host, options.port ?? 0);
  } catch (error) {
    throw new Error(`The contract proxy cannot listen on ${host}:${options.port ?? 0}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (recordFile !== undefined) {
    try {
      journal = await HarJournal.create(recordFile, harHead(recordedBaseUrl(options.upstream), version));
    } catch (error) {
      await closeServer(front);
      throw error;
    }
  }
  const origin = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: origin + basePath,
    origin,
    report: () => report.snapshot(),
    har: () =>
      recordFile !== undefined
        ? (JSON.parse(readFileSync(recordFile, 'utf8')) as Har)
        : { log: { ...harHead(recordedBaseUrl(options.upstream), version), entries: [...memory] } },
    close: () =>
      (closing ??= (async () => {
        await closeServer(front);
        await upstream.close();
        await journal?.close();
      })()),
  };
}
