/**
 * Test-only points of a write, read from the environment once; none is set in normal use.
 *
 * - `PAYKIT_SANDBOX_CRASH_AT=step` (or `step@N`, the N-th time the step is reached) makes the process kill itself
 *   with SIGKILL at a named step, so that the crash tests hit each step every time instead of by timing luck.
 * - `PAYKIT_SANDBOX_HOLD_AT=step@N` holds the N-th visit of a step until the process gets SIGUSR2, and says so on
 *   stderr (`paykit-sandbox-test: holding step`): a test opens the window a resend must not slip through, and closes
 *   it once the resend is in it.
 * - `PAYKIT_SANDBOX_REPORT=step,step` prints `paykit-sandbox-test: step` on stderr each time one is reached, so that
 *   a test in another process waits for the event rather than for a while.
 *
 * Steps: `commit:before` (rows written, transaction not committed), `commit:after` (committed, nobody answered yet),
 * `replay:answered` (a resend's replayed answer has been handed to the connection), `commit` (a write is about to
 * start), `replay:waiting` (a resend waits for the commit of the answer it replays).
 */
const [crashStep, crashCount] = (process.env.PAYKIT_SANDBOX_CRASH_AT ?? '').split('@');
const [holdStep, holdCount] = (process.env.PAYKIT_SANDBOX_HOLD_AT ?? '').split('@');
const reported = new Set((process.env.PAYKIT_SANDBOX_REPORT ?? '').split(',').filter(Boolean));
let reached = 0;
let held = 0;

const say = (what: string) => process.stderr.write(`paykit-sandbox-test: ${what}\n`);

export function crashPoint(step: string): void {
  if (reported.has(step)) say(step);
  if (!crashStep || step !== crashStep) return;
  reached += 1;
  if (reached === (Number(crashCount) || 1)) process.kill(process.pid, 'SIGKILL');
}

/** Resolves at once, or, at the step and visit `PAYKIT_SANDBOX_HOLD_AT` names, once the process gets SIGUSR2. */
export function holdPoint(step: string): Promise<void> | undefined {
  if (reported.has(step)) say(step);
  if (!holdStep || step !== holdStep) return undefined;
  held += 1;
  if (held !== (Number(holdCount) || 1)) return undefined;
  return new Promise((resolve) => {
    process.once('SIGUSR2', () => resolve());
    say(`holding ${step}`);
  });
}
