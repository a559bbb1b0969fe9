// Customers with their stored accounts (card data masked), aliases with where their registration stands, recurring
// payments: each newest first, as the merchant made them.
import { control } from '../api.js';
import { Failure, Heading, JsonBlock, Loading, Status } from '../components.js';
import { time } from '../format.js';
import { useResource } from '../resource.js';
import { href } from '../router.js';

const customerName = (fields: object) => {
  const name = (fields as { customerName?: unknown }).customerName;
  return typeof name === 'string' ? name : '';
};

export function CustomersView({ query }: { query: URLSearchParams }) {
  const customer = query.get('customerId') ?? '';
  // Each list pages on its own: its cursor is in the address under its name.
  const cursors = { customers: query.get('customers') ?? '', aliases: query.get('aliases') ?? '', recurring: query.get('recurring') ?? '' };
  // One customer's lists are read exactly (the operations' customerId filter), not picked out of a page.
  const page = (cursor: string) => ({ ...(cursor ? { cursor } : {}), ...(customer ? { customerId: customer } : {}) });
  const customers = useResource((signal) => control.listCustomers(page(cursors.customers), { signal }), [cursors.customers, customer], ['request']);
  const aliases = useResource((signal) => control.listAliases(page(cursors.aliases), { signal }), [cursors.aliases, customer], ['request', 'clock', 'delivery']);
  const recurring = useResource((signal) => control.listRecurringPayments(page(cursors.recurring), { signal }), [cursors.recurring, customer], ['request']);
  const pager = (list: keyof typeof cursors, next: string | null | undefined) =>
    cursors[list] || next ? (
      <nav class="pager" aria-label={`Pages of ${list}`}>
        {cursors[list] ? <a href={href(['customers'], { ...cursors, customerId: customer, [list]: undefined })}>← Newest</a> : <span />}
        {next ? <a href={href(['customers'], { ...cursors, customerId: customer, [list]: next })}>Older →</a> : <span />}
      </nav>
    ) : null;

  return (
    <section>
      <Heading title="Customers">
        {customer ? (
          <>
            Customer {customer}. <a href={href(['customers'])}>Every customer</a>
          </>
        ) : (
          'Customers with their stored accounts, aliases, recurring payments.'
        )}
      </Heading>

      <h2>Customers and accounts</h2>
      {customers.error ? <Failure error={customers.error} /> : null}
      {!customers.data ? (
        customers.error ? null : <Loading />
      ) : customers.data.items.length === 0 ? (
        <p>No customer yet.</p>
      ) : (
        <ul class="plain">
          {customers.data.items.map((c) => (
            <li key={c.customerId} class="card" data-customer={c.customerId}>
              <h3>
                <a href={href(['customers'], { customerId: c.customerId })}>{c.customerId}</a>{' '}
                {customerName(c.fields)}
              </h3>
              <p class="muted">
                Made {time(c.createdAt)} · <a href={href(['transactions'], { customerId: c.customerId })}>transactions</a>
              </p>
              {c.accounts.length === 0 ? (
                <p class="muted">No stored account.</p>
              ) : (
                <table class="list" aria-label={`Accounts of ${c.customerId}`}>
                  <thead>
                    <tr>
                      <th scope="col">Account token</th>
                      <th scope="col">Type</th>
                      <th scope="col">Details</th>
                      <th scope="col">State</th>
                    </tr>
                  </thead>
                  <tbody>
                    {c.accounts.map((a) => (
                      <tr key={a.accountToken}>
                        <td data-label="Account token">
                          <code>{a.accountToken}</code>
                        </td>
                        <td data-label="Type">{[a.accountType, a.cardScheme].filter(Boolean).join(' ')}</td>
                        <td data-label="Details">
                          <code>{JSON.stringify(a.details)}</code>
                        </td>
                        <td data-label="State">{a.disabled ? 'disabled' : 'active'}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              <JsonBlock value={c.fields} summary="The merchant's fields" />
            </li>
          ))}
        </ul>
      )}

      {pager('customers', customers.data?.nextCursor)}

      <h2>Aliases</h2>
      {aliases.error ? <Failure error={aliases.error} /> : null}
      {!aliases.data ? (
        aliases.error ? null : <Loading />
      ) : aliases.data.items.length === 0 ? (
        <p>No alias yet.</p>
      ) : (
        <table class="list" aria-label="Aliases">
          <thead>
            <tr>
              <th scope="col">Alias</th>
              <th scope="col">Type</th>
              <th scope="col">Registration</th>
              <th scope="col">Customer</th>
              <th scope="col">Made</th>
            </tr>
          </thead>
          <tbody>
            {aliases.data.items.map((a) => (
              <tr key={a.id} data-alias={a.aliasAddress}>
                <td data-label="Alias">
                  <code>{a.aliasAddress}</code>
                </td>
                <td data-label="Type">
                  {a.type}
                  {a.paymentAmount !== undefined ? ` ${a.paymentAmount} ${a.currency}` : ''}
                </td>
                <td data-label="Registration">
                  <Status value={a.status} />
                  {a.statusDueAt ? <span class="muted"> until {time(a.statusDueAt)}</span> : null}
                  {a.statusDescription ? <span class="muted"> {a.statusDescription}</span> : null}
                </td>
                <td data-label="Customer">
                  <a href={href(['customers'], { customerId: a.customerId })}>{a.customerId}</a>
                </td>
                <td data-label="Made">{time(a.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {pager('aliases', aliases.data?.nextCursor)}

      <h2>Recurring payments</h2>
      {recurring.error ? <Failure error={recurring.error} /> : null}
      {!recurring.data ? (
        recurring.error ? null : <Loading />
      ) : recurring.data.items.length === 0 ? (
        <p>No recurring payment yet.</p>
      ) : (
        <ul class="plain">
          {recurring.data.items.map((r) => (
            <li key={r.id} class="card">
              <h3>
                <code>{r.id}</code>
              </h3>
              <p class="muted">
                Made {time(r.createdAt)}
                {r.customerId ? (
                  <>
                    {' '}
                    · customer <a href={href(['customers'], { customerId: r.customerId })}>{r.customerId}</a>
                  </>
                ) : null}
              </p>
              <JsonBlock value={r.fields} summary="As the merchant made it" />
            </li>
          ))}
        </ul>
      )}
      {pager('recurring', recurring.data?.nextCursor)}
    </section>
  );
}
