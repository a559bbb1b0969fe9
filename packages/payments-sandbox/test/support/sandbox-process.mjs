// `node sandbox-process.mjs STATE_FILE SECRET_KEY PUBLISHABLE_KEY [CONTROL_TOKEN]`: the built sandbox as a process of its own on a
// free port, as `paykit-mock payments-sandbox --state FILE` runs it; prints its address, then runs until SIGTERM.
import { startPaymentsSandbox } from '../../dist/index.js';

const [stateFile, secret, publishable, controlToken] = process.argv.slice(2);
const sandbox = await startPaymentsSandbox({
  port: 0,
  stateFile,
  keys: { secret: [secret], publishable: [publishable] },
  ...(controlToken ? { controlToken } : {}),
});
process.on('SIGTERM', async () => {
  await sandbox.close();
  process.exit(0);
});
console.log(`payments-sandbox ready: ${sandbox.url}`);
