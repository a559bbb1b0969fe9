import type { PaymentsClient } from '../client/secret-client.js';
import { CallStop, longestTimerMs } from '../client/call-stop.js';
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
function aboutCreated(error: unknown, idempotencyKey: string | undefined, receiptNumber: string | undefined): PaymentsError {
  const base = error instanceof PaymentsError ? error : { kind: 'aborted' as const, message: 'Waiting for settlement was aborted.' };
  return new PaymentsError({
    ...(base as PaymentsErrorDetails<PaymentsErrorKind>),
    message: `${base.message} Transaction ${receiptNumber ?? '(no receipt number)'} was created with Idempotency-Key ${idempotencyKey}: do not pay again; look it up for its outcome.`,
    idempotencyKey,
    receiptNumber,
    // Its outcome is not known yet: `recoverTransaction` reads it by its receipt number.
    mustQueryState: true,
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
  const durations = settleDurations(options);
  const created = (await transactions.create(request, { signal: options.signal, idempotencyKey: options.idempotencyKey })) as ApiResult<Transaction>;
  return settle(transactions, created, created, options.signal, durations);
}

function settleDurations(options: SettleOptions): [pollIntervalMs: number, settleTimeoutMs: number] {
  return [duration(options, 'pollIntervalMs', 5_000), duration(options, 'settleTimeoutMs', 120_000)];
}

/**
 * Reads a transaction (`found`: the answer that created it, or a search's) until it leaves pending, within the settle
 * timeout, which also ends a read in flight.
 */
async function settle<C extends ApiResult<Transaction> | undefined>(
  transactions: Pick<TransactionsGroup, 'get'>,
  found: { status: number; data: Transaction },
  created: C,
  signal: AbortSignal | undefined,
  [pollIntervalMs, settleTimeoutMs]: [number, number],
): Promise<{ outcome: Exclude<TransactionOutcome, 'pending'>; transaction: Transaction; created: C }> {
  let transaction = found.data;
  let outcome = transactionOutcome(found);
  const given: unknown = transaction?.receiptNumber;
  const receiptNumber = typeof given === 'string' && given !== '' ? given : undefined;
  // One stop for the waits and the reads: the caller's signal, and the settle timeout, which ends a read in flight too.
  const stop = new CallStop(settleTimeoutMs > longestTimerMs ? Infinity : settleTimeoutMs, signal);
  const timedOut = () => new PaymentsError({ kind: 'timeout', message: `Still pending after ${settleTimeoutMs} ms.` });
  try {
    while (outcome === 'pending') {
      if (!receiptNumber) throw new PaymentsError({ kind: 'protocol', status: undefined, message: 'A pending transaction came without a receipt number to follow.' });
      // No read is started that the timeout would cut short before its wait is over.
      if (stop.remainingMs() < pollIntervalMs) throw timedOut();
      await stop.sleep(pollIntervalMs);
      const read = await transactions.get(receiptNumber, { signal: stop.signal });
      transaction = read.data as Transaction;
      outcome = transactionOutcome({ status: read.status, data: transaction });
    }
  } catch (error) {
    throw aboutCreated(stop.timedOut ? timedOut() : error, created?.idempotencyKey, receiptNumber);
  } finally {
    stop.release();
  }
  return { outcome, transaction, created };
}

export interface RecoverOptions extends Omit<SettleOptions, 'idempotencyKey'> {
  /**
   * How to find the payment by your own reference once its Idempotency-Key can no longer be resent (past
   * `resendUntil`, or no key): the query of `transactions.listForReferenceNumber`. The reference does not publish that
   * search's parameters nor the request field your reference travels in: ask the operator (the payments sandbox
   * matches any query parameter with the request field of the same name).
   */
  reference?: Record<string, string>;
}

/** What an unknown outcome leaves to recover from: a PaymentsError with `mustQueryState`, or its `toJSON()`. */
export type UnknownOutcome = Pick<PaymentsError, 'idempotencyKey' | 'resendUntil'> & Partial<Pick<PaymentsError, 'receiptNumber'>>;

/** A recovered payment: `created` is the answer to the resend, absent when the payment was found by `reference`. */
export type RecoveredTransaction = Omit<SettledTransaction, 'created'> & { created: ApiResult<Transaction> | undefined };

/**
 * Learns the outcome of a payment whose answer was lost (an error with `mustQueryState`), without taking it twice.
 * When the error names the transaction (`receiptNumber`: its settling was cut short), reads it until it settles.
 * Before the error's `resendUntil`, resends `request` under the same Idempotency-Key: the service answers with the
 * original outcome if it got the first request (only the key is compared), and carries the payment out once if it did
 * not; then settles it like `settleTransaction`. Past it (the service forgets keys), looks the payment up by
 * `reference` and resolves to the transaction found (an approved one first), or to `undefined`: none was taken, and
 * the payer may be asked again. An error with `mustQueryState` again means: still unknown, call again later (it keeps
 * the first `resendUntil`).
 */
export async function recoverTransaction(
  transactions: TransactionsGroup & Pick<PaymentsClient['transactions'], 'listForReferenceNumber'>,
  request: TransactionRequest,
  unknown: UnknownOutcome,
  options: RecoverOptions = {},
): Promise<RecoveredTransaction | undefined> {
  const { idempotencyKey, resendUntil, receiptNumber } = unknown;
  const durations = settleDurations(options);
  const { signal, reference } = options;
  // Reading fails: the outcome is still unknown (call again), whatever the read's own error says.
  const stillUnknown = (error: unknown) => (error instanceof PaymentsError ? Object.assign(error, { mustQueryState: true }) : error);
  // The payment exists (settling it was cut short): read it until it settles.
  if (receiptNumber) {
    return transactions
      .get(receiptNumber, { signal })
      .then((read) => settle(transactions, read as ApiResult<Transaction>, undefined, signal, durations))
      .catch((error: unknown) => Promise.reject(stillUnknown(error)));
  }
  if (idempotencyKey && resendUntil && Date.now() < Date.parse(resendUntil)) {
    try {
      return await settleTransaction(transactions, request, { ...options, idempotencyKey });
    } catch (error) {
      // Still unknown: the key's lifetime began with the first request, not with this resend.
      throw error instanceof PaymentsError && error.mustQueryState ? Object.assign(error, { resendUntil }) : error;
    }
  }
  if (!reference) {
    throw inputError('recoverTransaction: the Idempotency-Key can no longer be resent safely (past resendUntil, or none): give reference to look the payment up.');
  }
  const found: Transaction[] = [];
  try {
    for await (const transaction of await transactions.listForReferenceNumber({ query: reference, signal } as never)) found.push(transaction as Transaction);
  } catch (error) {
    throw stillUnknown(error);
  }
  // The most telling first: approved, then pending, then any other (never guessed a decline).
  const rank = (t: Transaction) => ['approved', 'pending'].indexOf(transactionOutcome({ status: 200, data: t })) >>> 0;
  const best = found.sort((a, b) => rank(a) - rank(b))[0];
  return best && settle(transactions, { status: 200, data: best }, undefined, signal, durations);
}
