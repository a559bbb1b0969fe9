import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../rules/api-error.js';
import { receiveAliasPayment } from '../resources/aliases.js';
import type { SandboxCore } from '../core.js';
import { FaultError, type FaultInjector, type FaultRule, type RandomFaults } from './faults.js';
import { matchPath, readContract, type OpenApiDocument } from '../contract/contract.js';
import { readBody } from '../contract/request-checks.js';
import { SchemaValidator } from '../contract/schema-validator.js';
import { completeChallenge, tokenModel } from '../resources/tokens.js';
import { transactionModel } from '../resources/transactions.js';
import { SubscriptionError, type SubscriptionInput, type WebhookDispatcher } from './webhooks.js';
import type { WebhookDelivery, WebhookSubscription } from '../state/state.js';
import type { SettingsView } from '../state/settings.js';
import type { StateStore } from '../state/store.js';
import { controlDocument } from '../generated/control/document.js';
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
  /** Reads catch up on it; a change runs as a write of it, answered once durable. */
  store: Pick<StateStore, 'catchUp' | 'write'>;
}

type Json = Record<string, any>;
type Handler = (target: ControlTarget, body: Json, params: Record<string, string>) => { status: number; json?: unknown };

const contract = readContract(controlDocument as OpenApiDocument);
const validator = new SchemaValidator(contract.document, paymentsSandboxControlSensitive);

const clock = (target: ControlTarget) => ({ now: new Date(target.core.clock.now()).toISOString(), offsetMs: target.core.state.clockOffsetMs });

/** A subscription as the control interface shows it: without its secret or password. */
const publicSubscription = ({ secret: _secret, basicAuth, ...rest }: WebhookSubscription) => ({
  ...rest,
  ...(basicAuth ? { basicAuth: { username: basicAuth.username } } : {}),
});

const publicDelivery = (delivery: WebhookDelivery) => ({ ...delivery, body: JSON.parse(delivery.body) as unknown });

const handlers: Record<ControlOperationId, Handler> = {
  resetSandbox: (target) => (target.reset(), { status: 204 }),
  getClock: (target) => ({ status: 200, json: clock(target) }),
  advanceClock: (target, body) => (target.core.clock.advance(body.ms), { status: 200, json: clock(target) }),
  getSettings: (target) => ({ status: 200, json: target.core.settings }),
  changeSettings: (target, body) => ({ status: 200, json: target.settings.change(body) }),
  getFaults: (target) => ({ status: 200, json: { pending: target.faults.pending(), applied: target.faults.applied() } }),
  injectFault: (target, body) => {
    target.faults.inject({ count: 1, ...body } as FaultRule);
    return { status: 201, json: { pending: target.faults.pending() } };
  },
  clearFaults: (target) => (target.faults.clear(), { status: 204 }),
  setRandomFaults: (target, body) => (target.faults.setRandom(body as RandomFaults), { status: 204 }),
  clearRandomFaults: (target) => (target.faults.setRandom(undefined), { status: 204 }),
  payAlias: (target, body, { aliasId }) => ({ status: 200, json: receiveAliasPayment(target.core, aliasId!, body.amount) }),
  completeChallenge: (target, body, { singleUseTokenId }) => ({
    status: 200,
    json: tokenModel(completeChallenge(target.core, singleUseTokenId!, body.transStatus)),
  }),
  listWebhookSubscriptions: (target) => ({ status: 200, json: [...target.core.state.subscriptions.values()].map(publicSubscription) }),
  createWebhookSubscription: (target, body) => ({ status: 201, json: publicSubscription(target.webhooks.subscribe(body as SubscriptionInput)) }),
  deleteWebhookSubscription: (target, _body, { subscriptionId }) => {
    if (!target.webhooks.unsubscribe(subscriptionId!)) throw new ControlRefusal(404, `no subscription ${subscriptionId}`);
    return { status: 204 };
  },
  listWebhookDeliveries: (target) => ({ status: 200, json: [...target.core.state.deliveries.values()].map(publicDelivery) }),
  listTransactions: (target) => ({
    status: 200,
    json: [...target.core.state.transactions.values()].map((t) => transactionModel(target.core, t, target.core.links())),
  }),
  listContractViolations: (target) => ({ status: 200, json: target.violations() }),
};

function answer(res: ServerResponse, status: number, json?: unknown): void {
  const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
  res.writeHead(status, { ...(body ? { 'Content-Type': 'application/json' } : {}), 'Content-Length': String(body?.length ?? 0) }).end(body);
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
      target.guard.check(req.headers);
      const match = matchPath(contract, path);
      if (!match) throw new ControlRefusal(404, `no control endpoint ${controlPrefix}${path}`);
      const operation = match.path.operations.get(req.method ?? 'GET');
      if (!operation) throw new ControlRefusal(405, `${req.method} is not supported by ${controlPrefix}${match.path.template}`);
      const bodyPointer = operation.requestBody?.media.get('application/json');
      const body = parse(await readBody(req, signal), bodyPointer);
      const handler = handlers[operation.operationId as ControlOperationId];
      // What the other processes on a shared store did (a reset, faults, settings) is seen; a change is a write (which
      // catches up under the store's lock).
      const run = () => handler(target, body, match.params);
      const { status, json } = req.method === 'GET' ? (await target.store.catchUp(), run()) : await target.store.write(run, { signal });
      answer(res, status, json);
    } catch (error) {
      if (signal.aborted) return;
      if (!req.readableEnded) req.resume();
      const status =
        error instanceof ControlRefusal || error instanceof ApiError
          ? error.status
          : error instanceof FaultError || error instanceof SubscriptionError
            ? 400
            : 500;
      answer(res, status, { error: error instanceof Error ? error.message : String(error) });
    }
  };
}
