// Answers of the sandbox that did not match the payments contract (a sandbox started with `checkResponses`).
import { control } from '../api.js';
import { Failure, Heading, Loading } from '../components.js';
import { useResource } from '../resource.js';

export function ViolationsView() {
  const violations = useResource((signal) => control.listContractViolations({ signal }), [], ['contract-violation']);
  return (
    <section>
      <Heading title="Contract violations">Answers and notifications of the sandbox that did not match the payments contract.</Heading>
      {violations.error ? <Failure error={violations.error} /> : null}
      {!violations.data ? (
        violations.error ? null : <Loading />
      ) : violations.data.length === 0 ? (
        <p>None. (The sandbox checks its answers only when started with <code>checkResponses</code>.)</p>
      ) : (
        <ol class="violations">
          {violations.data.map((text, n) => (
            <li key={n}>{text}</li>
          ))}
        </ol>
      )}
    </section>
  );
}
