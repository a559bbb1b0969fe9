/** Small statistics helpers shared by the benchmarks. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
}

export const median = (values) => quantile(values, 0.5);

export const format = (value, digits = 1) => value.toFixed(digits);

/**
 * Runs every arm once per round, `warmup + rounds` times, and returns each arm's per-call times in ms (warm-up
 * rounds dropped), index i of every list coming from the same round. The order of the arms rotates from round to
 * round so that none always runs first (cold) or right after the same neighbour.
 */
export async function interleaved(arms, { rounds, warmup }) {
  const names = Object.keys(arms);
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < warmup + rounds; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const started = performance.now();
      await arms[name]();
      const elapsed = performance.now() - started;
      if (round >= warmup) times[name].push(elapsed);
    }
  }
  return times;
}

/** Per-round ratios of one arm's times to another's: their median is robust to rounds disturbed by the machine. */
export const pairedRatios = (times, baseline) => times.map((time, i) => time / baseline[i]);
