/**
 * Test-only: `PAYKIT_SANDBOX_CRASH_AT=step` (or `step@N`, the N-th time the step is reached) makes the process kill
 * itself with SIGKILL at a named step of a write, so that the crash tests hit each step every time instead of by
 * timing luck. `PAYKIT_SANDBOX_COMMIT_DELAY_MS` holds every write that long before it starts, which opens the window
 * a resend with the same Idempotency-Key must not slip through. Neither is set in normal use; both are read once.
 *
 * Steps: `commit:before` (rows written, transaction not committed), `commit:after` (committed, nobody answered yet),
 * `replay:answered` (a resend's replayed answer has been handed to the connection).
 */
const [crashStep, crashCount] = (process.env.PAYKIT_SANDBOX_CRASH_AT ?? '').split('@');
let reached = 0;

export function crashPoint(step: string): void {
  if (!crashStep || step !== crashStep) return;
  reached += 1;
  if (reached === (Number(crashCount) || 1)) process.kill(process.pid, 'SIGKILL');
}

export const testCommitDelayMs = Math.max(0, Number(process.env.PAYKIT_SANDBOX_COMMIT_DELAY_MS) || 0);
