import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { answerViolations } from './answer-rules.js';
import { endToEnd, exchange, readAll, type Answer, type UpstreamTls } from './http-exchange.js';
import { HarRecorder, recordedBaseUrl, type Har, type HarEntry } from './har.js';
import { matchOperation, type MatchedOperation } from './operations.js';
import { prismViolations } from './prism-violations.js';
import { ReportCollector, type ProxyReport } from './report.js';
import { RequestRules, type ReceivedRequest } from './request-rules.js';
import type { Violation } from './violation.js';
import { version } from './version.js';

/** A running validator: Prism's proxy mode, serving the contract under `url` (e.g. `http://127.0.0.1:4010/rest/v1`). */
export interface RunningValidator {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the validator in front of `upstream`: `startPrismProxy` of @paykit/mock-server, which bundles Prism.
 * `errors` is Prism's `--errors` (refuse an invalid request rather than forward it).
 */
export type ValidatorStarter = (options: { upstream: string; errors: boolean }) => Promise<RunningValidator>;

export interface ContractProxyOptions {
  /** The service's base address, e.g. `https://api.example.com/rest/v1` or a sandbox's `url`. */
  upstream: string;
  validator: ValidatorStarter;
  /** Refuse a request that breaks the contract before it leaves (answered 422 with a problem body naming the rules). */
  strict?: boolean;
  /** Check our `x-paykit-*` request rules (payments contract). Default true; false for other contracts. */
  paymentsRules?: boolean;
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
  /** Collect a HAR recording (see `har()`). */
  record?: boolean;
  /**
   * Called with each recorded entry (redacted) as its exchange ends, with `record` set: the CLI keeps its file
   * current with it. A callback that throws loses nothing but its own call.
   */
  onRecord?: (entry: HarEntry) => void;
  /** A clock for the retry-wait rule (tests). */
  now?: () => number;
}

export interface ContractProxy {
  /** The base address to give the merchant's client instead of the service's, e.g. `http://127.0.0.1:5123/rest/v1`. */
  url: string;
  origin: string;
  report(): ProxyReport;
  /** The recording so far (empty unless `record` is set), redacted. */
  har(): Har;
  close(): Promise<void>;
}

interface Pending {
  method: string;
  target: URL;
  headers: IncomingMessage['headers'];
  body: Buffer;
  answer?: Answer;
  networkError?: unknown;
}

const exchangeHeader = 'x-paykit-contract-proxy-exchange';

function problem(response: ServerResponse, status: number, body: Record<string, unknown>): Answer {
  const text = Buffer.from(JSON.stringify({ status, ...body }));
  const headers = { 'content-type': 'application/problem+json', 'content-length': String(text.length) };
  response.writeHead(status, headers);
  response.end(text);
  return { status, statusText: '', headers, body: text };
}

const parseJson = (body: Buffer): unknown => {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
};

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
 * Starts the validating proxy. A request is checked against our rules, then sent through Prism's proxy mode, which
 * validates it and forwards it to a relay of ours; the relay sends the merchant's original bytes to the service and
 * hands the answer back to Prism, which validates it. The merchant gets the service's answer as it came: Prism's own
 * re-serialised copy only carries the violations (`sl-violations`).
 */
export async function startContractProxy(options: ContractProxyOptions): Promise<ContractProxy> {
  const host = options.host ?? '127.0.0.1';
  const upstream = new URL(options.upstream.replace(/\/+$/, ''));
  const basePath = upstream.pathname.replace(/\/+$/, '');
  const strict = options.strict ?? false;
  const rules = new RequestRules(options);
  const report = new ReportCollector();
  const recorder = new HarRecorder(recordedBaseUrl(options.upstream), version);
  const pending = new Map<string, Pending>();
  let nextId = 0;

  const upstreamUrl = (subPath: string, search: string) => new URL(`${upstream.origin}${basePath}${subPath}${search}`);
  const sendUpstream = (item: Pending) => exchange(item.target, item.method, { ...endToEnd(item.headers), host: item.target.host }, item.body, options.upstreamTls);

  // The relay: Prism forwards here what it validated; we send the merchant's original request on.
  const relay = createHttpServer((request, response) => {
    request.resume();
    const id = String(request.headers[exchangeHeader] ?? '');
    const item = pending.get(id);
    if (!item) return void problem(response, 400, { title: 'unknown exchange' });
    sendUpstream(item)
      .then((answer) => {
        item.answer = answer;
        response.writeHead(answer.status, { ...endToEnd(answer.headers), connection: 'close' });
        response.end(answer.body);
      })
      .catch((error: unknown) => {
        item.networkError = error;
        problem(response, 502, { title: 'upstream unreachable' });
      });
  });
  // Set once Prism listens; the front port is taken before that (see below), so a request can come in earlier.
  let validator: RunningValidator | undefined;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const prism = validator;
    if (!prism) {
      request.resume();
      return void problem(response, 503, { title: 'The contract proxy is still starting' });
    }
    const startedAt = new Date();
    const started = performance.now();
    const method = request.method ?? 'GET';
    const body = await readAll(request);
    const incoming = new URL(request.url ?? '/', 'http://proxy');
    const subPath = incoming.pathname.startsWith(basePath) ? incoming.pathname.slice(basePath.length) : incoming.pathname;
    const operation: MatchedOperation | undefined = options.paymentsRules === false ? undefined : matchOperation(method, subPath);
    const operationName = operation?.id ?? `${method} ${subPath}`;
    const received: ReceivedRequest = { method, headers: request.headers, query: incoming.searchParams, json: parseJson(body) };
    const violations = operation ? rules.check(received, operation) : [];
    const item: Pending = { method, target: upstreamUrl(subPath, incoming.search), headers: request.headers, body };

    let delivered: Answer;
    let refused = false;
    if (strict && violations.length > 0) {
      refused = true;
      delivered = refuse(response, operationName, violations);
    } else if (method === 'OPTIONS') {
      // Prism answers CORS preflights itself; the contract describes none, so they pass unvalidated.
      delivered = await forwardDirect(item, response);
    } else {
      const id = String(nextId++);
      pending.set(id, item);
      try {
        const prismAnswer = await exchange(
          new URL(`${prism.url}${subPath}${incoming.search}`),
          method,
          { ...endToEnd(request.headers), [exchangeHeader]: id },
          body,
          undefined,
        );
        const slViolations = prismAnswer.headers['sl-violations'];
        const found = prismViolations(Array.isArray(slViolations) ? slViolations[0] : slViolations, operationName);
        if (item.networkError !== undefined) {
          // The service was not reached: Prism's remarks are about our 502, not about the service.
          violations.push(...found.filter((v) => v.side === 'request'));
          delivered = problem(response, 502, { title: 'The contract proxy could not reach the service', detail: String(item.networkError) });
        } else if (item.answer) {
          violations.push(...found);
          if (operation) violations.push(...answerViolations(operation, item.answer.status, item.answer.body));
          delivered = deliver(response, item.answer);
        } else if (strict && found.some((v) => v.side === 'request')) {
          // Prism's --errors: an invalid request is answered by Prism and never forwarded.
          violations.push(...found);
          refused = true;
          delivered = refuse(response, operationName, violations);
        } else {
          // Prism answered without forwarding for another reason (a GET with a body, say): pass the request on.
          violations.push(...found);
          delivered = await forwardDirect(item, response);
        }
      } finally {
        pending.delete(id);
      }
    }
    if (!refused) rules.answered(received, operation, item.networkError !== undefined ? 'network-error' : delivered.status);
    report.exchange(operationName, refused);
    report.add(violations);
    for (const violation of violations) notify(options.onViolation, violation);
    if (options.record && !refused) {
      const entry = recorder.add({
        startedAt,
        durationMs: Math.round(performance.now() - started),
        method,
        url: item.target.href,
        request: { headers: request.headers, body },
        status: delivered.status,
        statusText: delivered.statusText,
        response: { headers: delivered.headers, body: delivered.body },
        operation: operationName,
        violations,
      });
      notify(options.onRecord, entry);
    }
  }

  function refuse(response: ServerResponse, operation: string, violations: readonly Violation[]): Answer {
    const rulesBroken = [...new Set(violations.map((v) => v.rule))];
    return problem(response, 422, {
      type: 'https://paykit.dev/problems/contract-violation',
      title: `Refused by the contract proxy (--strict): ${rulesBroken.join(', ')}`,
      detail: violations.map((v) => `${v.rule} at ${v.location || '(message)'}: ${v.message}`).join('; '),
      operation,
      violations: violations.map(({ rule, side, location, message }) => ({ rule, side, location, message })),
    });
  }

  async function forwardDirect(item: Pending, response: ServerResponse): Promise<Answer> {
    try {
      return deliver(response, await sendUpstream(item));
    } catch (error) {
      item.networkError = error;
      return problem(response, 502, { title: 'The contract proxy could not reach the service', detail: String(error) });
    }
  }

  function deliver(response: ServerResponse, answer: Answer): Answer {
    response.writeHead(answer.status, answer.statusText, { ...endToEnd(answer.headers), 'content-length': String(answer.body.length) });
    response.end(answer.body);
    return answer;
  }

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) problem(response, 502, { title: 'contract proxy failure', detail: String(error) });
      else response.destroy();
    });
  };
  const front = options.tls ? createHttpsServer(options.tls, onRequest) : createHttpServer(onRequest);
  // The merchant's port first: a port already taken fails at once, before Prism is started (seconds) for nothing.
  let port: number;
  try {
    port = await listen(front, host, options.port ?? 0);
  } catch (error) {
    throw new Error(`The contract proxy cannot listen on ${host}:${options.port ?? 0}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  let running: RunningValidator;
  try {
    const relayPort = await listen(relay, '127.0.0.1', 0);
    running = await options.validator({ upstream: `http://127.0.0.1:${relayPort}`, errors: strict });
  } catch (error) {
    await Promise.allSettled([closeServer(front), closeServer(relay)]);
    throw error;
  }
  validator = running;
  const origin = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: origin + basePath,
    origin,
    report: () => report.snapshot(),
    har: () => recorder.har(),
    close: () => (closing ??= Promise.all([closeServer(front), closeServer(relay), running.close()]).then(() => undefined)),
  };
}
