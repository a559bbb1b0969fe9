/**
 * Stopping a request of Node's fetch without handing fetch an AbortSignal.
 *
 * Node's fetch (undici) accepts a `dispatcher` in its init and sends the request through its `dispatch(options,
 * handler)`. A dispatcher that passes the request on to the real one, with the handler wrapped, learns the abort
 * function undici gives the handler when the request reaches its socket, and can end the request there, or fail it
 * at once if it has not reached a socket yet. That is all a deadline needs, for a fraction of the cost of a signal
 * (see the package's benchmark). The wrapper speaks both of undici's handler interfaces: the one fetch uses up to now
 * (`onConnect`, `onHeaders`...) and the controller-based one of undici 7 (`onRequestStart`...).
 */

/** The dispatcher fetch uses when its init names none: undici keeps it on this global symbol. */
const globalDispatcherKey = Symbol.for('undici.globalDispatcher.1');

export interface Dispatcher {
  dispatch(options: unknown, handler: object): boolean;
}

export function globalDispatcher(): Dispatcher | undefined {
  return (globalThis as Record<symbol, Dispatcher | undefined>)[globalDispatcherKey];
}

/** What stops a dispatched request: its abort function once known, else an error given to its handler at once. */
export interface StoppableRequest {
  stop(reason: Error): void;
}

type Abort = (reason?: Error) => void;

interface CallbackHandler {
  onConnect(abort: Abort, context?: unknown): void;
  onResponseStarted?(): void;
  onHeaders(statusCode: number, headers: unknown, resume: () => void, statusText?: string): boolean;
  onData(chunk: unknown): boolean;
  onComplete(trailers: unknown): void;
  onError(error: Error): void;
  onUpgrade?(statusCode: number, headers: unknown, socket: unknown): void;
  onBodySent?(chunk: unknown): void;
  onRequestSent?(): void;
}

interface RequestController {
  abort(reason: Error): void;
}

/** The controller a handler is shown when its request fails before undici made one: already aborted. */
function stoppedController(reason: Error): RequestController {
  return { abort() {}, pause() {}, resume() {}, aborted: true, paused: false, reason } as RequestController;
}

interface ControllerHandler {
  onRequestStart?(controller: RequestController, context: unknown): void;
  onRequestUpgrade?(controller: RequestController, statusCode: number, headers: unknown, socket: unknown): void;
  onResponseStart?(controller: RequestController, statusCode: number, headers: unknown, statusMessage?: string): void;
  onResponseData?(controller: RequestController, chunk: unknown): void;
  onResponseEnd?(controller: RequestController, trailers: unknown): void;
  onResponseError?(controller: RequestController, error: Error): void;
}

/** Wraps fetch's callback handler (undici 6 and 7's fetch). */
class StoppableCallbackHandler implements StoppableRequest {
  private abort: Abort | undefined;
  private stopReason: Error | undefined;
  private failed = false;

  constructor(private readonly handler: CallbackHandler) {}

  stop(reason: Error): void {
    if (this.abort) return this.abort(reason);
    // Not on a socket yet (connecting, or queued): fail the request now, and abort it when undici gets to it.
    if (this.stopReason) return;
    this.stopReason = reason;
    this.onError(reason);
  }

  onConnect(abort: Abort, context?: unknown): void {
    if (this.stopReason) return abort(this.stopReason);
    this.abort = abort;
    return this.handler.onConnect(abort, context);
  }
  onResponseStarted(): void {
    return this.handler.onResponseStarted?.();
  }
  onHeaders(statusCode: number, headers: unknown, resume: () => void, statusText?: string): boolean {
    return this.handler.onHeaders(statusCode, headers, resume, statusText);
  }
  onData(chunk: unknown): boolean {
    return this.handler.onData(chunk);
  }
  onComplete(trailers: unknown): void {
    return this.handler.onComplete(trailers);
  }
  onError(error: Error): void {
    // The handler hears of one failure only: a request failed early errors again when undici aborts it later.
    if (this.failed) return;
    this.failed = true;
    return this.handler.onError(error);
  }
  onUpgrade(statusCode: number, headers: unknown, socket: unknown): void {
    return this.handler.onUpgrade?.(statusCode, headers, socket);
  }
  onBodySent(chunk: unknown): void {
    return this.handler.onBodySent?.(chunk);
  }
  onRequestSent(): void {
    return this.handler.onRequestSent?.();
  }
}

/** Wraps a controller-based handler (undici 7's interface). */
class StoppableControllerHandler implements StoppableRequest {
  private controller: RequestController | undefined;
  private stopReason: Error | undefined;
  private failed = false;

  constructor(private readonly handler: ControllerHandler) {}

  stop(reason: Error): void {
    if (this.controller) return this.controller.abort(reason);
    if (this.stopReason) return;
    this.stopReason = reason;
    this.onResponseError(stoppedController(reason), reason);
  }

  onRequestStart(controller: RequestController, context: unknown): void {
    if (this.stopReason) return controller.abort(this.stopReason);
    this.controller = controller;
    return this.handler.onRequestStart?.(controller, context);
  }
  onRequestUpgrade(controller: RequestController, statusCode: number, headers: unknown, socket: unknown): void {
    return this.handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }
  onResponseStart(controller: RequestController, statusCode: number, headers: unknown, statusMessage?: string): void {
    return this.handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }
  onResponseData(controller: RequestController, chunk: unknown): void {
    return this.handler.onResponseData?.(controller, chunk);
  }
  onResponseEnd(controller: RequestController, trailers: unknown): void {
    return this.handler.onResponseEnd?.(controller, trailers);
  }
  onResponseError(controller: RequestController, error: Error): void {
    if (this.failed) return;
    this.failed = true;
    return this.handler.onResponseError?.(controller, error);
  }
}

/** Makes the handler undici is given in place of fetch's, through which the request can be stopped. */
export type HandlerWrapper = (handler: object) => StoppableRequest & object;

/**
 * The handler undici is given in place of fetch's. Passed to the transport by the server-side client only: the
 * browser entry has no undici, and does not carry this code.
 */
export function stoppableHandler(handler: object): StoppableRequest & object {
  return typeof (handler as CallbackHandler).onConnect === 'function'
    ? new StoppableCallbackHandler(handler as CallbackHandler)
    : new StoppableControllerHandler(handler as ControllerHandler);
}
