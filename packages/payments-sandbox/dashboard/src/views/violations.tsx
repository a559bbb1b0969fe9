// What the sandbox's answers did wrong against the payments contract (a sandbox started with `checkResponses`): by
// request, linked to it and to its transaction, then every problem the sandbox noted (webhooks included).
import { control } from '../api.js';
import { Failure, Heading, Loading } from '../components.js';
import { useResource } from '../resource.js';
import { RequestRow } from './requests.js';

export function ViolationsView() {
  const violations = useResource((signal) => control.listContractViolations({ signal }), [], ['violation']);
  const requests = useResource((signal) => control.listRequests({ limit: 1000 }, { signal }), [], ['violation']);
  const withViolations = (requests.data?.items ?? []).filter((r) => r.violations.length > 0);
  return (
    <section>
      <Heading title="Contract violations">Answers and notifications of the sandbox that did not match the payments contract.</Heading>
      {violations.error ? <Failure error={violations.error} /> : null}
      {requests.error ? <Failure error={requests.error} /> : null}
      {!violations.data || !requests.data ? (
        violations.error || requests.error ? null : <Loading />
      ) : violations.data.length === 0 ? (
        <p>None. (The sandbox checks its answers only when started with <code>checkResponses</code>.)</p>
      ) : (
        <>
          <h2>By request</h2>
          {withViolations.length === 0 ? (
            <p class="muted">None among the recent requests.</p>
          ) : (
            <ul class="plain">
              {withViolations.map((r) => (
                <RequestRow key={r.id} request={r} />
              ))}
            </ul>
          )}
          <h2>Every problem noted</h2>
          <ol class="violations">
            {violations.data.map((text, n) => (
              <li key={n}>{text}</li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
