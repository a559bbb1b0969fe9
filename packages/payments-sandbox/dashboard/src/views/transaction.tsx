// One transaction and what happened to it, oldest first (getTransactionTimeline): the request that made it (its
// body masked by the contract's sensitive marks), idempotent replays under its key, its settlement, refunds and
// voids, and the webhook notifications it caused with each delivery attempt, answer and signature.
import { control, type RecordedRequest, type Schemas } from '../api.js';
import { Attempts } from '../components-delivery.js';
import { Failure, Heading, JsonBlock, Loading, RequestDetails, Status } from '../components.js';
import { money, time } from '../format.js';
import { useResource } from '../resource.js';
import { href } from '../router.js';
import { customerOf, typeOf } from '../transaction-filter.js';

type Entry = Schemas['TimelineEntry'];

const kindTitle: Record<Entry['kind'], string> = {
  created: 'Created',
  replay: 'Replayed',
  settled: 'Settled',
  refund: 'Refund',
  voided: 'Voided',
  webhook: 'Webhook notification',
};

function RequestLine({ request }: { request: RecordedRequest }) {
  return (
    <>
      <p>
        <code>
          {request.method} {request.path}
        </code>{' '}
        → <Status value={String(request.status)} />
        {request.replay ? ' (the stored answer, replayed)' : ''}
        {request.fault ? (
          <>
            {' '}
            with the injected fault <strong>{request.fault}</strong>
          </>
        ) : null}
      </p>
      {request.idempotencyKey ? (
        <p class="muted">
          Idempotency-Key <code>{request.idempotencyKey}</code>
        </p>
      ) : null}
      <RequestDetails request={request} />
    </>
  );
}

function EntryBody({ entry }: { entry: Entry }) {
  return (
    <>
      <p>{entry.summary}</p>
      {entry.request ? <RequestLine request={entry.request} /> : null}
      {!entry.request && entry.body ? <JsonBlock value={entry.body} summary="Request body as the sandbox kept it (card data masked)" /> : null}
      {entry.transaction && entry.kind !== 'created' ? (
        <p>
          <a href={href(['transactions', entry.transaction.receiptNumber])}>{entry.transaction.receiptNumber}</a> <Status value={entry.transaction.status} />{' '}
          {money(entry.transaction.totalAmount ?? entry.transaction.principalAmount)}
        </p>
      ) : null}
      {entry.delivery ? (
        <div class="delivery-in-timeline" data-delivery={entry.delivery.id}>
          <p>
            <Status value={entry.delivery.outcome} /> <a href={href(['webhooks'], { delivery: entry.delivery.id })}>Headers and payload</a>
          </p>
          <Attempts delivery={entry.delivery} />
        </div>
      ) : null}
    </>
  );
}

export function TransactionView({ receiptNumber }: { receiptNumber: string }) {
  const timeline = useResource((signal) => control.getTransactionTimeline(receiptNumber, { signal }), [receiptNumber], ['transaction', 'request', 'delivery', 'clock']);
  const back = (
    <p>
      <a href={href(['transactions'])}>← Transactions</a>
    </p>
  );
  if (timeline.error) {
    return (
      <section>
        {back}
        <Heading title={`Transaction ${receiptNumber}`} />
        {timeline.error.status === 404 ? <p>The sandbox holds no transaction {receiptNumber}.</p> : <Failure error={timeline.error} />}
      </section>
    );
  }
  if (!timeline.data) return <Loading />;
  const { transaction, entries } = timeline.data;
  const settlement = typeof transaction.settlementDate === 'string' ? transaction.settlementDate : undefined;
  const customer = customerOf(transaction);
  return (
    <section>
      {back}
      <Heading title={`Transaction ${receiptNumber}`}>
        <span data-testid="transaction-status">
          <Status value={transaction.status} />
        </span>{' '}
        {typeOf(transaction)} {money(transaction.totalAmount ?? transaction.principalAmount)}
        {customer ? (
          <>
            {' '}
            · customer <a href={href(['transactions'], { customerId: customer })}>{customer}</a>
          </>
        ) : null}
        {settlement ? ` · settlement date ${settlement}` : ''}
      </Heading>
      <h2>Timeline</h2>
      <ol class="timeline" data-testid="timeline">
        {entries.map((entry, n) => (
          <li key={n} class={`step step-${entry.kind}`} data-kind={entry.kind}>
            <p class="when">{time(entry.at)}</p>
            <h3>{kindTitle[entry.kind]}</h3>
            <EntryBody entry={entry} />
          </li>
        ))}
      </ol>
      <JsonBlock value={transaction} summary="The transaction as the payments API shows it" />
    </section>
  );
}
