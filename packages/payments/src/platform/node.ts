// What a call can meet only under Node (undici's fetch, Node's timers, its listener limit and util.inspect), and Bun
// and Deno, which follow Node. package.json's `imports` gives bundlers for a browser or a worker `./web.ts` instead, which has none of
// it: a smaller bundle that behaves the same wherever these cases cannot arise (test/platform-builds.test.ts).

/** Node's fetch reads undici's `dispatcher` (a proxy, a CA of your own, a client certificate) from the init. */
export const takesDispatcher = true;

/** The key under which `util.inspect` (console.log) finds how to print an object. */
export const inspectKey: symbol | undefined = Symbol.for('nodejs.util.inspect.custom');

/** Keeps a deadline's timer from holding the process open (an in-flight request keeps it alive by its socket); gives the timer back. */
export const unref: (<T>(timer: T) => T) | undefined = (timer) => {
  (timer as { unref?: () => void }).unref?.();
  return timer;
};

/** What follows a caller's signal: a call, which its abort ends. */
export interface Follower {
  end(reason: unknown): void;
}

/**
 * The calls that follow each caller's signal, which has one listener for all of them (`followed`), not one per call:
 * many calls sharing a signal (a page's, a request's) would pass Node's listener limit, and Node would warn
 * (MaxListenersExceededWarning) where a bare fetch does not.
 */
const following = new WeakMap<AbortSignal, Set<Follower>>();

function followed(this: AbortSignal): void {
  for (const call of following.get(this)!) call.end(this.reason);
}

/** Ends `call` when `signal` aborts, until the function it returns is called. */
export function follow(signal: AbortSignal, call: Follower): () => void {
  let calls = following.get(signal);
  if (!calls) {
    following.set(signal, (calls = new Set()));
    signal.addEventListener('abort', followed);
  }
  calls.add(call);
  return () => {
    if (calls.delete(call) && !calls.size) {
      signal.removeEventListener('abort', followed);
      following.delete(signal);
    }
  };
}

/** The first of `error` and its causes (a few deep: Node's fetch wraps undici's errors) that `test` finds something in. */
function inCauses<T>(error: unknown, test: (error: Error & { code?: unknown }) => T | undefined): T | undefined {
  for (let depth = 0; error && depth < 5; depth++, error = (error as Error).cause) {
    const found = test(error as Error);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The status of a proxy's refusal (407 or 403): undici's ProxyAgent words a refused CONNECT tunnel, and a refusal of a
 * request it forwards, so (under Node's own fetch, two causes deep).
 */
export const refusedByProxy: ((error: unknown) => number | undefined) | undefined = (error) =>
  inCauses(error, (cause) => Number(/Proxy .*\((40[37])\)/.exec(String(cause))?.[1]) || undefined);

/**
 * Whether a request that failed cannot have reached the service: the connection was refused, the name did not
 * resolve or the TLS handshake refused the certificate, which all happen before a byte of the request is sent.
 */
export const sentNothing: ((error: unknown) => boolean | undefined) | undefined = (error) =>
  inCauses(error, (cause) => /^E(CONNREFUSED|NOTFOUND|AI_AGAIN)$|CERT|VERIFY/.test(String(cause.code)) || undefined);
