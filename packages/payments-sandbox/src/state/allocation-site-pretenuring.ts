import v8 from 'node:v8';

let turnedOff = false;

/**
 * A sandbox process writing to PostgreSQL turns off V8's allocation-site pretenuring, once, unless the process was
 * started with a choice of its own about it (the option, or its `--no-` form, in `process.execArgv` or `NODE_OPTIONS`).
 *
 * Why (measured, not read anywhere): with it, V8 decides to allocate objects of request-scoped code (Node's own HTTP
 * objects among them) directly in the old generation, and every young object they point to then survives the
 * young-generation collections until the next full one. `node bench/postgres-gc.bench.mjs` pays two pairs of processes
 * on one cluster in the same rounds, one as set here and one started with the option on: 0.53-0.59 MB promoted per
 * young-generation collection and 2 ms pauses here, 2.2 MB and 4.6-4.9 ms with it on, and 1.14-1.21x the payments per
 * second here. It is a heuristic of the garbage collector only: nothing computed changes.
 *
 * Through Node's public `v8.setFlagsFromString`, called when the store opens, before the sandbox serves anything. Node's
 * documentation warns that a setting changed after the VM has started may behave unpredictably or do nothing; this one
 * was measured doing what it says (the figures above are with it set this way), and the process's own options, when
 * they name it, are left to decide. A runtime without it (another engine) is left as it is.
 */
export function turnOffAllocationSitePretenuring(options: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)]): boolean {
  if (turnedOff || options.some((option) => option.includes('allocation-site-pretenuring'))) return false;
  try {
    v8.setFlagsFromString('--no-allocation-site-pretenuring');
  } catch {
    return false;
  }
  turnedOff = true;
  return true;
}
