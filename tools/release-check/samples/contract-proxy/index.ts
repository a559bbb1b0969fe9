// The proxy's library side, as a merchant's own test harness uses it: replay a recorded flow against a sandbox and
// print each violation the way the CLI does.
import { formatViolation, replayHar, ruleNames, type Har, type Violation } from '@paykit/contract-proxy';

export async function replayAgainst(har: Har, target: string, secretKey: string): Promise<number> {
  const result = await replayHar(har, { target, secretKey });
  return result.mismatches;
}

export const line = (violation: Violation): string => formatViolation(violation);
export const idempotencyRule: 'idempotency-key' = ruleNames.idempotencyKey;

// @ts-expect-error a violation names the side it was found on.
formatViolation({ rule: 'accept', side: 'both', operation: 'getTransaction', location: 'header.Accept', message: '' });
