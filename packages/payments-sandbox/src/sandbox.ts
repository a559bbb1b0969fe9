import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completeDeregistration, completeRegistration } from './resources/aliases.js';
import { createApiHandler, unrecognisedMethodAnswer } from './http/api-handler.js';
import { Authenticator, resolveKeys, type SandboxKeyOptions } from './http/auth.js';
import { SandboxClock } from './state/clock.js';
import { InFlightRequests } from './http/concurrency.js';
import { loadPaymentsContract } from './contract/contract.js';
import { controlPrefix, createControlHandler } from './http/control.js';
import { createSandboxControl, type SandboxControl } from './http/control-client.js';
import { advertisedHost, checkControlToken, ControlGuard, generateControlToken, isLoopback, ownOrigins } from './http/control-guard.js';
import { defaultSettings, type SandboxBusiness, type SandboxCore, type SandboxSettings } from './handler-context.js';
import { concurrentCreation } from './resources/customers.js';
import { createFacility } from './resources/facility.js';
import { FaultInjector } from './http/faults.js';
import { IdempotencyKeys } from './http/idempotency.js';
import { Links } from './rules/links.js';
import { RequestPhases } from './http/request-phases.js';
import { operationClaims, operationHandlers } from './resources/operations.js';
import { openStateStore } from './state/open.js';
import type { StateStore } from './state/store.js';
import { SettingsView } from './state/settings.js';
import { notificationProblems, responseProblems } from './contract/response-check.js';
import { ContractChecker } from './contract/contract-checker.js';
import { settle } from './resources/transactions.js';
import { WebhookDispatcher } from './http/webhooks.js';
import { ActivityFeed } from './state/activity.js';
import { RecentRequests } from './state/recent-requests.js';
import { EventStreams } from './http/events.js';
import { createUiHandler, uiPrefix, UiSessions } from './http/ui-session.js';
import { DashboardFiles } from './http/dashboard-files.js';

export interface PaymentsSandboxOptions {
  host?: string;
  /** 0 (the default) picks a free port; the CLI uses the contract's sandbox port. */
  port?: number;
  /** API keys; one of each type is generated when none is given (see `keys` on the result). */
  keys?: SandboxKeyOptions;
  /** The facility's businesses (default one, `TEST_BUSINESS`, as in the contract's examples). */
  businesses?: SandboxBusiness[];
  /** Domains aliases may use (default `pay.example.com`, as in the contract's examples); `*.example.com` allows subdomains. */
  aliasDomains?: string[];
  /** The payment methods `GET /methods` lists (default: the contract's example list). */
  methods?: Record<string, unknown>[];
  settings?: Partial<SandboxSettings>;
  /**
   * Keep the state in this database file across restarts (SQLite; every answer is sent once its change is on disk).
   * A state file of an earlier version (JSON) is migrated on first open and kept as `FILE.v1.json`. Or a PostgreSQL
   * address (`postgres://user:password@host:5432/db`): the state in that database, shared by every sandbox process
   * given the same address (see `state/postgres-store.ts`). In memory only when not given.
   */
  stateFile?: string;
  /**
   * Check every answer and webhook notification against the contract. `true` collects the problems
   * (`violations()`, and the control interface's `contractViolations`); a function is called with each one.
   */
  checkResponses?: boolean | ((problem: string) => void);
  /** The token the control interface takes (at least 16 printable characters); one is generated when none is given. */
  controlToken?: string;
  /**
   * Origins clients reach the sandbox at besides its own address, such as a load balancer's
   * (`https://sandbox.example.internal`): a request whose `Host` names one gets links under it. Links of a request
   * with any other `Host` are under the sandbox's own address.
   */
  publicOrigins?: string[];
  /** Where the sandbox's warnings go (listening beyond loopback); default `console.warn`. */
  onWarning?: (message: string) => void;
  /** The dashboard's built files (`index.html`, `assets/`); default the package's own `dist/dashboard/`. */
  dashboardDir?: string;
}

export interface PaymentsSandbox {
  /** Base address of the API, e.g. `http://127.0.0.1:4012/rest/v1`. */
  url: string;
  origin: string;
  close(): Promise<void>;
  /** The keys the sandbox takes (generated ones included). */
  keys: { secret: string[]; publishable: string[] };
  /** Whether `keys` were generated at start rather than given. */
  generatedKeys: { secret: boolean; publishable: boolean };
  /** The control interface's typed client, with the control token. */
  control: SandboxControl;
  /** The token the control interface takes (`Authorization: Bearer <token>`). */
  controlToken: string;
  /** Whether `controlToken` was generated at start rather than given. */
  generatedControlToken: boolean;
  /** The control interface's address (`<origin>/__sandbox`). */
  controlUrl: string;
  /**
   * The dashboard's sign-in link: `<origin>/__sandbox/ui/#token=<control token>`. The token is in the fragment, which
   * a browser does not send; keep the link to yourself as you would the token.
   */
  dashboardUrl: string;
  stateFile?: string;
  /** Problems found by `checkResponses: true`. */
  violations(): string[];
  /** Resolves once no webhook delivery attempt is in flight. */
  webhooksIdle(): Promise<void>;
}

function checkPublicOrigins(given: string[] | undefined): string[] {
  return (given ?? []).map((text) => {
    const parsed = URL.canParse(text) ? new URL(text) : undefined;
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== text.replace(/\/$/, '')) {
      throw new TypeError(`publicOrigins takes origins such as https://sandbox.example.internal (scheme, host, port only); got ${JSON.stringify(text)}`);
    }
    return parsed.origin;
  });
}

/**
 * The parts of a running sandbox that tests and benchmarks look into, not exported: its store (the state in memory,
 * what it wrote), the phases of its requests (to hold a request at one and release it), the requests in flight.
 */
export interface SandboxInternals {
  store: StateStore;
  phases: RequestPhases;
  inFlight: InFlightRequests;
  activity: ActivityFeed;
  streams: EventStreams;
  sessions: UiSessions;
}
const internals = new WeakMap<PaymentsSandbox, SandboxInternals>();
export const internalsOf = (sandbox: PaymentsSandbox): SandboxInternals => internals.get(sandbox)!;
export const storeOf = (sandbox: PaymentsSandbox): StateStore | undefined => internals.get(sandbox)?.store;

/**
 * Starts the payments sandbox: a local, stateful stand-in for the payments API that behaves as the reference says,
 * driven by the bundled contract, with a control interface for tests under `/__sandbox`.
 */
export async function startPaymentsSandbox(options: PaymentsSandboxOptions = {}): Promise<PaymentsSandbox> {
  const host = options.host ?? '127.0.0.1';
  const contract = loadPaymentsContract();
  const validator = new ContractChecker();
  const keys = resolveKeys(options.keys);
  const controlToken = options.controlToken === undefined ? generateControlToken() : checkControlToken(options.controlToken);
  const guard = new ControlGuard(controlToken);
  const publicOrigins = checkPublicOrigins(options.publicOrigins);
  const initialSettings = structuredClone({ ...defaultSettings, ...options.settings });
  const problems: string[] = [];
  const activity = new ActivityFeed();
  /** Hands the problems found on, and tells the live stream (a request's problems: once recorded, with its id). */
  const report = (found: string[], fromRequest = false) => {
    if (!options.checkResponses) return found;
    for (const problem of found) {
      typeof options.checkResponses === 'function' ? options.checkResponses(problem) : problems.push(problem);
      if (!fromRequest) activity.emit('violation');
    }
    return found;
  };

  let origin = '';
  let origins: ReadonlySet<string> = new Set();
  /** A request's `Host` is taken for its links only when it names this sandbox (a `Host` is the client's to choose). */
  const originsByHost = new Map<string, string>();
  const originOf = (hostHeader: string | undefined) => {
    if (!hostHeader) return origin;
    let named = originsByHost.get(hostHeader);
    if (named === undefined) {
      named = origin;
      for (const scheme of ['http', 'https']) {
        const parsed = URL.canParse(`${scheme}://${hostHeader}`) ? new URL(`${scheme}://${hostHeader}`).origin : undefined;
        if (parsed && origins.has(parsed)) {
          named = parsed;
          break;
        }
      }
      // Hosts are the client's to choose: only a bounded number is remembered.
      if (originsByHost.size > 100) originsByHost.clear();
      originsByHost.set(hostHeader, named);
    }
    return named;
  };
  const store = await openStateStore(options.stateFile);
  // The start options, with what the control interface changed over them (shared state, forgotten by a reset).
  const settings = new SettingsView(() => store.state, initialSettings);
  const core: SandboxCore = {
    contract,
    validator,
    state: store.state,
    clock: undefined as unknown as SandboxClock,
    get settings() {
      return settings.current();
    },
    facility: createFacility(options),
    events: undefined as unknown as WebhookDispatcher,
    activity,
    links: () => new Links(origin + contract.basePath),
  };
  const changed = () => store.commit().catch((error: unknown) => console.error(`payments sandbox: cannot save ${store.location}: ${String(error)}`));
  // Due work as a write of its own: on a shared store, under its lock and after catching up on the other processes.
  const runDueTasks = (runDue: () => void) =>
    store.write(runDue).catch((error: unknown) => console.error(`payments sandbox: scheduled work not done: ${String(error)}`));
  const clock = new SandboxClock(() => core.state, store, changed, (runDue) => void runDueTasks(runDue));
  core.clock = clock;
  const webhooks = new WebhookDispatcher(
    () => core.state,
    clock,
    () => core.settings,
    changed,
    (eventType, body) => void report(notificationProblems(validator, contract, eventType, body)),
    (deliveryId) => activity.emit('delivery', deliveryId),
  );
  core.events = webhooks;
  clock.on('alias.complete-registration', (task) => completeRegistration(core, task.ref));
  clock.on('alias.complete-deregistration', (task) => completeDeregistration(core, task.ref));
  clock.on('transaction.settle', (task) => settle(core, task.ref));

  const idempotency = new IdempotencyKeys(() => core.state, clock);
  const statuses = [...contract.operations.values()].map((o) => new Set([...o.responses.keys()].map(Number).filter((s) => s >= 429)));
  const faults = new FaultInjector(new Set([...(statuses[0] ?? [])].filter((s) => statuses.every((set) => set.has(s)))), () => store.state);
  const phases = new RequestPhases();
  const requests = new RecentRequests();
  const streams = new EventStreams(activity);
  const sessions = new UiSessions();
  guard.acceptSessions(sessions);
  const ui = createUiHandler({ guard, sessions, files: new DashboardFiles(options.dashboardDir) });
  const inFlight = new InFlightRequests();
  const api = createApiHandler({
    core,
    auth: new Authenticator(keys, clock.now()),
    idempotency,
    inFlight,
    faults,
    phases,
    // Writes run through the store, which counts the records their handlers look up as changed (handlers change
    // records in place); reads are not tracked (a search that looks up every transaction must not make the next
    // write carry them all).
    handlers: operationHandlers,
    claims: operationClaims,
    conflict: concurrentCreation,
    store,
    originOf,
    // Checking every answer costs a schema validation per request: only when asked for.
    ...(options.checkResponses ? { inspect: (operation, response) => report(responseProblems(validator, contract, operation, response), true) } : {}),
    record: (seen) => {
      const entry = requests.record(seen);
      activity.emit('request', entry.id);
      if (seen.fault) activity.emit('faults');
      // After the request's own event, linked to it: the dashboard reads the request and its violations.
      if (seen.violations.length > 0) activity.emit('violation', entry.id);
    },
  });
  const control = createControlHandler({
    core,
    settings,
    faults,
    webhooks,
    guard,
    store,
    violations: () => [...problems],
    activity,
    requests,
    streams,
    // The records, the settings changed and the faults waiting go with the state (for every process on a shared
    // store); what this process alone keeps goes here.
    reset: () => {
      store.reset();
      idempotency.reset();
      problems.length = 0;
      requests.clear();
      clock.runDue();
    },
  });

  const server = createServer((req, res) => {
    // The client has gone when the connection closes before the answer is complete: whatever the request waits for
    // then, it stops (listened to at once, so that no close is missed while the request waits for its turn).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort(new Error('the client closed the connection before the answer'));
    });
    const url = req.url ?? '';
    const serving = !url.startsWith(`${controlPrefix}/`)
      ? api(req, res, gone.signal)
      : url === uiPrefix || url.startsWith(`${uiPrefix}/`) || url.startsWith(`${uiPrefix}?`)
        ? ui(req, res)
        : control(req, res, gone.signal);
    serving.catch(() => res.destroy());
  });
  // A method Node's parser does not take (`FOO /x`) never becomes a request: answered 501 here, as the API answers
  // one it parses but does not recognise. Other malformed requests get what Node gives them (400, or nothing).
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const [method = '', target = '/'] = error.code === 'HPE_INVALID_METHOD' ? (error.rawPacket?.toString('latin1').split('\r\n')[0] ?? '').split(' ') : [];
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(method)) socket.end(unrecognisedMethodAnswer(method, origin + (target.startsWith('/') ? target : '/')));
    else socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const named = advertisedHost(host);
  origin = `http://${named.includes(':') ? `[${named}]` : named}:${port}`;
  origins = ownOrigins(host, port, publicOrigins);
  guard.listening(origins);
  if (!isLoopback(host)) {
    (options.onWarning ?? console.warn)(
      `payments sandbox: listening on ${host} port ${port}, so other machines can reach it. Keep its control token to ` +
        'yourself, and listen on 127.0.0.1 unless other machines must reach the sandbox.',
    );
  }
  void runDueTasks(() => clock.runDue()); // what fell due while a saved sandbox was down

  let controlClient: SandboxControl | undefined;
  const sandbox: PaymentsSandbox = {
    url: origin + contract.basePath,
    origin,
    controlUrl: origin + controlPrefix,
    dashboardUrl: `${origin}${uiPrefix}/#token=${encodeURIComponent(controlToken)}`,
    keys: { secret: keys.secret.map((k) => k.key), publishable: [...keys.publishable] },
    generatedKeys: keys.generated,
    // Made at first use: a fetch client loads Node's HTTP client (undici), a tenth of a second no one waits for unless
    // they drive the sandbox from this process.
    get control() {
      controlClient ??= createSandboxControl(origin, { token: controlToken });
      return controlClient;
    },
    controlToken,
    generatedControlToken: options.controlToken === undefined,
    ...(store.location ? { stateFile: store.location } : {}),
    violations: () => [...problems],
    webhooksIdle: () => webhooks.idle(),
    close: async () => {
      clock.stop();
      streams.closeAll();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await webhooks.idle();
      await store.close();
    },
  };
  internals.set(sandbox, { store, phases, inFlight, activity, streams, sessions });
  return sandbox;
}
