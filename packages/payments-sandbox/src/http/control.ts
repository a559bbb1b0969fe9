import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';
import { receiveAliasPayment } from '../resources/aliases.js';
import type { SandboxCore, SandboxSettings } from '../core.js';
import { FaultError, type FaultInjector, type FaultRule, type RandomFaults } from './faults.js';
import { readBody } from '../contract/request-checks.js';
import { completeChallenge, tokenModel } from '../resources/tokens.js';
import { transactionModel } from '../resources/transactions.js';
import { SubscriptionError, type SubscriptionInput, type WebhookDispatcher } from './webhooks.js';
import type { WebhookDelivery, WebhookSubscription } from '../state/state.js';

/**
 * The sandbox's control interface, under its own prefix beside the API: what a test needs that the service's API
 * does not offer. Reset, the clock, injected faults, the payer's side (paying an alias, answering a 3D Secure
 * challenge), webhook subscriptions (the reference does not publish the endpoints that manage them) and deliveries,
 * and a look at every transaction. JSON in and out; `control-client.ts` is its typed client. No key is needed: it is
 * a local test tool.
 */
export const controlPrefix = '/__sandbox';

export interface ControlTarget {
  core: SandboxCore;
  faults: FaultInjector;
  webhooks: WebhookDispatcher;
  reset(): void;
  violations(): string[];
  commit(): Promise<void>;
  /** Runs a change, counting the records it looks up as changed (see `state/tracking.ts`). */
  track<T>(work: () => T): T;
}

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Json = Record<string, unknown>;
type Route = [method: string, pattern: RegExp, handler: (target: ControlTarget, body: Json, params: string[]) => { status: number; json?: unknown }];

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function number(body: Json, field: string): number {
  const value = body[field];
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ControlError(400, `${field} must be a number`);
  return value;
}

const clock = (target: ControlTarget) => ({ now: new Date(target.core.clock.now()).toISOString(), offsetMs: target.core.state.clockOffsetMs });

/** A subscription as the control interface shows it: without its secret or password. */
const publicSubscription = ({ secret: _secret, basicAuth, ...rest }: WebhookSubscription) => ({
  ...rest,
  ...(basicAuth ? { basicAuth: { username: basicAuth.username } } : {}),
});

const publicDelivery = (delivery: WebhookDelivery) => ({ ...delivery, body: JSON.parse(delivery.body) as unknown });

const settingNames = ['aliasRegistrationDelayMs', 'aliasDeregistrationDelayMs', 'pendingSettlesAfterMs', 'processingDelayMs', 'webhookRetryDelaysMs', 'webhookTimeoutMs'] as const;

function changeSettings(settings: SandboxSettings, body: Json): void {
  for (const [name, value] of Object.entries(body)) {
    if (!(settingNames as readonly string[]).includes(name)) throw new ControlError(400, `unknown setting ${name}; known: ${settingNames.join(', ')}`);
    const valid = name === 'webhookRetryDelaysMs'
      ? Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'number' && v >= 0)
      : typeof value === 'number' && value >= 0 && Number.isFinite(value);
    if (!valid) throw new ControlError(400, `${name} must be ${name === 'webhookRetryDelaysMs' ? 'a non-empty list of ' : 'a '}non-negative number of milliseconds`);
  }
  Object.assign(settings, body);
}

const routes: Route[] = [
  ['POST', /^\/reset$/, (target) => (target.reset(), { status: 204 })],
  ['GET', /^\/clock$/, (target) => ({ status: 200, json: clock(target) })],
  ['POST', /^\/clock\/advance$/, (target, body) => {
    const ms = number(body, 'ms');
    if (ms < 0) throw new ControlError(400, 'ms must not be negative: the sandbox clock only moves forward');
    target.core.clock.advance(ms);
    return { status: 200, json: clock(target) };
  }],
  ['GET', /^\/settings$/, (target) => ({ status: 200, json: target.core.settings })],
  ['PATCH', /^\/settings$/, (target, body) => (changeSettings(target.core.settings, body), { status: 200, json: target.core.settings })],
  ['GET', /^\/faults$/, (target) => ({ status: 200, json: { pending: target.faults.pending(), applied: Object.fromEntries(target.faults.applied) } })],
  ['POST', /^\/faults$/, (target, body) => {
    target.faults.inject({ fault: body.fault, count: body.count ?? 1, ...(body.operationId ? { operationId: body.operationId } : {}) } as FaultRule);
    return { status: 201, json: { pending: target.faults.pending() } };
  }],
  ['PUT', /^\/faults\/random$/, (target, body) => (target.faults.setRandom(body as unknown as RandomFaults), { status: 204 })],
  ['DELETE', /^\/faults\/random$/, (target) => (target.faults.setRandom(undefined), { status: 204 })],
  ['DELETE', /^\/faults$/, (target) => (target.faults.clear(), { status: 204 })],
  ['POST', /^\/aliases\/([^/]+)\/payments$/, (target, body, [id]) => ({ status: 200, json: receiveAliasPayment(target.core, id!, number(body, 'amount')) })],
  ['POST', /^\/single-use-tokens\/([^/]+)\/challenge$/, (target, body, [id]) => {
    if (typeof body.transStatus !== 'string') throw new ControlError(400, 'transStatus must be a string');
    return { status: 200, json: tokenModel(completeChallenge(target.core, id!, body.transStatus)) };
  }],
  ['GET', /^\/webhook-subscriptions$/, (target) => ({ status: 200, json: [...target.core.state.subscriptions.values()].map(publicSubscription) })],
  ['POST', /^\/webhook-subscriptions$/, (target, body) => ({ status: 201, json: publicSubscription(target.webhooks.subscribe(body as unknown as SubscriptionInput)) })],
  ['DELETE', /^\/webhook-subscriptions\/([^/]+)$/, (target, _body, [id]) => {
    if (!target.webhooks.unsubscribe(id!)) throw new ControlError(404, `no subscription ${id}`);
    return { status: 204 };
  }],
  ['GET', /^\/webhook-deliveries$/, (target) => ({ status: 200, json: [...target.core.state.deliveries.values()].map(publicDelivery) })],
  ['GET', /^\/transactions$/, (target) => ({
    status: 200,
    json: [...target.core.state.transactions.values()].map((t) => transactionModel(target.core, t, target.core.links())),
  })],
  ['GET', /^\/contract-violations$/, (target) => ({ status: 200, json: target.violations() })],
];

function answer(res: ServerResponse, status: number, json?: unknown): void {
  const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
  res.writeHead(status, { ...(body ? { 'Content-Type': 'application/json' } : {}), 'Content-Length': String(body?.length ?? 0) }).end(body);
}

export function createControlHandler(target: ControlTarget) {
  return async function handleControlRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname.slice(controlPrefix.length);
    try {
      const text = await readBody(req);
      let body: unknown = {};
      if (text) {
        try {
          body = JSON.parse(text);
        } catch {
          throw new ControlError(400, 'the body must be JSON');
        }
      }
      if (!isObject(body)) throw new ControlError(400, 'the body must be a JSON object');
      const candidates = routes.filter(([, pattern]) => pattern.test(path));
      if (candidates.length === 0) throw new ControlError(404, `no control endpoint ${controlPrefix}${path}`);
      const route = candidates.find(([method]) => method === req.method);
      if (!route) throw new ControlError(405, `${req.method} is not supported by ${controlPrefix}${path}`);
      const params = route[1].exec(path)!.slice(1).map(decodeURIComponent);
      const { status, json } = req.method === 'GET' ? route[2](target, body, params) : target.track(() => route[2](target, body, params));
      if (req.method !== 'GET') await target.commit();
      answer(res, status, json);
    } catch (error) {
      const status =
        error instanceof ControlError || error instanceof ApiError ? error.status : error instanceof FaultError || error instanceof SubscriptionError ? 400 : 500;
      answer(res, status, { error: error instanceof Error ? error.message : String(error) });
    }
  };
}
