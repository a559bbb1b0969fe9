// The browser's and workers' side of ./node.ts (package.json's `imports` picks it for the `browser`, `worker` and
// `workerd` conditions): their fetch takes no undici dispatcher and words its errors without Node's codes or undici's
// proxy messages, their timers hold nothing open, they set no limit on a signal's listeners, and they print objects
// without util.inspect.
//
// Constants only (a function as a `const` too): esbuild inlines the `undefined` and `false` below into their readers,
// and drops the code they guard, only from such a module (a function declaration here made the browser bundle of
// the publishable entry 86 B gz larger). The readers test them in conditions (`?:`, `&&`), not `if` statements, which
// esbuild would leave behind as a bare `void 0;` or `!1;`. test/bundle-size.test.ts checks that no guard is left in it.
import type { Follower } from './node.js';

/** Ends `call` when `signal` aborts, until the function it returns is called: a listener per call. */
export const follow = (signal: AbortSignal, call: Follower): (() => void) => {
  const ended = () => call.end(signal.reason);
  signal.addEventListener('abort', ended);
  return () => signal.removeEventListener('abort', ended);
};

export const takesDispatcher = false;
export const inspectKey: symbol | undefined = undefined;
export const unref: (<T>(timer: T) => T) | undefined = undefined;
export const refusedByProxy: ((error: unknown) => number | undefined) | undefined = undefined;
export const sentNothing: ((error: unknown) => boolean | undefined) | undefined = undefined;
