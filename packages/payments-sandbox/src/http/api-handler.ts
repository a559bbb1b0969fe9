import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, errorBody } from '../rules/api-error.js';
import { normaliseAddress, type Authenticator } from './auth.js';
import type { InFlightRequests } from './concurrency.js';
import { matchPath, type OperationSpec } from '../contract/contract.js';
import type { ApiResponse, HandlerContext, HandlerTable, SandboxCore } from '../handler-context.js';
import type { ActiveFault, FaultInjector } from './faults.js';
import { scopedIdempotencyKey, type IdempotencyKeys } from './idempotency.js';
import { Links } from '../rules/links.js';
import type { RequestPhases } from './request-phases.js';
import { checkBody, checkParameters, negotiate, parseBody, readBody, refuseQueryOnWrite } from '../contract/request-checks.js';
import { crashPoint } from '../state/crash-points.js';
import type { StoredResponse } from '../state/state.js';
import { StateStoreError, type StateStore } from '../state/store.js';
import type { RequestSeen } from '../state/recent-requests.js';

export interface ApiHandlerParts {
  core: SandboxCore;
  auth: Authenticator;
  idempotency: IdempotencyKeys;
  inFlight: InFlightRequests;
  faults: FaultInjector;
  /** Where a request may wait (tests hold it there), and the timer of the simulated processing delay. */
  phases: RequestPhases;
  handlers: HandlerTable;
  /** Per operation, the resource a request claims while it is processed: a second claim meanwhile gets 409. */
  claims: Record<string, (context: Pick<HandlerContext, 'body'>) => string | undefined>;
  conflict: (claim: string) => ApiError;
  /** The state store: reads catch up on it, writes run through it and are answered once durable. */
  store: Pick<StateStore, 'catchUp' | 'write' | 'commit' | 'catchesUpInWrite'>;
  /** The origin a request's links are under: the one its `Host` names when that names this sandbox, else its own. */
  originOf: (host: string | undefined) => string;
  /** Sees every answer before it is sent (the tests' contract check); returns the problems it found. */
  inspect?: (operation: OperationSpec | undefined, response: StoredResponse) => string[];
  /** Told of every answer sent (the recent requests the dashboard shows). */
  record?: (seen: RequestSeen) => void;
}

const writeMethods = new Set(['PUT', 'POST', 'PATCH', 'DELETE']);

/**
 * The methods of HTTP itself (RFC 9110, and PATCH): another one (PROPFIND, PURGE...) is a method the API does not
 * recognise, answered 501 as the reference's error table says, where a known method the resource lacks gets 405.
 */
export const recognisedMethods: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

export const unrecognisedMethod = (method: string) => new ApiError(501, `${method} is not a request method the API recognises.`);

/**
 * The whole answer, as bytes, to a request whose method Node's parser does not take at all (`FOO /x`): the parser
 * refuses it before there is a request object, so it is written to the socket as is.
 */
export function unrecognisedMethodAnswer(method: string, url: string): string {
  const body = JSON.stringify(errorBody(unrecognisedMethod(method), method, url));
  return `HTTP/1.1 501 Not Implemented\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** Renders an answer as it goes on the wire (and is remembered under an Idempotency-Key). */
function render(response: ApiResponse): StoredResponse {
  const headers: Record<string, string> = { ...response.headers };
  if (response.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    return { status: response.status, headers, body: JSON.stringify(response.json) };
  }
  if (response.text !== undefined) {
    headers['Content-Type'] = response.contentType ?? 'text/plain';
    return { status: response.status, headers, body: response.text };
  }
  return { status: response.status, headers };
}

function failure(error: ApiError, method: string, url: string): StoredResponse {
  return render({ status: error.status, json: errorBody(error, method, url), ...(error.options.headers ? { headers: error.options.headers } : {}) });
}

function send(res: ServerResponse, response: StoredResponse): void {
  // No Access-Control-* header, ever: the reference says browsers may not call this API with script requests.
  const body = response.body === undefined ? undefined : Buffer.from(response.body, 'utf8');
  res.writeHead(response.status, { ...response.headers, 'Content-Length': String(body?.length ?? 0) });
  res.end(body);
}

/**
 * What a caller of the API learns when the state store fails: that it failed, not where it is (the address names a
 * user, a host and a database). The sandbox's log has the whole reason.
 */
function storeFailure(error: StateStoreError): ApiError {
  console.error(`payments sandbox: ${error.message}`);
  return error.nothingDone
    ? new ApiError(503, 'The sandbox cannot reach its state store; nothing was done. Try again shortly.')
    : new ApiError(500, 'The sandbox could not save this change to its state store; look the resource up before sending it again.');
}

/**
 * One API request, in the order the reference's rules apply: the address (404, 405), the key (401, 403), `Accept`
 * (406), query on a write (400), the Idempotency-Key (400), the concurrency limit (429), the body's media type and
 * syntax (415, 400), injected faults, the idempotency record (replay, or 429 while the original is processed),
 * parameters and content (400, 422), a concurrent claim (409), the simulated processing delay, then the operation's
 * handler; the answer of a write is sent once its change is durable.
 *
 * Nothing of the state is touched before the caller is authenticated and the body read: a write holds the store
 * (on a shared one, its lock) only for its handler and the commit, never while it waits for its client. `signal`
 * aborts when the client has gone: wherever the request waits then (for its body, in the processing delay, for its
 * turn at the store), it stops and does nothing more.
 */
export function createApiHandler(parts: ApiHandlerParts) {
  const { core, auth, idempotency, inFlight, faults, phases, handlers, claims, store } = parts;
  const { contract, validator } = core;
  const activeClaims = new Set<string>();

  return async function handleApiRequest(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const method = req.method ?? 'GET';
    const rawUrl = req.url ?? '/';
    const origin = parts.originOf(req.headers.host);
    const requestUrl = origin + rawUrl;
    const url = new URL(rawUrl, origin);
    let operation: OperationSpec | undefined;
    let idempotencyKey: string | undefined;
    let claim: string | undefined;
    // What the recent requests keep of it (masked there).
    let sentKey: string | undefined;
    let sentBody: unknown;
    let replay = false;
    let faultLabel: string | undefined;
    const admitted = inFlight.enter();
    const at = core.clock.now();
    const recorded = (response: StoredResponse, violations: string[]) =>
      parts.record?.({
        at,
        method,
        url: rawUrl,
        operationId: operation?.operationId,
        status: response.status,
        replay,
        idempotencyKey: sentKey,
        fault: faultLabel,
        body: sentBody,
        answer: response.body,
        violations,
      });
    const reply = (response: StoredResponse) => {
      const violations = parts.inspect?.(operation, response) ?? [];
      send(res, response);
      recorded(response, violations);
    };
    // An injected fault that drops the connection: no answer (status 0 in the recent requests).
    const dropped = () => {
      req.socket.destroy();
      recorded({ status: 0, headers: {} }, []);
    };
    try {
      if (!recognisedMethods.has(method)) throw unrecognisedMethod(method);
      const match = matchPath(contract, url.pathname);
      if (!match) throw new ApiError(404, `Nothing matches ${url.pathname}.`);
      operation = match.path.operations.get(method);
      if (!operation) {
        throw new ApiError(405, `${method} is not supported by ${match.path.template}.`, { headers: { Allow: [...match.path.operations.keys()].join(', ') } });
      }
      const caller = auth.authenticate(req.headers.authorization, operation, normaliseAddress(req.socket.remoteAddress), core.clock.now());
      const mediaType = negotiate(req.headers.accept, operation);
      refuseQueryOnWrite(method, rawUrl);
      const header = operation.idempotencyHeader;
      if (header) {
        checkParameters(validator, operation, { path: {}, query: url.searchParams, headers: req.headers }, (p) => p.in === 'header' && p.name === header);
        const sent = req.headers[header.toLowerCase()] as string | undefined;
        sentKey = sent;
        idempotencyKey = sent === undefined ? undefined : scopedIdempotencyKey(caller, sent);
      }
      if (!admitted) throw new ApiError(429, 'More requests are in flight than the service takes at once.');
      const visit = { method, operationId: operation.operationId };
      await phases.reach('body', visit, signal);
      const body = parseBody(operation, req.headers['content-type'], await readBody(req, signal));
      sentBody = body.value;

      const write = writeMethods.has(method);
      const operationId = operation.operationId;
      const context = (): HandlerContext => ({
        core,
        operation: operation!,
        params: match.params,
        query: url.searchParams,
        body: body.value,
        caller,
        ip: normaliseAddress(req.socket.remoteAddress),
        links: new Links(origin + contract.basePath),
        mediaType,
      });
      const handle = (): StoredResponse => {
        try {
          return render(handlers[operationId]!(context()));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return failure(error, method, requestUrl);
        }
      };
      // Parameters and content (400, 422), then a concurrent claim (409): what a write's refusal is.
      const check = (): ApiError | undefined => {
        try {
          checkParameters(validator, operation!, { path: match.params, query: url.searchParams, headers: req.headers }, (p) => p.name !== header);
          checkBody(validator, operation!, body);
          claim = claims[operationId]?.({ body: body.value });
          if (claim !== undefined && activeClaims.has(claim)) {
            const taken = claim;
            claim = undefined;
            throw parts.conflict(taken);
          }
          if (claim !== undefined) activeClaims.add(claim);
          return undefined;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          return error;
        }
      };
      // A write's work under the store's lock: on a shared store another process may have answered its key
      // meanwhile, and then that answer is the answer.
      const writeWork = (key: string | undefined, refusal: ApiError | undefined) => (): StoredResponse => {
        const answered = key === undefined ? undefined : idempotency.recorded(key);
        if (answered) return (idempotency.finish(key!, undefined), answered);
        const made = refusal ? failure(refusal, method, requestUrl) : handle();
        if (key !== undefined) idempotency.finish(key, made);
        return made;
      };
      const locked = { signal, whenLocked: () => phases.reach('locked', visit, signal) };

      let fault: ActiveFault | undefined;
      let response: StoredResponse;
      if (write && store.catchesUpInWrite && core.settings.processingDelayMs === 0) {
        // A store whose writes catch up under their lock (PostgreSQL), and no processing delay to wait out as far as
        // this process knows: no read of its own before the write. The fault, the idempotency record and the delay
        // are decided in the write's batch, on what the other processes wrote, in the order of the reference's rules.
        const key = idempotencyKey;
        // This process's own request with the key still in flight (429 after any fault, below); else the key is held.
        const busy = key !== undefined && !idempotency.reserve(key);
        if (busy) idempotencyKey = undefined; // the original owns the key
        const refusal = busy ? undefined : check();
        if (!busy && !refusal) await phases.reach('processing', visit, signal);
        await phases.reach('queued', visit, signal);
        type Decided = { fault?: ActiveFault } & (
          | { kind: 'faulted' | 'busy' | 'delay' }
          | { kind: 'replay' | 'answered'; response: StoredResponse }
          | { kind: 'refused'; refusal: ApiError }
        );
        const decided = await store.write((): Decided => {
          const taken = faults.armed(operationId) ? faults.take(operationId) : undefined;
          if (taken?.when === 'before' || busy) {
            if (key !== undefined && !busy) idempotency.finish(key, undefined);
            return { fault: taken, kind: busy && taken?.when !== 'before' ? 'busy' : 'faulted' };
          }
          const answered = key === undefined ? undefined : idempotency.recorded(key);
          if (answered) return (idempotency.finish(key!, undefined), { fault: taken, kind: 'replay', response: answered });
          // A processing delay set through another process: waited out after this batch, outside the lock.
          if (!refusal && core.settings.processingDelayMs > 0) return { fault: taken, kind: 'delay' };
          // A refusal with no key to remember it under changes nothing.
          if (refusal && key === undefined) return { fault: taken, kind: 'refused', refusal };
          return { fault: taken, kind: 'answered', response: writeWork(key, refusal)() };
        }, locked);
        fault = decided.fault;
        faultLabel = fault?.label;
        switch (decided.kind) {
          case 'faulted':
            idempotencyKey = undefined; // freed in the batch
            if (fault!.drop) return dropped();
            throw new ApiError(fault!.status!, `Injected by the sandbox's control interface (${fault!.label}).`);
          case 'busy':
            throw new ApiError(429, `A request with this ${operation.idempotencyHeader} is still being processed.`);
          case 'refused':
            throw decided.refusal;
          case 'replay':
            // Answered once the batch that found it committed, the log durable past it (the record was written again).
            idempotencyKey = undefined;
            replay = true;
            response = decided.response;
            res.once('finish', () => crashPoint('replay:answered'));
            break;
          case 'delay':
            await phases.wait(core.settings.processingDelayMs, signal);
            await phases.reach('queued', visit, signal);
            response = await store.write(writeWork(key, refusal), locked);
            idempotencyKey = undefined;
            break;
          case 'answered':
            response = decided.response;
            idempotencyKey = undefined;
        }
      } else {
        // What the other processes on a shared store wrote (injected faults, settings, the records) is seen from here on.
        await store.catchUp({ joinRunning: write });
        fault = faults.armed(operationId) ? await store.write(() => faults.take(operationId), { signal }) : undefined;
        faultLabel = fault?.label;
        if (fault?.when === 'before') {
          if (fault.drop) return dropped();
          throw new ApiError(fault.status!, `Injected by the sandbox's control interface (${fault.label}).`);
        }

        const known = !write || idempotencyKey === undefined ? ({ kind: 'new' } as const) : idempotency.begin(idempotencyKey);
        if (known.kind === 'busy') {
          idempotencyKey = undefined; // the original still owns the key
          throw new ApiError(429, `A request with this ${operation.idempotencyHeader} is still being processed.`);
        } else if (known.kind === 'replay') {
          const key = idempotencyKey!;
          idempotencyKey = undefined;
          replay = true;
          response = known.response;
          // The original's change may not be durable yet: the replay is answered once it is, like the original.
          crashPoint('replay:waiting');
          if (store.catchesUpInWrite) {
            // On a shared store the record may be another process's, committed there but its log not yet flushed (its
            // COMMIT does not wait for the disk; it answers after its own flush). Read in a write of this process, the
            // record is written again, and this write is answered only once the log is flushed past it.
            response = (await store.write(() => idempotency.recorded(key), { signal })) ?? response;
          } else {
            await store.commit();
          }
          res.once('finish', () => crashPoint('replay:answered'));
        } else {
          // Checked before the processing; a write's refusal is answered (and remembered under its key) in its write.
          const refusal = check();
          if (!refusal) {
            await phases.reach('processing', visit, signal);
            await phases.wait(core.settings.processingDelayMs, signal);
          }
          const key = idempotencyKey;
          if (!write || (refusal && key === undefined)) {
            // A read, or a refusal with no key to remember it under: nothing changes, no write.
            if (refusal) throw refusal;
            response = handle();
          } else {
            await phases.reach('queued', visit, signal);
            response = await store.write(writeWork(key, refusal), locked);
            idempotencyKey = undefined;
          }
        }
      }
      if (fault?.when === 'after') {
        if (fault.drop) return dropped();
        return reply(failure(new ApiError(fault.status!, `Injected by the sandbox's control interface after the work was done (${fault.label}).`), method, requestUrl));
      }
      reply(response);
    } catch (error) {
      // An unexpected failure frees the key: nothing was done that a resend should be given back.
      if (idempotencyKey !== undefined) idempotency.finish(idempotencyKey, undefined);
      // A client that has gone gets no answer: there is nobody to give it to.
      if (signal.aborted) return;
      const refusal =
        error instanceof ApiError
          ? error
          : error instanceof StateStoreError
            ? storeFailure(error)
            : new ApiError(500, `The sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent && !res.destroyed) {
        // Read (and forget) what is left of the body, so that the connection stays usable.
        if (!req.readableEnded) req.resume();
        reply(failure(refusal, method, requestUrl));
      }
    } finally {
      if (claim !== undefined) activeClaims.delete(claim);
      inFlight.leave();
    }
  };
}
