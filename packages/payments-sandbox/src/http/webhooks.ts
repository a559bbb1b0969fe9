import { randomUUID } from 'node:crypto';
import { signTestPayload, webhookEventTypes, webhookSignatureHeader } from '@paykit/payments/webhooks';
import type { SandboxClock } from '../state/clock.js';
import type { EventSink, SandboxSettings } from '../handler-context.js';
import type { SandboxState, WebhookDelivery, WebhookSubscription } from '../state/state.js';

/**
 * Webhook notifications. The reference does not publish the endpoints that manage subscriptions, so subscriptions
 * are made through the sandbox's control interface. Each event is posted to every subscription of its type, signed
 * by `@paykit/payments/webhooks` (the one implementation of the scheme the client verifies), with the subscription's
 * Basic credentials when it has some, and posted again on the sandbox clock until the endpoint answers 200.
 */

export interface SubscriptionInput {
  url: string;
  /** Event types to receive; default every event type of the contract. */
  eventTypes?: string[];
  secret: string;
  basicAuth?: { username: string; password: string };
}

export class SubscriptionError extends Error {
  override readonly name = 'SubscriptionError';
}

/** A delivery that cannot be attempted again: none of that id (404), or its subscription is gone (409). */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const signatureHeader = webhookSignatureHeader ?? 'X-Webhook-Signature';

export class WebhookDispatcher implements EventSink {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly state: () => SandboxState,
    private readonly clock: SandboxClock,
    /** The settings now (they change at run time, through any process on a shared store). */
    private readonly settings: () => SandboxSettings,
    /** Saves what changed; resolves once it is durable (and never rejects). */
    private readonly changed: () => Promise<void>,
    /** Called with every notification body before it is sent (the response checks of tests). */
    private readonly inspect: (eventType: string, body: unknown) => void = () => {},
    /** Called when a delivery is made or attempted (the dashboard's live views). */
    private readonly onDelivery: (deliveryId: string) => void = () => {},
  ) {
    clock.on('webhook.deliver', (task) => this.attempt(task.ref));
  }

  subscribe(input: SubscriptionInput): WebhookSubscription {
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      throw new SubscriptionError(`url ${JSON.stringify(input.url)} is not an absolute URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SubscriptionError('url must be http or https');
    const eventTypes = input.eventTypes ?? [...webhookEventTypes];
    const unknown = eventTypes.filter((type) => !(webhookEventTypes as readonly string[]).includes(type));
    if (unknown.length) throw new SubscriptionError(`unknown event types ${unknown.join(', ')}; known: ${webhookEventTypes.join(', ')}`);
    if (typeof input.secret !== 'string' || input.secret === '') throw new SubscriptionError('secret must be a non-empty string');
    const subscription: WebhookSubscription = {
      id: randomUUID(),
      url: url.href,
      eventTypes,
      secret: input.secret,
      ...(input.basicAuth ? { basicAuth: { username: input.basicAuth.username, password: input.basicAuth.password } } : {}),
    };
    this.state().subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  unsubscribe(id: string): boolean {
    const state = this.state();
    if (!state.subscriptions.delete(id)) return false;
    for (const delivery of state.deliveries.values()) if (delivery.subscriptionId === id && !delivery.delivered) this.clock.cancel('webhook.deliver', delivery.id);
    return true;
  }

  emit(eventType: string, data: unknown): void {
    const notification = { id: randomUUID(), timestamp: new Date(this.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'), eventType, data };
    this.inspect(eventType, notification);
    const body = JSON.stringify(notification);
    for (const subscription of this.state().subscriptions.values()) {
      if (!subscription.eventTypes.includes(eventType)) continue;
      const delivery: WebhookDelivery = {
        id: randomUUID(),
        subscriptionId: subscription.id,
        eventId: notification.id,
        eventType,
        url: subscription.url,
        body,
        createdAt: this.clock.now(),
        delivered: false,
        attempts: [],
      };
      this.state().deliveries.set(delivery.id, delivery);
      this.onDelivery(delivery.id);
      // The redelivery is scheduled before the first attempt, so that a crash during the attempt does not lose it,
      // and the first attempt waits until the event is durable: a notification reports what a crash cannot undo.
      this.clock.schedule('webhook.deliver', delivery.id, this.delayAfter(1));
      const saved = this.changed().then(() => this.attempt(delivery.id));
      this.inFlight.add(saved);
      void saved.finally(() => this.inFlight.delete(saved));
    }
  }

  /** Resolves once no delivery attempt is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Posts a delivery once more, now, whether or not it was delivered ("deliver again" of the dashboard): the same
   * body, a fresh signature. Resolves with the delivery as it stands when the attempt starts.
   */
  redeliver(deliveryId: string): WebhookDelivery {
    const delivery = this.state().deliveries.get(deliveryId);
    if (!delivery) throw new DeliveryError(404, `no delivery ${deliveryId}`);
    const subscription = this.state().subscriptions.get(delivery.subscriptionId);
    if (!subscription) throw new DeliveryError(409, `the subscription of delivery ${deliveryId} has been removed`);
    const sending = this.send(delivery, subscription, true).finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
    return delivery;
  }

  private attempt(deliveryId: string): void {
    const delivery = this.state().deliveries.get(deliveryId);
    const subscription = delivery && this.state().subscriptions.get(delivery.subscriptionId);
    if (!delivery || !subscription || delivery.delivered) return;
    const sending = this.send(delivery, subscription).finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  private async send(delivery: WebhookDelivery, subscription: WebhookSubscription, manual = false): Promise<void> {
    // The signature's timestamp is the wall-clock time of the attempt, so that receivers' tolerance checks hold
    // even after the sandbox clock was moved forward.
    const { header } = signTestPayload(delivery.body, { secret: subscription.secret });
    const headers: Record<string, string> = { 'Content-Type': 'application/json', [signatureHeader]: header };
    if (subscription.basicAuth) {
      headers.Authorization = `Basic ${Buffer.from(`${subscription.basicAuth.username}:${subscription.basicAuth.password}`).toString('base64')}`;
    }
    const at = this.clock.now();
    try {
      const response = await fetch(delivery.url, { method: 'POST', headers, body: delivery.body, signal: AbortSignal.timeout(this.settings().webhookTimeoutMs) });
      const answer = await response.text().catch(() => '');
      delivery.attempts.push({ at, status: response.status, ...(answer ? { answer: answer.slice(0, 1_000) } : {}), signature: header, ...(manual ? { manual } : {}) });
      if (response.status === 200) delivery.delivered = true;
    } catch (error) {
      const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      delivery.attempts.push({ at, error: why, signature: header, ...(manual ? { manual } : {}) });
    }
    this.onDelivery(delivery.id);
    // Changed in place outside a request: set again, so that the store writes it.
    if (this.state().deliveries.get(delivery.id) === delivery) this.state().deliveries.set(delivery.id, delivery);
    if (delivery.delivered) this.clock.cancel('webhook.deliver', delivery.id);
    else if (this.state().deliveries.get(delivery.id) === delivery && !this.clock.has('webhook.deliver', delivery.id)) {
      this.clock.schedule('webhook.deliver', delivery.id, this.delayAfter(delivery.attempts.length));
    }
    void this.changed();
  }

  /** The wait before the next attempt after `attempts` attempts: the last configured wait repeats. */
  private delayAfter(attempts: number): number {
    const delays = this.settings().webhookRetryDelaysMs;
    return delays[Math.min(attempts, delays.length) - 1]!;
  }
}
