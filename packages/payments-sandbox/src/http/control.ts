import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../rules/api-error.js';
import { receiveAliasPayment } from '../resources/aliases.js';
import type { SandboxCore } from '../handler-context.js';
import { FaultError, type FaultInjector, type FaultRule, type RandomFaults } from './faults.js';
import { matchPath, readContract, type OperationSpec } from '../contract/contract.js';
import { checkParameters, readBody } from '../contract/request-checks.js';
import { paymentsSandboxControlContract } from '@paykit/contract-validation';
import { ContractChecker } from '../contract/contract-checker.js';
import { completeChallenge, tokenModel } from '../resources/tokens.js';
import { DeliveryError, SubscriptionError, type SubscriptionInput, type WebhookDispatcher } from './webhooks.js';
import type { WebhookSubscription } from '../state/state.js';
import type { ActivityFeed } from '../state/activity.js';
import type { EventStreams } from './events.js';
import { requestNumber, type RecentRequests } from '../state/recent-requests.js';
import {
  deliveryView,
  listAliases,
  listCustomers,
  listDeliveries,
  listRecurringPayments,
  listTransactions,
  pageAfter,
  transactionTimeline,
  type TransactionCriteria,
} from '../resources/inspection.js';
import type { SettingsView } from '../state/settings.js';
import type { StateStore } from '../state/store.js';
import { controlOperationTable } from '../generated/control/operations.js';
import { paymentsSandboxControlSensitive } from '../generated/sensitive.js';
import type { ControlOperationId } from '../generated/control/client.js';
import { ControlRefusal, controlPrefix, type ControlGuard } from './control-guard.js';

/**
 * The sandbox's control interface, under its own prefix beside the API: what a test needs that the service's API
 * does not offer. Reset, the clock, injected faults, the payer's side (paying an alias, answering a 3D Secure
 * challenge), webhook subscriptions (the reference does not publish the endpoints that manage them) and deliveries,
 * and a look at every transaction. Its contract is specs/payments-sandbox-control: requests are routed and their
 * bodies checked by it, and there is one handler per operation of it (the table's type says so).
 */
export { controlPrefix };

export interface ControlTarget {
  core: SandboxCore;
  settings: SettingsView;
  faults: FaultInjector;
  webhooks: WebhookDispatcher;
  guard: ControlGuard;
  reset(): void;
  violations(): string[];
  /** What happens (the event stream's source), the recent API requests, and the open event streams. */
  activity: Pick<ActivityFeed, 'emit'>;
  requests: RecentRequests;
  streams: EventStreams;
  /** Reads catch up on it; a change runs as a write of it, answered once durable. */
  store: Pick<StateStore, 'catchUp' | 'write'>;
}

type Json = Record<string, any>;
type Handler = (target: ControlTarget, body: Json, params: Record<string, string>, query: URLSearchParams) => { status: number; json?: unknown };

// The control table's paths are matched after the prefix is taken off (below), so under an empty base path.
const contract = readContract(controlOperationTable, '');
const validator = new ContractChecker(paymentsSandboxControlSensitive, paymentsSandboxControlContract);

const clock = (target: ControlTarget) => ({ now: new Date(target.core.clock.now()).toISOString(), offsetMs: target.core.state.clockOffsetMs });

/** A subscription as the control interface shows it: without its secret or password. */
const publicSubscription = ({ secret: _secret, basicAuth, ...rest }: WebhookSubscription) => ({
  ...rest,
  ...(basicAuth ? { basicAuth: { username: basicAuth.username } } : {}),
});

/** A page's cursor and size, read from the query (checked against the contract before). */
const paging = (query: URLSearchParams) => ({ cursor: query.get('cursor') ?? undefined, limit: Number(query.get('limit') ?? 50) });
const text = (query: URLSearchParams, name: string) => query.get(name) ?? undefined;
const number = (query: URLSearchParams, name: string) => (query.has(name) ? Number(query.get(name)) : undefined);

function transactionCriteria(query: URLSearchParams): TransactionCriteria {
  const criteria: TransactionCriteria = {};
  for (const name of ['q', 'transactionType', 'customerId', 'receiptNumber', 'createdFrom', 'createdTo'] as const) {
    const value = text(query, name);
    if (value !== undefined) criteria[name] = value;
  }
  for (const name of ['amountMin', 'amountMax'] as const) {
    const value = number(query, name);
    if (value !== undefined) criteria[name] = value;
  }
  if (query.has('status')) criteria.status = query.getAll('status');
  return criteria;
}

/** The changes the event stream reports, made by the control interface itself. */
const announcing =
  (kind: Parameters<ActivityFeed['emit']>[0], handler: Handler): Handler =>
  (target, ...rest) => {
    const done = handler(target, ...rest);
    target.activity.emit(kind);
    return done;
  };

type StreamedOperation = 'listEvents';

const handlers: Record<Exclude<ControlOperationId, StreamedOperation>, Handler> = {
  resetSandbox: announcing('reset', (target) => (target.reset(), { status: 204 })),
  getClock: (target) => ({ status: 200, json: clock(target) }),
  advanceClock: announcing('clock', (target, body) => (target.core.clock.advance(body.ms), { status: 200, json: clock(target) })),
  getSettings: (target) => ({ status: 200, json: target.core.settings }),
  changeSettings: announcing('settings', (target, body) => ({ status: 200, json: target.settings.change(body) })),
  getFaults: (target) => ({ status: 200, json: { pending: target.faults.pending(), applied: target.faults.applied() } }),
  injectFault: announcing('faults', (target, body) => {
    target.faults.inject({ count: 1, ...body } as FaultRule);
    return { status: 201, json: { pending: target.faults.pending() } };
  }),
  clearFaults: announcing('faults', (target) => (target.faults.clear(), { status: 204 })),
  setRandomFaults: announcing('faults', (target, body) => (target.faults.setRandom(body as RandomFaults), { status: 204 })),
  clearRandomFaults: announcing('faults', (target) => (target.faults.setRandom(undefined), { status: 204 })),
  payAlias: (target, body, { aliasId }) => ({ status: 200, json: receiveAliasPayment(target.core, aliasId!, body.amount) }),
  completeChallenge: (target, body, { singleUseTokenId }) => ({
    status: 200,
    json: tokenModel(completeChallenge(target.core, singleUseTokenId!, body.transStatus)),
  }),
  listWebhookSubscriptions: (target) => ({ status: 200, json: [...target.core.state.subscriptions.values()].map(publicSubscription) }),
  createWebhookSubscription: announcing('subscription', (target, body) => ({
    status: 201,
    json: publicSubscription(target.webhooks.subscribe(body as SubscriptionInput)),
  })),
  deleteWebhookSubscription: announcing('subscription', (target, _body, { subscriptionId }) => {
    if (!target.webhooks.unsubscribe(subscriptionId!)) throw new ControlRefusal(404, `no subscription ${subscriptionId}`);
    return { status: 204 };
  }),
  listWebhookDeliveries: (target, _body, _params, query) => {
    const { cursor, limit } = paging(query);
    return { status: 200, json: listDeliveries(target.core, { outcome: text(query, 'outcome'), eventType: text(query, 'eventType') }, cursor, limit) };
  },
  createWebhookDeliveryAttempt: (target, _body, { deliveryId }) => {
    const delivery = target.webhooks.redeliver(deliveryId!);
    return { status: 202, json: deliveryView(delivery, target.core.state.subscriptions.get(delivery.subscriptionId)) };
  },
  listTransactions: (target, _body, _params, query) => {
    const { cursor, limit } = paging(query);
    return { status: 200, json: listTransactions(target.core, transactionCriteria(query), cursor, limit) };
  },
  getTransactionTimeline: (target, _body, { receiptNumber }) => {
    const t = target.core.state.transactions.get(receiptNumber!);
    if (!t) throw new ControlRefusal(404, `no transaction ${receiptNumber}`);
    return { status: 200, json: transactionTimeline(target.core, t, target.requests) };
  },
  listCustomers: (target, _body, _params, query) => {
    const { cursor, limit } = paging(query);
    return { status: 200, json: listCustomers(target.core, text(query, 'customerId'), cursor, limit) };
  },
  listAliases: (target, _body, _params, query) => {
    const { cursor, limit } = paging(query);
    return { status: 200, json: listAliases(target.core, text(query, 'customerId'), cursor, limit) };
  },
  listRecurringPayments: (target, _body, _params, query) => {
    const { cursor, limit } = paging(query);
    return { status: 200, json: listRecurringPayments(target.core, text(query, 'customerId'), cursor, limit) };
  },
  listRequests: (target, _body, _params, query) => {
    const { cursor, limit } = paging(query);
    const operationId = text(query, 'operationId');
    const failed = query.has('failed') ? query.get('failed') === 'true' : undefined;
    const before = cursor === undefined ? Infinity : requestNumber(cursor);
    if (Number.isNaN(before)) throw new ControlRefusal(400, `cursor ${JSON.stringify(cursor)} is not one of this list's`);
    const kept = function* () {
      for (const entry of target.requests.newestFirst(before)) {
        if (operationId !== undefined && entry.operationId !== operationId) continue;
        if (failed !== undefined && entry.status >= 400 !== failed) continue;
        yield entry;
      }
    };
    return { status: 200, json: pageAfter(kept(), (entry) => entry.id, undefined, limit) };
  },
  listContractViolations: (target) => ({ status: 200, json: target.violations() }),
};

function answer(res: ServerResponse, status: number, json?: unknown): void {
  const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
  res.writeHead(status, { ...(body ? { 'Content-Type': 'application/json' } : {}), 'Content-Length': String(body?.length ?? 0) }).end(body);
}

/**
 * The query against the operation's parameters (400 with what is wrong): a repeated parameter is an array's items,
 * each other one read once; a parameter the operation does not take is refused, so that a misspelt filter is not
 * silently ignored.
 */
function checkQuery(operation: OperationSpec, query: URLSearchParams): void {
  const taken = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const name of query.keys()) if (!taken.has(name)) throw new ControlRefusal(400, `${controlPrefix}${operation.template} takes no query parameter ${name}`);
  const arrays = operation.parameters.filter((p) => p.in === 'query' && p.type === 'array');
  for (const parameter of arrays) {
    if (parameter.schema === undefined) continue; // a parameter without a schema takes any text
    const problems = validator.check(parameter.schema, query.getAll(parameter.name));
    if (query.has(parameter.name) && problems.length) throw new ControlRefusal(400, `${parameter.name} ${problems.flatMap((p) => p.messages).join(', ')}`);
  }
  checkParameters(validator, operation, { path: {}, query, headers: {} }, (p) => p.in === 'query' && p.type !== 'array');
  for (const name of ['createdFrom', 'createdTo']) {
    if (query.has(name) && Number.isNaN(Date.parse(query.get(name)!))) throw new ControlRefusal(400, `${name} must be a date-time (2026-11-28T12:00:00Z)`);
  }
}

/** The body as the operation takes it, or the 400 that says what is wrong with it. */
function parse(text: string, bodyPointer: string | undefined): Json {
  if (bodyPointer === undefined) {
    if (text) throw new ControlRefusal(400, 'this control operation takes no body');
    return {};
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ControlRefusal(400, 'the body must be JSON');
  }
  const problems = validator.check(bodyPointer, body);
  if (problems.length) {
    throw new ControlRefusal(400, problems.map((p) => `${p.fieldName || 'the body'} ${p.messages.join(', ')}`).join('; '));
  }
  return body as Json;
}

export function createControlHandler(target: ControlTarget) {
  return async function handleControlRequest(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname.slice(controlPrefix.length);
    try {
      target.guard.check(req.headers, req.method);
      const match = matchPath(contract, path);
      if (!match) throw new ControlRefusal(404, `no control endpoint ${controlPrefix}${path}`);
      const operation = match.path.operations.get(req.method ?? 'GET');
      if (!operation) throw new ControlRefusal(405, `${req.method} is not supported by ${controlPrefix}${match.path.template}`);
      if (operation.operationId === ('listEvents' satisfies StreamedOperation)) {
        if (!req.readableEnded) req.resume();
        return target.streams.serve(req, res);
      }
      const query = new URL(req.url ?? '/', 'http://sandbox').searchParams;
      checkQuery(operation, query);
      const bodyPointer = operation.requestBody?.media.get('application/json');
      const body = parse(await readBody(req, signal), bodyPointer);
      const handler = handlers[operation.operationId as Exclude<ControlOperationId, StreamedOperation>];
      // What the other processes on a shared store did (a reset, faults, settings) is seen; a change is a write (which
      // catches up under the store's lock).
      const run = () => handler(target, body, match.params, query);
      const { status, json } = req.method === 'GET' ? (await target.store.catchUp(), run()) : await target.store.write(run, { signal });
      answer(res, status, json);
    } catch (error) {
      if (signal.aborted) return;
      if (!req.readableEnded) req.resume();
      const status =
        error instanceof ControlRefusal || error instanceof ApiError || error instanceof DeliveryError
          ? error.status
          : error instanceof FaultError || error instanceof SubscriptionError
            ? 400
            : 500;
      answer(res, status, { error: error instanceof Error ? error.message : String(error) });
    }
  };
}
