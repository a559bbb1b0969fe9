import type { MutatingProxy } from './mutating-proxy.js';
import type { MutationReport } from './tolerance-plan.js';

/** The body the client received in the proxy's last exchange: the mutated one, or else the answer as delivered. */
export function deliveredBody(proxy: MutatingProxy, outcome: MutationReport): unknown {
  if (outcome.delivered !== undefined) return outcome.delivered;
  const last = proxy.exchanges.at(-1)?.delivered;
  const text = last?.body.toString('utf8') ?? '';
  return text && /json/.test(String(last?.headers['content-type'])) ? JSON.parse(text) : text || undefined;
}
