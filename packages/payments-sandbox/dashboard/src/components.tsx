// Small pieces every view uses.
import type { ComponentChildren } from 'preact';
import type { ControlError, RecordedRequest } from './api.js';
import { json } from './format.js';

/** What a view shows when the control interface refused or failed. */
export function Failure({ error }: { error: ControlError }) {
  if (error.status === 401) {
    return (
      <div class="notice error" role="alert">
        <h2>Not signed in</h2>
        <p>
          Open the dashboard with the sign-in link the sandbox printed when it started. The session ends when the
          sandbox stops.
        </p>
        <p class="muted">{error.message}</p>
      </div>
    );
  }
  return (
    <div class="notice error" role="alert">
      <p>
        The sandbox answered {error.status || 'nothing'}: {error.message}
      </p>
    </div>
  );
}

export function Loading({ children }: { children?: ComponentChildren }) {
  return (
    <p class="muted" aria-busy="true">
      {children ?? 'Loading…'}
    </p>
  );
}

/** A status as a coloured label: approved / pending / failed at a glance, the text for everyone. */
export function Status({ value }: { value: string | undefined }) {
  const text = value ?? '';
  const tone = /approved|registered|delivered|^2\d\d$/i.test(text)
    ? 'good'
    : /pending|processing|retrying|submitted/i.test(text)
      ? 'wait'
      : /declined|rejected|failed|suspended|refused|error|^[45]\d\d$/i.test(text)
        ? 'bad'
        : 'plain';
  return <span class={`badge ${tone}`}>{text}</span>;
}

/** A JSON value, folded away behind its summary. */
export function JsonBlock({ value, summary, open }: { value: unknown; summary: string; open?: boolean }) {
  return (
    <details class="json" open={open}>
      <summary>{summary}</summary>
      <pre tabIndex={0}>{json(value)}</pre>
    </details>
  );
}

/** A page's heading and a line under it. */
export function Heading({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="heading">
      <h1>{title}</h1>
      {children ? <p class="muted">{children}</p> : null}
    </div>
  );
}

/** A recorded request's body (masked by the sandbox) and what its answer did wrong against the contract. */
export function RequestDetails({ request }: { request: RecordedRequest }) {
  return (
    <>
      {request.body !== null && request.body !== undefined ? <JsonBlock value={request.body} summary="Request body (card data masked)" /> : null}
      {request.violations.length ? (
        <ul class="violations">
          {request.violations.map((v, n) => (
            <li key={n}>{v}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
