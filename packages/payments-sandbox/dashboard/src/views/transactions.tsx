// Every transaction the sandbox holds, newest first, 50 a page, with a search and filters kept in the address. The
// sandbox searches (listTransactions); the page asks again when a transaction is made or changes.
import { control } from '../api.js';
import { Failure, Heading, Loading, Status } from '../components.js';
import { transactionStatuses } from '../contract-choices.js';
import { money, time } from '../format.js';
import { useResource } from '../resource.js';
import { href, navigate } from '../router.js';
import { customerOf, filterFields, queryFromRoute, typeOf } from '../transaction-filter.js';

export function TransactionsView({ query }: { query: URLSearchParams }) {
  const asked = queryFromRoute(query);
  const page = useResource((signal) => control.listTransactions(asked, { signal }), [JSON.stringify(asked)], ['transaction']);

  const current: Record<string, string> = Object.fromEntries(filterFields.map((name) => [name, query.get(name) ?? '']));
  const statuses = new Set(query.getAll('status'));
  const filtering = statuses.size > 0 || filterFields.some((name) => name !== 'q' && current[name] !== '');
  // Earlier pages' cursors, so that "Newer" goes back one page (the list pages forwards by cursor).
  const trail = (query.get('trail') ?? '').split(' ').filter(Boolean);
  const number = trail.length + (query.get('cursor') ? 1 : 0) + 1;
  const filters = { ...current, status: [...statuses] };
  const olderHref = (cursor: string) => href(['transactions'], { ...filters, cursor, trail: [...trail, query.get('cursor') ?? '-'].join(' ') });
  const newerHref = () => {
    const previous = trail[trail.length - 1];
    return href(['transactions'], { ...filters, cursor: previous === '-' ? undefined : previous, trail: trail.slice(0, -1).join(' ') || undefined });
  };

  return (
    <section>
      <Heading title="Transactions">Every transaction the sandbox holds, whatever key made it; newest first.</Heading>
      <form
        key={query.toString()}
        class="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const values: Record<string, string | string[]> = {};
          for (const name of filterFields) values[name] = name === 'status' ? data.getAll(name).map(String) : String(data.get(name) ?? '').trim();
          navigate(href(['transactions'], values));
        }}
      >
        <label class="wide">
          Search
          <input type="search" name="q" defaultValue={current.q} placeholder="receipt number, customer, comment, metadata" />
        </label>
        <details class="more" open={filtering}>
          <summary>Filters: status, type, amount, customer, reference number, date</summary>
          <div class="more-fields">
            <fieldset class="statuses">
              <legend>Status</legend>
              {transactionStatuses.map((s) => (
                <label key={s} class="check">
                  <input type="checkbox" name="status" value={s} defaultChecked={statuses.has(s)} /> {s}
                </label>
              ))}
            </fieldset>
            <label>
              Type
              <input name="transactionType" defaultValue={current.transactionType} placeholder="PAYMENT, REFUND…" />
            </label>
            <label>
              Amount from
              <input type="number" name="amountMin" step="0.01" min="0" inputMode="decimal" defaultValue={current.amountMin} />
            </label>
            <label>
              Amount to
              <input type="number" name="amountMax" step="0.01" min="0" inputMode="decimal" defaultValue={current.amountMax} />
            </label>
            <label>
              Customer
              <input name="customerId" defaultValue={current.customerId} />
            </label>
            <label>
              Reference number
              <input name="receiptNumber" inputMode="numeric" defaultValue={current.receiptNumber} />
            </label>
            <label>
              From date
              <input type="date" name="from" defaultValue={current.from} />
            </label>
            <label>
              To date
              <input type="date" name="to" defaultValue={current.to} />
            </label>
          </div>
        </details>
        <div class="actions">
          <button type="submit">Search</button>
          <a class="button secondary" href={href(['transactions'])}>
            Clear
          </a>
        </div>
      </form>

      {page.error ? <Failure error={page.error} /> : null}
      {!page.data ? (
        page.error ? null : <Loading />
      ) : page.data.items.length === 0 ? (
        <p data-testid="no-transactions">No transaction{query.toString() ? ' matches' : ' yet'}. Take a payment with your integration: it appears here as it happens.</p>
      ) : (
        <>
          <table class="list transactions" aria-label="Transactions, newest first">
            <thead>
              <tr>
                <th scope="col">Receipt</th>
                <th scope="col">Status</th>
                <th scope="col">Type</th>
                <th scope="col" class="number">
                  Amount
                </th>
                <th scope="col">Customer</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {page.data.items.map((t) => (
                <tr key={t.receiptNumber} data-receipt={t.receiptNumber} data-status={t.status}>
                  <td data-label="Receipt">
                    <a href={href(['transactions', t.receiptNumber])}>{t.receiptNumber}</a>
                  </td>
                  <td data-label="Status">
                    <Status value={t.status} />
                  </td>
                  <td data-label="Type">{typeOf(t)}</td>
                  <td data-label="Amount" class="number">
                    {money(t.totalAmount ?? t.principalAmount)}
                  </td>
                  <td data-label="Customer">{customerOf(t) ? <a href={href(['transactions'], { customerId: customerOf(t) })}>{customerOf(t)}</a> : ''}</td>
                  <td data-label="Time">{time(t.transactionTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav class="pager" aria-label="Pages">
            {trail.length > 0 || query.get('cursor') ? <a href={newerHref()}>← Newer</a> : <span />}
            <span>Page {number}</span>
            {page.data.nextCursor ? <a href={olderHref(page.data.nextCursor)}>Older →</a> : <span />}
          </nav>
        </>
      )}
    </section>
  );
}
