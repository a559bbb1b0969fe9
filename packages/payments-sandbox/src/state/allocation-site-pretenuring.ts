import v8 from 'node:v8';

/**
 * A sandbox process writing to PostgreSQL turns off V8's allocation-site pretenuring, once, unless the process was
 * started with a choice of its own about it (the option, or its `--no-` form, in `process.execArgv` or `NODE_OPTIONS`).
 *
 * Why (measured, not read anywhere): with it, V8 decides to allocate objects of request-scoped code (Node's own HTTP
 * objects among them) directly in the old generation, and every young object they point to then survives the
 * young-generation collections until the next full one. Two sandbox processes on one database under the bench's load
 * (`node --trace-gc-nvp`): 2.2 MB promoted per young-generation collection and pauses of 5 ms with it, 0.56 MB and
 * 2 ms without (what an in-memory sandbox shows with it), and `--trace-pretenuring` names 27 allocation sites
 * tenured against 4 in an in-memory sandbox. It is a heuristic of the garbage collector only: nothing computed changes.
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

let turnedOff = false;
