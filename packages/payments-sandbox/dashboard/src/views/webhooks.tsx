// Where notifications go (subscriptions) and every notification sent, with each delivery attempt and its answer.
import { control, type WebhookDelivery } from '../api.js';
import { Failure, Heading, JsonBlock, Loading, Status } from '../components.js';
import { time } from '../format.js';
import { useResource } from '../resource.js';
import { href } from '../router.js';

const outcomes = [
  { id: '', label: 'any outcome' },
  { id: 'delivered', label: 'delivered' },
  { id: 'failing', label: 'not delivered yet' },
] as const;

const outcomeOf = (d: WebhookDelivery) => (d.delivered ? 'delivered' : 'failing');

function Delivery({ delivery, open }: { delivery: WebhookDelivery; open: boolean }) {
  const last = delivery.attempts[delivery.attempts.length - 1];
  return (
    <li class="card delivery" data-delivery={delivery.id} data-event-type={delivery.eventType} data-outcome={outcomeOf(delivery)}>
      <h3>
        <code>{delivery.eventType}</code> {delivery.delivered ? <Status value="delivered" /> : <Status value="not delivered yet" />}
      </h3>
      <p class="muted">
        {time(delivery.createdAt)} to <code>{delivery.url}</code>
        {last ? `, ${delivery.attempts.length === 1 ? '1 attempt' : `${delivery.attempts.length} attempts`}` : ', not attempted yet'}
      </p>
      <ol class="attempts">
        {delivery.attempts.map((attempt, n) => (
          <li key={n}>
            Attempt {n + 1}, {time(attempt.at)}: {attempt.status !== undefined ? <>answered <Status value={String(attempt.status)} /></> : <span class="badge bad">{attempt.error ?? 'no answer'}</span>}
          </li>
        ))}
      </ol>
      <JsonBlock value={delivery.body} summary="Payload" open={open} />
    </li>
  );
}

export function WebhooksView({ query }: { query: URLSearchParams }) {
  const subscriptions = useResource((signal) => control.listWebhookSubscriptions({ signal }), [], ['webhook-subscription']);
  const deliveries = useResource((signal) => control.listWebhookDeliveries({ signal }), [], ['webhook-delivery']);
  const outcome = query.get('outcome') ?? '';
  const selected = query.get('delivery') ?? '';
  const shown = (deliveries.data ?? [])
    .filter((d) => !outcome || outcomeOf(d) === outcome)
    .sort((a, b) => b.createdAt - a.createdAt);

  return (
    <section>
      <Heading title="Webhooks">Notifications are signed and posted again, on the sandbox clock, until the endpoint answers 200.</Heading>
      <h2>Subscriptions</h2>
      {subscriptions.error ? <Failure error={subscriptions.error} /> : null}
      {!subscriptions.data ? (
        subscriptions.error ? null : <Loading />
      ) : subscriptions.data.length === 0 ? (
        <p>No subscription: notifications are not posted anywhere. Subscribe your endpoint with the control client's <code>createWebhookSubscription</code>.</p>
      ) : (
        <table class="list">
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
        {outcomes.map((o) => (
          <a key={o.id} href={href(['webhooks'], { outcome: o.id })} aria-current={outcome === o.id ? 'page' : undefined}>
            {o.label}
          </a>
        ))}
      </nav>
      {deliveries.error ? <Failure error={deliveries.error} /> : null}
      {!deliveries.data ? (
        deliveries.error ? null : <Loading />
      ) : shown.length === 0 ? (
        <p data-testid="no-deliveries">No notification {outcome ? 'with that outcome' : 'sent yet'}.</p>
      ) : (
        <ul class="plain" aria-labelledby="deliveries-title">
          {shown.map((d) => (
            <Delivery key={d.id} delivery={d} open={d.id === selected} />
          ))}
        </ul>
      )}
    </section>
  );
}
