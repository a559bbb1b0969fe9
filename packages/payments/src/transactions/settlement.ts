import type { PaymentsClient } from '../client/secret-client.js';
import type { ApiResult } from '../client/api-result.js';
import { PaymentsError } from '../errors/payments-error.js';
import type { components } from '../generated/openapi.js';

type Transaction = components['schemas']['Transaction'];
type TransactionRequest = components['schemas']['TransactionRequest'];

export type TransactionOutcome = 'approved' | 'declined' | 'pending';

/**
 * Reads the outcome of a transaction answer. The spec leaves `status` an open string; the reference names two
 * values: `Approved`, and pending for a transaction still waiting for the banking network (a 202 answer). Any other
 * status of a created transaction is a decline.
 */
export function transactionOutcome(result: Pick<ApiResult<Transaction | undefined>, 'status' | 'data'>): TransactionOutcome {
  // Read as text whatever the service sent: a status of another type is no known status.
  const status: unknown = result.data?.status;
  if (result.status === 202 || (typeof status === 'string' && status.toLowerCase() === 'pending')) return 'pending';
  return status === 'Approved' ? 'approved' : 'declined';
}

export interface SettleOptions {
  /** Time between two reads of a pending transaction. Default 5 000 ms. */
  pollIntervalMs?: number;
  /** How long to wait for a pending transaction to settle. Default 120 000 ms. */
  settleTimeoutMs?: number;
  signal?: AbortSignal;
  idempotencyKey?: string;
}

export interface SettledTransaction {
  outcome: Exclude<TransactionOutcome, 'pending'>;
  transaction: Transaction;
  /** The answer to the POST (201 or 202), with the idempotency key it was sent with. */
  created: ApiResult<Transaction>;
}

type TransactionsGroup = Pick<PaymentsClient['transactions'], 'create' | 'get'>;

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => new PaymentsError({ kind: 'aborted', message: 'Waiting for the transaction to settle was aborted.', cause: signal?.reason });
    if (signal?.aborted) return reject(aborted());
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Takes a payment and resolves once its outcome is known: at once on a 201, or by reading the transaction until it
 * leaves pending after a 202. Past `settleTimeoutMs` it throws a `timeout` PaymentsError that names the receipt
 * number to query later; the payment itself is not undone.
 */
export async function settleTransaction(
  transactions: TransactionsGroup,
  request: TransactionRequest,
  options: SettleOptions = {},
): Promise<SettledTransaction> {
  const { pollIntervalMs = 5_000, settleTimeoutMs = 120_000, signal } = options;
  const created = (await transactions.create(request, { signal, idempotencyKey: options.idempotencyKey })) as ApiResult<Transaction>;
  let transaction = created.data;
  let outcome = transactionOutcome(created);
  const given: unknown = transaction?.receiptNumber;
  const receiptNumber = typeof given === 'string' && given !== '' ? given : undefined;
  const deadline = Date.now() + settleTimeoutMs;
  while (outcome === 'pending') {
    if (!receiptNumber) {
      throw new PaymentsError({ kind: 'server', status: created.status, message: 'A pending transaction came without a receipt number to follow.' });
    }
    if (Date.now() + pollIntervalMs > deadline) {
      throw new PaymentsError({
        kind: 'timeout',
        message: `Transaction ${receiptNumber} was still pending after ${settleTimeoutMs} ms; query it later for its outcome.`,
        idempotencyKey: created.idempotencyKey,
      });
    }
    await wait(pollIntervalMs, signal);
    const read = await transactions.get(receiptNumber, { signal });
    transaction = read.data as Transaction;
    outcome = transactionOutcome({ status: read.status, data: transaction });
  }
  return { outcome, transaction, created };
}
