// What every consumer does with its module-scoped clients, one step at a time. The worker runs one step per request
// to it, the scripts run them in a row: the same calls, the same outcomes in JSON, whatever the runtime.
import { isPaymentsError, settleTransaction } from '@paykit/payments';
import { createRawClient } from '@paykit/payments/raw';

/** The header the harness's front server holds requests on (see src/sandbox.ts): an answer that never comes. */
export const stallHeader = 'x-paykit-smoke-stall';

/**
 * The order the harness expects: an answer (a POST), then, in a second request, a call that only its deadline ends,
 * then answers again through each other entry point: the list iterator, the raw client (its own entry point, on
 * the secret client's transport) and a settled payment (a card token from the publishable client, then
 * `settleTransaction`).
 */
export const stepNames = ['create', 'stall', 'list', 'raw', 'settle'];

/** The outcome of a call as plain JSON: what it answered, or the error's kind (never the error: it holds the URL). */
async function outcome(call) {
  try {
    return await call();
  } catch (error) {
    if (!isPaymentsError(error)) return { thrown: String(error) };
    return { kind: error.kind, status: error.status, attempts: error.attempts };
  }
}

async function settle(clients) {
  const card = { supplierBusinessCode: 'TEST_BUSINESS', accountType: 'CREDIT_CARD', cardholderName: 'Runtime Smoke', cardNumber: '4111111111111111', expiryDateMonth: '12', expiryDateYear: '2040' };
  const token = await clients.publishable.singleUseTokens.create(card);
  const payment = { transactionType: 'PAYMENT', singleUseTokenId: token.data.singleUseTokenId, supplierBusinessCode: 'TEST_BUSINESS', principalAmount: 10, currency: 'AUD', eci: 'INTERNET', entryMode: 'STORED_CREDENTIAL' };
  const settled = await settleTransaction(clients.secret.transactions, payment, { pollIntervalMs: 50 });
  return { outcome: settled.outcome, status: settled.created.status };
}

/** Runs the step called `name` with `clients` (`secret`, `publishable`); `customerNumber` keeps runtimes apart. */
export function runStep(clients, name, customerNumber) {
  const { secret } = clients;
  switch (name) {
    case 'create':
      return outcome(async () => {
        const created = await secret.customers.create({ customerNumber, customerName: 'Runtime smoke' });
        return { status: created.status, attempts: created.attempts, idempotencyKey: created.idempotencyKey };
      });
    case 'stall':
      // The runtime's own customer number as the header's value: the harness counts each runtime's held call apart.
      return outcome(() => secret.facility.get({ headers: { [stallHeader]: customerNumber } }));
    case 'list':
      return outcome(async () => {
        const found = [];
        for await (const customer of await secret.customers.search({ query: { customerNumber } })) found.push(customer.customerNumber);
        return { found };
      });
    case 'raw':
      return outcome(async () => ({ status: (await createRawClient(secret).GET('/')).response.status }));
    case 'settle':
      return outcome(() => settle(clients));
    default:
      return Promise.resolve({ thrown: `no step ${name}` });
  }
}
