// The sandbox clock with "advance by", and the faults: the queue waiting for requests, what was applied, random
// faults. Every choice offered is one the control contract offers (fault-choices.ts).
import { useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { control, type Fault, type Schemas } from '../api.js';
import { Failure, Heading, Loading } from '../components.js';
import { faultStatuses, faultTimings, operationIds } from '../contract-choices.js';
import { duration, time } from '../format.js';
import { useResource } from '../resource.js';

const units = [
  { label: 'seconds', ms: 1_000 },
  { label: 'minutes', ms: 60_000 },
  { label: 'hours', ms: 3_600_000 },
  { label: 'days', ms: 86_400_000 },
] as const;

const presets = [
  { label: '+1 minute', ms: 60_000 },
  { label: '+1 hour', ms: 3_600_000 },
  { label: '+1 day', ms: 86_400_000 },
];

const faultLabel = (fault: Fault) => ('drop' in fault ? `connection dropped ${fault.drop}` : `${fault.status}${fault.when ? ` ${fault.when}` : ''}`);

function faultFrom(data: FormData, prefix = ''): Fault {
  const kind = String(data.get(`${prefix}kind`));
  const when = String(data.get(`${prefix}when`) ?? '');
  if (kind === 'drop') return { drop: when as Schemas['FaultTiming'] };
  return when ? { status: Number(kind), when: when as Schemas['FaultTiming'] } : { status: Number(kind) };
}

function FaultFields({ prefix }: { prefix: string }) {
  // A dropped connection has no default timing in the contract: then the form asks for one.
  const [drop, setDrop] = useState(false);
  return (
    <>
      <div class="field">
        <label for={`${prefix}kind`}>Fault</label>
        <select id={`${prefix}kind`} name={`${prefix}kind`} onChange={(event) => setDrop(event.currentTarget.value === 'drop')}>
          {faultStatuses.map((s) => (
            <option key={s} value={String(s)}>
              answer {s}
            </option>
          ))}
          <option value="drop">drop the connection</option>
        </select>
      </div>
      <div class="field">
        <label for={`${prefix}when`}>When</label>
        <select id={`${prefix}when`} name={`${prefix}when`} required={drop}>
          <option value="">{drop ? 'choose' : "the sandbox's default"}</option>
          {faultTimings.map((t) => (
            <option key={t} value={t}>
              {t} the work
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

function OperationField({ id, multiple }: { id: string; multiple?: boolean }) {
  return (
    <div class="field">
      <label for={id}>{multiple ? 'Only operations' : 'Only operation'}</label>
      <select id={id} name={id} multiple={multiple} size={multiple ? 4 : undefined}>
        {multiple ? null : <option value="">any</option>}
        {operationIds.map((operationId) => (
          <option key={operationId} value={operationId}>
            {operationId}
          </option>
        ))}
      </select>
    </div>
  );
}

export function TimeAndFaultsView() {
  const clock = useResource((signal) => control.getClock({ signal }), [], ['clock']);
  const settings = useResource((signal) => control.getSettings({ signal }), [], ['clock']);
  const faults = useResource((signal) => control.getFaults({ signal }), [], ['faults', 'request']);
  const clockAction = useAction(clock.reload);
  const faultAction = useAction(faults.reload);
  const [unit, setUnit] = useState<number>(units[2].ms);

  return (
    <section>
      <Heading title="Time and faults">The sandbox clock moves only forward; faults wait for the next API requests.</Heading>

      <h2 id="clock-title">Clock</h2>
      {clock.error ? <Failure error={clock.error} /> : null}
      {clock.data ? (
        <p data-testid="clock">
          Sandbox time <strong>{time(clock.data.now)}</strong>, {clock.data.offsetMs === 0 ? 'the real time' : `${duration(clock.data.offsetMs)} ahead of the real clock`}.
        </p>
      ) : clock.error ? null : (
        <Loading />
      )}
      <form
        class="inline"
        aria-labelledby="clock-title"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const ms = Math.round(Number(data.get('amount')) * unit);
          void clockAction.run(() => control.advanceClock({ ms }));
        }}
      >
        <label>
          Advance by
          <input name="amount" type="number" min="0" step="any" required defaultValue="1" inputMode="decimal" />
        </label>
        <label>
          Unit
          <select name="unit" value={String(unit)} onChange={(event) => setUnit(Number(event.currentTarget.value))}>
            {units.map((u) => (
              <option key={u.label} value={String(u.ms)}>
                {u.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={clockAction.busy}>
          Advance the clock
        </button>
        {presets.map((p) => (
          <button key={p.label} type="button" class="secondary" disabled={clockAction.busy} onClick={() => void clockAction.run(() => control.advanceClock({ ms: p.ms }))}>
            {p.label}
          </button>
        ))}
      </form>
      {clockAction.error ? <Failure error={clockAction.error} /> : null}
      <p class="muted">Tokens and idempotency keys expire, aliases register, pending payments settle and webhooks are sent again as their time comes.</p>
      {settings.data ? (
        <details>
          <summary>Timings</summary>
          <dl class="pairs">
            {Object.entries(settings.data).map(([name, value]) => (
              <>
                <dt>{name}</dt>
                <dd>{Array.isArray(value) ? value.map((v) => duration(Number(v))).join(', ') : duration(Number(value))}</dd>
              </>
            ))}
          </dl>
        </details>
      ) : null}

      <h2 id="faults-title">Faults</h2>
      {faults.error ? <Failure error={faults.error} /> : null}
      {faults.data ? (
        <div class="columns">
          <div>
            <h3>Waiting for requests</h3>
            {faults.data.pending.length === 0 ? (
              <p class="muted" data-testid="pending-faults">
                None: requests are answered as usual.
              </p>
            ) : (
              <ul data-testid="pending-faults">
                {faults.data.pending.map((rule, n) => (
                  <li key={n}>
                    {faultLabel(rule.fault)} × {rule.count ?? 1}
                    {rule.operationId ? ` on ${rule.operationId}` : ' on any operation'}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <div>
            <h3>Applied</h3>
            {Object.keys(faults.data.applied).length === 0 ? (
              <p class="muted" data-testid="applied-faults">
                None yet.
              </p>
            ) : (
              <ul data-testid="applied-faults">
                {Object.entries(faults.data.applied).map(([label, count]) => (
                  <li key={label}>
                    {label}: {count}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      ) : faults.error ? null : (
        <Loading />
      )}

      <form
        class="card"
        aria-labelledby="inject-title"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const operationId = String(data.get('operationId') ?? '');
          const count = Number(data.get('count')) || 1;
          void faultAction.run(() => control.injectFault({ fault: faultFrom(data), count, ...(operationId ? { operationId } : {}) }));
        }}
      >
        <h3 id="inject-title">Inject a fault</h3>
        <div class="fields">
          <FaultFields prefix="" />
          <label>
            Requests
            <input name="count" type="number" min="1" step="1" defaultValue="1" required />
          </label>
          <OperationField id="operationId" />
        </div>
        <div class="actions">
          <button type="submit" disabled={faultAction.busy}>
            Inject
          </button>
          <button type="button" class="secondary" disabled={faultAction.busy} onClick={() => void faultAction.run(() => control.clearFaults())}>
            Clear every fault
          </button>
        </div>
      </form>

      <form
        class="card"
        aria-labelledby="random-title"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const seed = String(data.get('seed') ?? '');
          const only = data.getAll('operationIds').map(String);
          void faultAction.run(() =>
            control.setRandomFaults({
              faults: [{ fault: faultFrom(data, 'random-'), probability: Number(data.get('probability')) }],
              ...(seed ? { seed: Number(seed) } : {}),
              ...(only.length ? { operationIds: only } : {}),
            }),
          );
        }}
      >
        <h3 id="random-title">Random faults</h3>
        <p class="muted">Each API request fails at random with this fault: a chaos run. Setting them replaces earlier random faults.</p>
        <div class="fields">
          <FaultFields prefix="random-" />
          <label>
            Probability
            <input name="probability" type="number" min="0" max="1" step="0.01" defaultValue="0.1" required />
          </label>
          <label>
            Seed
            <input name="seed" type="number" step="1" placeholder="random" />
          </label>
          <OperationField id="operationIds" multiple />
        </div>
        <div class="actions">
          <button type="submit" disabled={faultAction.busy}>
            Fail requests at random
          </button>
          <button type="button" class="secondary" disabled={faultAction.busy} onClick={() => void faultAction.run(() => control.clearRandomFaults())}>
            Stop random faults
          </button>
        </div>
      </form>
      {faultAction.error ? <Failure error={faultAction.error} /> : null}
    </section>
  );
}
