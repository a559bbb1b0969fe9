// A webhook delivery's attempts: when, the endpoint's answer or why none came, the signature each one carried.
import type { WebhookDelivery } from './api.js';
import { Status } from './components.js';
import { time } from './format.js';

export function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attempts.length === 0) return <p class="muted">Not attempted yet.</p>;
  return (
    <ol class="attempts">
      {delivery.attempts.map((attempt, n) => (
        <li key={n} data-attempt-status={attempt.status ?? ''}>
          <span>
            Attempt {n + 1}{attempt.manual ? ' (delivered again by hand)' : ''}, {time(attempt.at)}:{' '}
            {attempt.status !== undefined ? (
              <>
                answered <Status value={String(attempt.status)} />
              </>
            ) : (
              <span class="badge bad">{attempt.error ?? 'no answer'}</span>
            )}
          </span>
          {attempt.signature ? (
            <span class="signature">
              Signature <code>{attempt.signature}</code>
            </span>
          ) : null}
          {attempt.answer ? <pre class="answer">{attempt.answer}</pre> : null}
        </li>
      ))}
    </ol>
  );
}

export const outcomeLabel: Record<WebhookDelivery['outcome'], string> = {
  delivered: 'delivered',
  failing: 'failing',
  pending: 'pending',
};
