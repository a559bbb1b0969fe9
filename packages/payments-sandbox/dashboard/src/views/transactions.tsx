// Every transaction the sandbox holds, newest first, 50 a page, with a search and filters kept in the address.
import { useMemo } from 'preact/hooks';
import { control } from '../api.js';
import { Failure, Heading, Loading, Status } from '../components.js';
import { money, time } from '../format.js';
import { useResource } from '../resource.js';
import { href, navigate } from '../router.js';
import { customerOf, filterFromQuery, filterPage, typeOf } from '../transaction-filter.js';

const filterFields = ['q', 'status', 'type', 'min', 'max', 'customer', 'reference', 'from', 'to'] as const;

export function TransactionsView({ query }: { query: URLSearchParams }) {
  const all = useResource((signal) => control.listTransactions({ signal }), [], ['transaction', 'request']);
  const filter = filterFromQuery(query);
  const page = Number(query.get('page') ?? '1');
  const shown = useMemo(() => (all.data ? filterPage(all.data, filter, page) : undefined), [all.data, query.toString()]);
  const choices = useMemo(() => {
    const statuses = new Set<string>();
    const types = new Set<string>();
    for (const t of all.data ?? []) {
      statuses.add(t.status);
      const type = typeOf(t);
      if (type) types.add(type);
    }
    return { statuses: [...statuses].sort(), types: [...types].sort() };
  }, [all.data]);

  const current = Object.fromEntries(filterFields.map((name) => [name, query.get(name) ?? '']));
  const pageHref = (n: number) => href(['transactions'], { ...current, page: n });

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
          const values: Record<string, string> = {};
          for (const name of filterFields) values[name] = String(data.get(name) ?? '').trim();
          navigate(href(['transactions'], values));
        }}
      >
        <label class="wide">
          Search
          <input type="search" name="q" defaultValue={current.q} placeholder="receipt number, customer, alias, text" />
        </label>
        <label>
          Status
          <select name="status" defaultValue={current.status}>
            <option value="">any</option>
            {choices.statuses.map((s) => (
              <option key={s} value={s} selected={s === current.status}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Type
          <select name="type" defaultValue={current.type}>
            <option value="">any</option>
            {choices.types.map((s) => (
              <option key={s} value={s} selected={s === current.type}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Amount from
          <input type="number" name="min" step="0.01" min="0" inputMode="decimal" defaultValue={current.min} />
        </label>
        <label>
          Amount to
          <input type="number" name="max" step="0.01" min="0" inputMode="decimal" defaultValue={current.max} />
        </label>
        <label>
          Customer
          <input name="customer" defaultValue={current.customer} />
        </label>
        <label>
          Reference number
          <input name="reference" inputMode="numeric" defaultValue={current.reference} />
        </label>
        <label>
          From date
          <input type="date" name="from" defaultValue={current.from} />
        </label>
        <label>
          To date
          <input type="date" name="to" defaultValue={current.to} />
        </label>
        <div class="actions">
          <button type="submit">Search</button>
          <a class="button secondary" href={href(['transactions'])}>
            Clear
          </a>
        </div>
      </form>

      {all.error ? <Failure error={all.error} /> : null}
      {!shown ? (
        all.error ? null : <Loading />
      ) : (
        <>
          <p class="muted" role="status" data-testid="transaction-count">
            {shown.total === 1 ? '1 transaction' : `${shown.total} transactions`}
            {shown.pages > 1 ? `, page ${shown.page} of ${shown.pages}` : ''}
          </p>
          {shown.total === 0 ? (
            <p>No transaction matches. Take a payment with your integration: it appears here as it happens.</p>
          ) : (
            <table class="list transactions">
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
                {shown.rows.map((t) => (
                  <tr key={t.receiptNumber} data-receipt={t.receiptNumber}>
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
                    <td data-label="Customer">
                      {customerOf(t) ? <a href={href(['customers'], { customer: customerOf(t) })}>{customerOf(t)}</a> : ''}
                    </td>
                    <td data-label="Time">{time(t.transactionTime)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {shown.pages > 1 ? (
            <nav class="pager" aria-label="Pages">
              {shown.page > 1 ? <a href={pageHref(shown.page - 1)}>← Newer</a> : <span />}
              <span>
                Page {shown.page} of {shown.pages}
              </span>
              {shown.page < shown.pages ? <a href={pageHref(shown.page + 1)}>Older →</a> : <span />}
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
