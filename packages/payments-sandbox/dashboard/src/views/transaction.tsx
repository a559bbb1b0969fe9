// One transaction and what happened to it, in time order: how it was taken, its settlement, the refunds and voids of
// it, and the webhook notifications it caused with each delivery attempt.
import type { ComponentChildren } from 'preact';
import { control, type Transaction, type WebhookDelivery } from '../api.js';
import { Failure, Heading, JsonBlock, Loading, Status } from '../components.js';
import { isRecord, money, time } from '../format.js';
import { useResource } from '../resource.js';
import { href } from '../router.js';
import { customerOf, typeOf } from '../transaction-filter.js';

interface Step {
  at: string | number | undefined;
  title: ComponentChildren;
  body: ComponentChildren;
  kind: string;
}

/** Whether a notification is about this transaction: its data is the transaction, or names it. */
const concerns = (delivery: WebhookDelivery, receiptNumber: string) => {
  const data: unknown = delivery.body.data;
  return isRecord(data) && (data.receiptNumber === receiptNumber || (isRecord(data.transaction) && data.transaction.receiptNumber === receiptNumber));
};

function DeliveryStep({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <>
      <p>
        To <code>{delivery.url}</code>: {delivery.delivered ? <Status value="delivered" /> : <Status value="not delivered yet" />}{' '}
        <a href={href(['webhooks'], { delivery: delivery.id })}>see the delivery</a>
      </p>
      <ol class="attempts">
        {delivery.attempts.map((attempt, n) => (
          <li key={n}>
            Attempt {n + 1}, {time(attempt.at)}: {attempt.status !== undefined ? <Status value={String(attempt.status)} /> : <span class="badge bad">{attempt.error ?? 'no answer'}</span>}
          </li>
        ))}
      </ol>
    </>
  );
}

export function TransactionView({ receiptNumber }: { receiptNumber: string }) {
  const data = useResource(
    async (signal) => {
      const [transactions, deliveries] = await Promise.all([control.listTransactions({ signal }), control.listWebhookDeliveries({ signal })]);
      return { transactions, deliveries };
    },
    [receiptNumber],
    ['transaction', 'request', 'webhook-delivery', 'clock'],
  );
  if (data.error) return <Failure error={data.error} />;
  if (!data.data) return <Loading />;
  const transaction = data.data.transactions.find((t) => t.receiptNumber === receiptNumber);
  if (!transaction) {
    return (
      <section>
        <Heading title={`Transaction ${receiptNumber}`} />
        <p>The sandbox holds no transaction {receiptNumber}. <a href={href(['transactions'])}>See every transaction</a>.</p>
      </section>
    );
  }
  const followUps = data.data.transactions.filter((t) => t.originalReceiptNumber === receiptNumber);
  const deliveries = data.data.deliveries.filter((d) => concerns(d, receiptNumber));

  const steps: Step[] = [
    {
      at: transaction.transactionTime as string,
      kind: 'created',
      title: (
        <>
          {typeOf(transaction) || 'Transaction'} of {money(transaction.totalAmount ?? transaction.principalAmount)}
        </>
      ),
      body: <p>Taken{transaction.source ? ` from ${String(transaction.source)}` : ''}; now <Status value={transaction.status} />.</p>,
    },
    ...followUps.map(
      (t: Transaction): Step => ({
        at: t.transactionTime as string,
        kind: 'follow-up',
        title: (
          <>
            {typeOf(t) || 'Transaction'} <a href={href(['transactions', t.receiptNumber])}>{t.receiptNumber}</a> of {money(t.totalAmount ?? t.principalAmount)}
          </>
        ),
        body: <p><Status value={t.status} /></p>,
      }),
    ),
    ...deliveries.map(
      (d): Step => ({
        at: d.createdAt,
        kind: 'webhook',
        title: (
          <>
            Webhook notification <code>{d.eventType}</code>
          </>
        ),
        body: <DeliveryStep delivery={d} />,
      }),
    ),
  ];
  const when = (step: Step) => (step.at === undefined ? 0 : new Date(step.at).getTime());
  steps.sort((a, b) => when(a) - when(b));
  const settlement = typeof transaction.settlementDate === 'string' ? transaction.settlementDate : undefined;

  return (
    <section>
      <p>
        <a href={href(['transactions'])}>← Transactions</a>
      </p>
      <Heading title={`Transaction ${receiptNumber}`}>
        <Status value={transaction.status} /> {money(transaction.totalAmount ?? transaction.principalAmount)}
        {customerOf(transaction) ? (
          <>
            {' '}
            · customer <a href={href(['customers'], { customer: customerOf(transaction) })}>{customerOf(transaction)}</a>
          </>
        ) : null}
        {settlement ? ` · settlement date ${settlement}` : ''}
      </Heading>
      <h2>Timeline</h2>
      <ol class="timeline" data-testid="timeline">
        {steps.map((step, n) => (
          <li key={n} class={`step step-${step.kind}`}>
            <p class="when">{time(step.at)}</p>
            <h3>{step.title}</h3>
            {step.body}
          </li>
        ))}
      </ol>
      <JsonBlock value={transaction} summary="The transaction as the payments API shows it" />
    </section>
  );
}
