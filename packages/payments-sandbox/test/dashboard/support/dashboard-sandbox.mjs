// `node dashboard-sandbox.mjs`: the built sandbox as a process of its own on a free port, checking its answers
// against the contract, as a developer runs it beside their tests. It prints what a developer sees: its address, its
// keys, and the dashboard's sign-in link; then runs until SIGTERM.
import { startPaymentsSandbox } from '../../../dist/index.js';

const sandbox = await startPaymentsSandbox({ port: 0, checkResponses: true });
process.on('SIGTERM', async () => {
  await sandbox.close();
  process.exit(0);
});
const signIn = sandbox.dashboardUrl;
console.log(`secret key: ${sandbox.keys.secret[0]}`);
console.log(`publishable key: ${sandbox.keys.publishable[0]}`);
console.log(`dashboard: ${signIn}`);
console.log(`payments-sandbox ready: ${sandbox.url}`);
