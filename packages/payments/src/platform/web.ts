// The browser's and workers' side of ./node.ts (package.json's `imports` picks it for the `browser`, `worker` and
// `workerd` conditions): their fetch takes no undici dispatcher and words its errors without Node's codes or undici's
// proxy messages, their timers hold nothing open, and they print objects without util.inspect.

export const takesDispatcher = false;
export const inspectKey: symbol | undefined = undefined;
export const unref: ((timer: unknown) => void) | undefined = undefined;
export const refusedByProxy: ((error: unknown) => string | undefined) | undefined = undefined;
export const sentNothing: ((error: unknown) => boolean | undefined) | undefined = undefined;
