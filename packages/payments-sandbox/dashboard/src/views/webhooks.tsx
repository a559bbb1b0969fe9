// Where notifications go (subscriptions) and every notification sent, newest first, by outcome: its headers and
// payload, each delivery attempt with the endpoint's answer and the signature, and "deliver again".
import { useAction } from '../action.js';
import { control, type WebhookDelivery } from '../api.js';
import { Attempts } from '../components-delivery.js';
import { Failure, Heading, JsonBlock, Loading, Status } from '../components.js';
import { deliveryOutcomes } from '../contract-choices.js';
import { time } from '../format.js';
import { useResource } from '../resource.js';
import { href } from '../router.js';
import type { ListDeliveriesQuery } from '../types.js';

function Delivery({ delivery, open, reload }: { delivery: WebhookDelivery; open: boolean; reload: () => void }) {
  const again = useAction(reload);
  return (
    <li class="card delivery" data-delivery={delivery.id} data-event-type={delivery.eventType} data-outcome={delivery.outcome}>
      <h3>
        <code>{delivery.eventType}</code> <Status value={delivery.outcome} />
      </h3>
      <p class="muted">
        {time(delivery.createdAt)} to <code>{delivery.url}</code>
      </p>
      <Attempts delivery={delivery} />
      <div class="actions">
        <button type="button" class="secondary" disabled={again.busy} onClick={() => void again.run(() => control.createWebhookDeliveryAttempt(delivery.id))}>
          Deliver again
        </button>
      </div>
      {again.error ? <Failure error={again.error} /> : null}
      <details class="json" open={open}>
        <summary>Headers</summary>
        <dl class="pairs">
          {Object.entries(delivery.headers).map(([name, value]) => (
            <>
              <dt>
                <code>{name}</code>
              </dt>
              <dd>
                <code>{value}</code>
              </dd>
            </>
          ))}
        </dl>
      </details>
      <JsonBlock value={delivery.body} summary="Payload" open={open} />
    </li>
  );
}

export function WebhooksView({ query }: { query: URLSearchParams }) {
  const outcome = (query.get('outcome') ?? '') as ListDeliveriesQuery['outcome'] | '';
  const cursor = query.get('cursor') ?? '';
  const selected = query.get('delivery') ?? '';
  const subscriptions = useResource((signal) => control.listWebhookSubscriptions({ signal }), [], ['reset']);
  const deliveries = useResource(
    (signal) => control.listWebhookDeliveries({ ...(outcome ? { outcome } : {}), ...(cursor ? { cursor } : {}) }, { signal }),
    [outcome, cursor],
    ['delivery'],
  );
  const shown = deliveries.data?.items ?? [];

  return (
    <section>
      <Heading title="Webhooks">Notifications are signed and posted again, on the sandbox clock, until the endpoint answers 200.</Heading>
      <h2>Subscriptions</h2>
      {subscriptions.error ? <Failure error={subscriptions.error} /> : null}
      {!subscriptions.data ? (
        subscriptions.error ? null : <Loading />
      ) : subscriptions.data.length === 0 ? (
        <p>
          No subscription: notifications are not posted anywhere. Subscribe your endpoint with the control client's <code>createWebhookSubscription</code>.
        </p>
      ) : (
        <table class="list" aria-label="Subscriptions">
          <thead>
            <tr>
              <th scope="col">Endpoint</th>
              <th scope="col">Events</th>
              <th scope="col">Basic authorisation</th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.data.map((s) => (
              <tr key={s.id}>
                <td data-label="Endpoint">
                  <code>{s.url}</code>
                </td>
                <td data-label="Events">{s.eventTypes.join(', ')}</td>
                <td data-label="Basic authorisation">{s.basicAuth ? `as ${s.basicAuth.username}` : 'none'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2 id="deliveries-title">Deliveries</h2>
      <nav class="tabs" aria-label="Deliveries by outcome">
        {['', ...deliveryOutcomes].map((o) => (
          <a key={o} href={href(['webhooks'], { outcome: o })} aria-current={outcome === o ? 'page' : undefined}>
            {o || 'all'}
          </a>
        ))}
      </nav>
      {deliveries.error ? <Failure error={deliveries.error} /> : null}
      {!deliveries.data ? (
        deliveries.error ? null : <Loading />
      ) : shown.length === 0 ? (
        <p data-testid="no-deliveries">No notification {outcome ? `${outcome}` : 'sent yet'}.</p>
      ) : (
        <ul class="plain" aria-labelledby="deliveries-title">
          {shown.map((d) => (
            <Delivery key={d.id} delivery={d} open={d.id === selected} reload={deliveries.reload} />
          ))}
        </ul>
      )}
      <nav class="pager" aria-label="Pages">
        {cursor ? <a href={href(['webhooks'], { outcome })}>← Newest</a> : <span />}
        {deliveries.data?.nextCursor ? <a href={href(['webhooks'], { outcome, cursor: deliveries.data.nextCursor })}>Older →</a> : <span />}
      </nav>
    </section>
  );
}
