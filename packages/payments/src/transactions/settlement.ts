import type { PaymentsClient } from '../client/secret-client.js';
import { CallStop } from '../client/call-stop.js';
import type { ApiResult } from '../client/api-result.js';
import { inputError, PaymentsError, type PaymentsErrorDetails, type PaymentsErrorKind } from '../errors/payments-error.js';
import type { components } from '../generated/openapi.js';
// A namespace import, so that bundles keep only the rules this module reads.
import * as rules from '../generated/rules.js';

type Transaction = components['schemas']['Transaction'];
type TransactionRequest = components['schemas']['TransactionRequest'];

/** The values of a transaction's `status` the contract names (its `transactionStatus` rule). */
export interface TransactionStatusValues {
  readonly approved: readonly string[];
  readonly pending: readonly string[];
  readonly declined: readonly string[];
}

/** `declined` is an outcome only once the contract names a status as a decline: the reference names none today. */
type Declined = typeof rules.transactionStatus.declined extends readonly [] ? never : 'declined';

/**
 * How a transaction stands: `approved`; `pending` (the banking network has not answered); `undetermined`, not approved
 * and not known to be declined (a status the contract does not name, such as one of a transaction suspended by fraud
 * screening, or none at all): the payer may still be charged, so do not take the payment again; look the transaction
 * up by its receipt number. `declined` joins them once the contract lists a decline status.
 */
export type TransactionOutcome = 'approved' | 'pending' | 'undetermined' | Declined;

/** The outcome of an answer under the given status values: exact values, except pending, matched in any case. */
export function outcomeOf(httpStatus: number, status: unknown, values: TransactionStatusValues): TransactionOutcome | 'declined' {
  // Read as text whatever the service sent: a status of another type is no known status.
  const text = typeof status === 'string' ? status : undefined;
  if (httpStatus === 202 || values.pending.some((pending) => pending.toLowerCase() === text?.toLowerCase())) return 'pending';
  if (text === undefined) return 'undetermined';
  if (values.approved.includes(text)) return 'approved';
  return values.declined.includes(text) ? 'declined' : 'undetermined';
}

/**
 * Reads the outcome of a transaction answer. The spec leaves `status` an open string; its `transactionStatus` rule
 * names the approved, pending and declined values, and any other status is `undetermined`: never a guessed decline.
 */
export function transactionOutcome(result: { readonly status: number; readonly data?: Pick<Transaction, 'status'> | undefined }): TransactionOutcome {
  return outcomeOf(result.status, result.data?.status, rules.transactionStatus) as TransactionOutcome;
}

export interface SettleOptions {
  /** Time between two reads of a pending transaction: finite, 0 or more. Default 5 000 ms. */
  pollIntervalMs?: number;
  /** How long to wait for a pending transaction to settle: finite, 0 or more. Default 120 000 ms. */
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

/**
 * Whatever stops the settling of a created transaction, as an error that names it: its receipt number and the
 * Idempotency-Key it was created with, so that the caller looks it up rather than pays again. A PaymentsError keeps
 * its kind and fields; anything else is the caller's signal firing during the wait between two reads.
 */
function aboutCreated(error: unknown, created: ApiResult<Transaction>, receiptNumber: string | undefined): PaymentsError {
  const { idempotencyKey } = created;
  const base = error instanceof PaymentsError ? error : { kind: 'aborted' as const, message: 'Waiting for settlement was aborted.' };
  return new PaymentsError({
    ...(base as PaymentsErrorDetails<PaymentsErrorKind>),
    message: `${base.message} Transaction ${receiptNumber ?? '(no receipt number)'} was created with Idempotency-Key ${idempotencyKey}: do not pay again; look it up for its outcome.`,
    idempotencyKey,
    receiptNumber,
    cause: error,
  });
}

/**
 * A duration option, checked before the payment is taken: NaN (an unset variable through `Number()`) would poll with
 * no pause and never time out, and Infinity would never give up.
 */
function duration(options: SettleOptions, name: 'pollIntervalMs' | 'settleTimeoutMs', fallback: number): number {
  const value: unknown = options[name];
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  throw inputError(`settleTransaction: ${name} must be a finite number of milliseconds, 0 or more; got ${String(value)}.`);
}

/**
 * Takes a payment and resolves once its outcome is known: at once on a 201, or by reading the transaction until it
 * leaves pending after a 202. Once the transaction exists, every error (`timeout` past `settleTimeoutMs`, `aborted`,
 * a failed read) names its receipt number and Idempotency-Key to look it up later; the payment itself is not undone.
 */
export async function settleTransaction(
  transactions: TransactionsGroup,
  request: TransactionRequest,
  options: SettleOptions = {},
): Promise<SettledTransaction> {
  const pollIntervalMs = duration(options, 'pollIntervalMs', 5_000);
  const settleTimeoutMs = duration(options, 'settleTimeoutMs', 120_000);
  const { signal } = options;
  const created = (await transactions.create(request, { signal, idempotencyKey: options.idempotencyKey })) as ApiResult<Transaction>;
  let transaction = created.data;
  let outcome = transactionOutcome(created);
  const given: unknown = transaction?.receiptNumber;
  const receiptNumber = typeof given === 'string' && given !== '' ? given : undefined;
  const deadline = Date.now() + settleTimeoutMs;
  // The waits between reads end early when the caller's signal fires: the client's own stop, without a deadline of its
  // own (settleTimeoutMs is checked before each wait).
  const stop = new CallStop(Infinity, signal);
  try {
    while (outcome === 'pending') {
      if (!receiptNumber) throw new PaymentsError({ kind: 'protocol', status: undefined, message: 'A pending transaction came without a receipt number to follow.' });
      if (Date.now() + pollIntervalMs > deadline) {
        throw new PaymentsError({ kind: 'timeout', message: `Still pending after ${settleTimeoutMs} ms.` });
      }
      await stop.sleep(pollIntervalMs);
      const read = await transactions.get(receiptNumber, { signal });
      transaction = read.data as Transaction;
      outcome = transactionOutcome({ status: read.status, data: transaction });
    }
  } catch (error) {
    throw aboutCreated(error, created, receiptNumber);
  } finally {
    stop.release();
  }
  return { outcome, transaction, created };
}
