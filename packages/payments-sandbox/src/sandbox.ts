import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { completeDeregistration, completeRegistration } from './resources/aliases.js';
import { createApiHandler } from './http/api-handler.js';
import { Authenticator, resolveKeys, type SandboxKeyOptions } from './http/auth.js';
import { SandboxClock } from './state/clock.js';
import { InFlightRequests } from './http/concurrency.js';
import { loadPaymentsContract } from './contract/contract.js';
import { controlPrefix, createControlHandler } from './http/control.js';
import { createSandboxControl, type SandboxControl } from './http/control-client.js';
import { defaultSettings, type SandboxBusiness, type SandboxCore, type SandboxSettings } from './core.js';
import { concurrentCreation } from './resources/customers.js';
import { createFacility } from './resources/facility.js';
import { FaultInjector } from './http/faults.js';
import { IdempotencyKeys } from './http/idempotency.js';
import { Links } from './http/links.js';
import { operationClaims, operationHandlers } from './resources/operations.js';
import { StateFile } from './state/persistence.js';
import { notificationProblems, responseProblems } from './contract/response-check.js';
import { SchemaValidator } from './contract/schema-validator.js';
import { emptyState } from './state/state.js';
import { settle } from './resources/transactions.js';
import { WebhookDispatcher } from './http/webhooks.js';

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
  /** Keep the state in this file across restarts (written atomically); in memory only when not given. */
  stateFile?: string;
  /**
   * Check every answer and webhook notification against the contract. `true` collects the problems
   * (`violations()`, and the control interface's `contractViolations`); a function is called with each one.
   */
  checkResponses?: boolean | ((problem: string) => void);
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
  /** The control interface's typed client. */
  control: SandboxControl;
  /** The control interface's address (`<origin>/__sandbox`). */
  controlUrl: string;
  stateFile?: string;
  /** Problems found by `checkResponses: true`. */
  violations(): string[];
  /** Resolves once no webhook delivery attempt is in flight. */
  webhooksIdle(): Promise<void>;
}

/**
 * Starts the payments sandbox: a local, stateful stand-in for the payments API that behaves as the reference says,
 * driven by the bundled contract, with a control interface for tests under `/__sandbox`.
 */
export async function startPaymentsSandbox(options: PaymentsSandboxOptions = {}): Promise<PaymentsSandbox> {
  const host = options.host ?? '127.0.0.1';
  const contract = loadPaymentsContract();
  const validator = new SchemaValidator(contract.document);
  const keys = resolveKeys(options.keys);
  const initialSettings = { ...defaultSettings, ...options.settings };
  const problems: string[] = [];
  const report = (found: string[]) => {
    if (!options.checkResponses) return;
    for (const problem of found) typeof options.checkResponses === 'function' ? options.checkResponses(problem) : problems.push(problem);
  };

  let origin = '';
  let stateFile: StateFile | undefined;
  const core: SandboxCore = {
    contract,
    validator,
    state: emptyState(),
    clock: undefined as unknown as SandboxClock,
    settings: { ...initialSettings, webhookRetryDelaysMs: [...initialSettings.webhookRetryDelaysMs] },
    facility: createFacility(contract, options),
    events: undefined as unknown as WebhookDispatcher,
    links: () => new Links(origin + contract.basePath),
  };
  const changed = () => void stateFile?.commit().catch((error: unknown) => console.error(`payments sandbox: cannot save ${options.stateFile}: ${String(error)}`));
  const clock = new SandboxClock(() => core.state);
  core.clock = clock;
  if (options.stateFile) {
    stateFile = new StateFile(options.stateFile, () => core.state);
    core.state = stateFile.load() ?? core.state;
  }
  const webhooks = new WebhookDispatcher(() => core.state, clock, core.settings, changed, (eventType, body) =>
    report(notificationProblems(validator, contract, eventType, body)),
  );
  core.events = webhooks;
  const runAndSave = (run: (ref: string) => void) => (task: { ref: string }) => {
    run(task.ref);
    changed();
  };
  clock.on('alias.complete-registration', runAndSave((ref) => completeRegistration(core, ref)));
  clock.on('alias.complete-deregistration', runAndSave((ref) => completeDeregistration(core, ref)));
  clock.on('transaction.settle', runAndSave((ref) => settle(core, ref)));

  const idempotency = new IdempotencyKeys(() => core.state, clock);
  const statuses = [...contract.operations.values()].map((o) => new Set([...o.responses.keys()].map(Number).filter((s) => s >= 429)));
  const faults = new FaultInjector(new Set([...(statuses[0] ?? [])].filter((s) => statuses.every((set) => set.has(s)))));
  const commit = () => stateFile?.commit() ?? Promise.resolve();
  const api = createApiHandler({
    core,
    auth: new Authenticator(keys, clock.now()),
    idempotency,
    inFlight: new InFlightRequests(),
    faults,
    handlers: operationHandlers,
    claims: operationClaims,
    conflict: concurrentCreation,
    commit,
    // Checking every answer costs a schema validation per request: only when asked for.
    ...(options.checkResponses ? { inspect: (operation, response) => report(responseProblems(validator, contract, operation, response)) } : {}),
  });
  const control = createControlHandler({
    core,
    faults,
    webhooks,
    commit,
    violations: () => [...problems],
    reset: () => {
      core.state = emptyState();
      Object.assign(core.settings, initialSettings, { webhookRetryDelaysMs: [...initialSettings.webhookRetryDelaysMs] });
      idempotency.reset();
      faults.clear();
      problems.length = 0;
      clock.runDue();
    },
  });

  const server = createServer((req, res) => {
    const handle = (req.url ?? '').startsWith(`${controlPrefix}/`) ? control(req, res) : api(req, res, origin);
    handle.catch(() => res.destroy());
  });
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  clock.runDue(); // what fell due while a saved sandbox was down

  return {
    url: origin + contract.basePath,
    origin,
    controlUrl: origin + controlPrefix,
    keys: { secret: keys.secret.map((k) => k.key), publishable: [...keys.publishable] },
    generatedKeys: keys.generated,
    control: createSandboxControl(origin),
    ...(options.stateFile ? { stateFile: options.stateFile } : {}),
    violations: () => [...problems],
    webhooksIdle: () => webhooks.idle(),
    close: async () => {
      clock.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await webhooks.idle();
      await stateFile?.flush();
    },
  };
}
