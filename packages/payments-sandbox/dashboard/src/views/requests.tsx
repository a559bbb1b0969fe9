// The API requests the sandbox answered most recently, newest first: what each got (an injected fault, a replayed
// answer), the transaction it names, what its answer did wrong against the contract.
import { control, type RecordedRequest } from '../api.js';
import { Failure, Heading, Loading, RequestDetails, Status } from '../components.js';
import { time } from '../format.js';
import { useResource } from '../resource.js';
import { href } from '../router.js';

export function RequestRow({ request }: { request: RecordedRequest }) {
  return (
    <li class="card request" data-request={request.id} data-status={request.status} data-fault={request.fault ?? ''}>
      <p>
        <code>
          {request.method} {request.path}
        </code>{' '}
        → <Status value={String(request.status)} />
        {request.fault ? (
          <>
            {' '}
            <span class="badge bad">fault {request.fault}</span>
          </>
        ) : null}
        {request.replay ? <span class="badge plain">replayed</span> : null}
      </p>
      <p class="muted">
        {time(request.at)}
        {request.operationId ? ` · ${request.operationId}` : ''}
        {request.receiptNumber ? (
          <>
            {' '}
            · transaction <a href={href(['transactions', request.receiptNumber])}>{request.receiptNumber}</a>
          </>
        ) : null}
      </p>
      <RequestDetails request={request} />
    </li>
  );
}

export function RequestsView({ query }: { query: URLSearchParams }) {
  const failed = query.get('failed') === 'true';
  const cursor = query.get('cursor') ?? '';
  const requests = useResource(
    (signal) => control.listRequests({ ...(failed ? { failed: true } : {}), ...(cursor ? { cursor } : {}) }, { signal }),
    [failed, cursor],
    ['request'],
  );
  const filter = failed ? 'true' : undefined;
  return (
    <section>
      <Heading title="Requests">The API requests the sandbox answered most recently (kept in memory), newest first.</Heading>
      <nav class="tabs" aria-label="Requests by outcome">
        <a href={href(['requests'])} aria-current={failed ? undefined : 'page'}>
          all
        </a>
        <a href={href(['requests'], { failed: 'true' })} aria-current={failed ? 'page' : undefined}>
          failed
        </a>
      </nav>
      {requests.error ? <Failure error={requests.error} /> : null}
      {!requests.data ? (
        requests.error ? null : <Loading />
      ) : requests.data.items.length === 0 ? (
        <p data-testid="no-requests">No request {failed ? 'failed' : 'yet'}.</p>
      ) : (
        <ul class="plain" data-testid="requests">
          {requests.data.items.map((r) => (
            <RequestRow key={r.id} request={r} />
          ))}
        </ul>
      )}
      <nav class="pager" aria-label="Pages">
        {cursor ? <a href={href(['requests'], { failed: filter })}>← Newest</a> : <span />}
        {requests.data?.nextCursor ? <a href={href(['requests'], { failed: filter, cursor: requests.data.nextCursor })}>Older →</a> : <span />}
      </nav>
    </section>
  );
}
