import { useEffect, useRef } from 'preact/hooks';
import { useLiveState } from './live.js';
import { href, useRoute, type Route } from './router.js';
import { CustomersView } from './views/customers.js';
import { RequestsView } from './views/requests.js';
import { TimeAndFaultsView } from './views/time-and-faults.js';
import { TransactionView } from './views/transaction.js';
import { TransactionsView } from './views/transactions.js';
import { ViolationsView } from './views/violations.js';
import { WebhooksView } from './views/webhooks.js';

const sections = [
  { id: 'transactions', label: 'Transactions' },
  { id: 'customers', label: 'Customers' },
  { id: 'requests', label: 'Requests' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'time', label: 'Time and faults' },
  { id: 'violations', label: 'Contract violations' },
] as const;

function view(route: Route) {
  const [section = 'transactions', id] = route.segments;
  switch (section) {
    case 'transactions':
      return id ? <TransactionView receiptNumber={id} /> : <TransactionsView query={route.query} />;
    case 'customers':
      return <CustomersView query={route.query} />;
    case 'requests':
      return <RequestsView query={route.query} />;
    case 'webhooks':
      return <WebhooksView query={route.query} />;
    case 'time':
      return <TimeAndFaultsView />;
    case 'violations':
      return <ViolationsView />;
    default:
      return <p>Nothing here. <a href={href(['transactions'])}>See the transactions</a>.</p>;
  }
}

export function App() {
  const route = useRoute();
  const live = useLiveState();
  const main = useRef<HTMLElement>(null);
  const section = route.segments[0] ?? 'transactions';
  const key = route.segments.join('/');

  // A new view takes the focus, as a new page would, so that a keyboard or screen reader user starts at its heading.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus({ preventScroll: true });
    scrollTo(0, 0);
  }, [key]);

  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          // The address's fragment is the route: focus the content without changing it.
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href(['transactions'])}>
          Payments sandbox
        </a>
        <nav aria-label="Sections">
          <ul>
            {sections.map((s) => (
              <li key={s.id}>
                <a href={href([s.id])} aria-current={section === s.id ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class={`live live-${live}`} role="status" data-live={live}>
          {live === 'live' ? 'Live' : live === 'connecting' ? 'Connecting…' : 'Not live'}
        </span>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {view(route)}
      </main>
    </>
  );
}
