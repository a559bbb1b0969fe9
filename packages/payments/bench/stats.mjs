/** Small statistics helpers shared by the benchmarks. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const format = (value, digits = 1) => value.toFixed(digits);

/** Runs `a` and `b` alternately `rounds` times (after `warmup` rounds) and returns the per-call times of each, in ms. */
export async function paired(a, b, { rounds, warmup }) {
  const times = { a: [], b: [] };
  for (let i = 0; i < warmup + rounds; i++) {
    // Alternate which goes first so that neither always benefits from a warm connection or cache.
    const order = i % 2 ? [['a', a], ['b', b]] : [['b', b], ['a', a]];
    for (const [name, run] of order) {
      const started = performance.now();
      await run();
      if (i >= warmup) times[name].push(performance.now() - started);
    }
  }
  return times;
}
