import { mayActFor } from '../handler-context.js';
import { ApiError, invalidField } from '../rules/api-error.js';
import { paymentOutcome, settlementDelayMs, type PaymentOutcome } from '../rules/conventions.js';
import type { ApiResponse, HandlerContext, HandlerTable, SandboxCore } from '../handler-context.js';
import { businessInBody } from './facility.js';
import type { Links } from '../rules/links.js';
import { exactCents, fromCents, maxAmountText, maxCents, money } from '../rules/money.js';
import { isObject, merchantFields } from '../state/records.js';
import { keepable } from '../rules/sensitive.js';
import { nextNumber, type AccountType, type TransactionRecord, type TransactionStatus } from '../state/state.js';
import { tokenForUse } from './tokens.js';

type Body = Record<string, unknown>;

/**
 * Payments, refunds and voids. The reference publishes a payment from a single-use token; the sandbox's reading of
 * the other uses (a refund is `transactionType: "REFUND"` with `originalReceiptNumber` and `principalAmount`; a
 * payment may also name a stored `accountToken` or a `customerId`) is documented in the sandbox guide.
 */

const codes = {
  Approved: { responseCode: '00', responseDescription: 'Approved or completed successfully', summaryCode: '0' },
  Voided: { responseCode: '00', responseDescription: 'Approved or completed successfully', summaryCode: '0' },
  Declined: { responseCode: '05', responseDescription: 'Do not honour', summaryCode: '1' },
  Pending: { responseDescription: 'Awaiting the banking network' },
  // The status text of a transaction suspended by fraud screening is OUR assumption (the reference does not give it).
  Suspended: { responseDescription: 'Suspended by fraud screening' },
} as const;

const isoTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const dayMs = 86_400_000;
const isoDates = new Map<number, string>();
/** The UTC date of a time, kept per day: a search by settlement date reads it on every transaction it passes. */
function isoDate(ms: number): string {
  const day = Math.floor(ms / dayMs);
  let date = isoDates.get(day);
  if (date === undefined) isoDates.set(day, (date = new Date(day * dayMs).toISOString().slice(0, 10)));
  return date;
}

const settlesAt = (t: TransactionRecord) => t.createdAt + settlementDelayMs;
const total = (t: TransactionRecord) => t.principal + t.surcharge;
const chargeTypes = new Set(['PAYMENT', 'PREAUTH']);

export function isVoidable(t: TransactionRecord, now: number): boolean {
  return t.status === 'Approved' && chargeTypes.has(t.transactionType) && t.accountType !== 'ALIAS' && t.refunded === 0 && now < settlesAt(t);
}

export function isRefundable(t: TransactionRecord): boolean {
  return t.status === 'Approved' && t.transactionType === 'PAYMENT' && t.refunded < total(t);
}

/** The transaction model the reference shows, from a record; `now` is the sandbox clock (one instant for a whole list). */
export function transactionModel(core: SandboxCore, t: TransactionRecord, links: Links, now = core.clock.now()): Body {
  const alias = t.aliasId ? core.state.aliases.get(t.aliasId) : undefined;
  const business = core.facility.businesses.get(t.supplierBusinessCode);
  return {
    receiptNumber: t.receiptNumber,
    status: t.status,
    ...codes[t.status],
    transactionType: t.transactionType,
    principalAmount: money(t.principal, t.currency),
    surchargeAmount: money(t.surcharge, t.currency),
    totalAmount: money(total(t), t.currency),
    fraudGuardResult: null,
    transactionTime: isoTime(t.createdAt),
    settlementDate: isoDate(settlesAt(t)),
    ...(alias ? { source: 'ALIAS' } : {}),
    voidable: isVoidable(t, now),
    refundable: isRefundable(t),
    comment: t.comment,
    ipAddress: t.ipAddress,
    debtRepayment: t.request.debtRepayment === true,
    supplierBusinessCode: t.supplierBusinessCode,
    ...(alias
      ? {
          aliasBillerAccount: { displayName: business?.aliasDisplayName ?? t.supplierBusinessCode, currency: t.currency },
          aliasAccount: { accountType: 'ALIAS', customerId: alias.customerId, id: alias.id, aliasAddress: alias.aliasAddress },
        }
      : {}),
    ...(t.originalReceiptNumber ? { originalReceiptNumber: t.originalReceiptNumber } : {}),
    ...(t.metadata ? { metadata: t.metadata } : {}),
    links: links.self(`/transactions/${encodeURIComponent(t.receiptNumber)}`),
  };
}

/** Every field `transactionModel` may give, whether or not it gives it for a given record. */
export const transactionModelNames: ReadonlySet<string> = new Set([
  'receiptNumber', 'status', 'responseCode', 'responseDescription', 'summaryCode', 'transactionType', 'principalAmount', 'surchargeAmount',
  'totalAmount', 'fraudGuardResult', 'transactionTime', 'settlementDate', 'source', 'voidable', 'refundable', 'comment', 'ipAddress',
  'debtRepayment', 'supplierBusinessCode', 'aliasBillerAccount', 'aliasAccount', 'originalReceiptNumber', 'metadata', 'links',
]);

type FieldReader = (t: TransactionRecord, now: number, links: Links) => unknown;

/** Reads a field the model gives only for some records: the model's value where it has one, else the request's. */
const orRequest = (name: string, read: (t: TransactionRecord) => unknown): FieldReader => (t) => read(t) ?? t.request[name];
const code = (name: 'responseCode' | 'responseDescription' | 'summaryCode') => orRequest(name, (t) => (codes[t.status] as Record<string, string | undefined>)[name]);

/**
 * The fields of the model read without modelling the transaction, as `transactionModel` gives them (the ones it
 * leaves out for some records fall back to the request's field of that name, as in `{ ...request, ...model }`).
 */
const fieldReaders: Record<string, FieldReader> = {
  receiptNumber: (t) => t.receiptNumber,
  status: (t) => t.status,
  responseCode: code('responseCode'),
  responseDescription: code('responseDescription'),
  summaryCode: code('summaryCode'),
  transactionType: (t) => t.transactionType,
  principalAmount: (t) => money(t.principal, t.currency),
  surchargeAmount: (t) => money(t.surcharge, t.currency),
  totalAmount: (t) => money(total(t), t.currency),
  fraudGuardResult: () => null,
  transactionTime: (t) => isoTime(t.createdAt),
  settlementDate: (t) => isoDate(settlesAt(t)),
  voidable: (t, now) => isVoidable(t, now),
  refundable: (t) => isRefundable(t),
  comment: (t) => t.comment,
  ipAddress: (t) => t.ipAddress,
  debtRepayment: (t) => t.request.debtRepayment === true,
  supplierBusinessCode: (t) => t.supplierBusinessCode,
  originalReceiptNumber: orRequest('originalReceiptNumber', (t) => t.originalReceiptNumber || undefined),
  metadata: orRequest('metadata', (t) => t.metadata || undefined),
  links: (t, _, links) => links.self(`/transactions/${encodeURIComponent(t.receiptNumber)}`),
};

/**
 * The reader of the top-level field `name` of a transaction's model, or of its request where the model has no such
 * field: what `{ ...t.request, ...transactionModel(t) }[name]` is. A search reads its criteria with it, so that it
 * models only the page it returns (issue 22: a search over 50k transactions modelled every one of them first); the
 * alias fields are read from the whole model.
 */
export function transactionField(core: SandboxCore, links: Links, now: number, name: string): (t: TransactionRecord) => unknown {
  const read = Object.hasOwn(fieldReaders, name) ? fieldReaders[name]! : undefined;
  if (read) return (t) => read(t, now, links);
  if (!transactionModelNames.has(name)) return (t) => t.request[name];
  return (t) => ({ ...t.request, ...transactionModel(core, t, links, now) } as Body)[name];
}

/** A transaction the caller may see: another business's, for a restricted key, is "nothing matches". */
export function visibleTransaction(context: HandlerContext, receiptNumber: string): TransactionRecord {
  const t = context.core.state.transactions.get(receiptNumber);
  if (!t || !mayActFor(context.caller, t.supplierBusinessCode)) throw new ApiError(404, `No transaction ${receiptNumber}.`);
  return t;
}

export function newTransaction(core: SandboxCore, fields: Omit<TransactionRecord, 'receiptNumber' | 'createdAt' | 'refunded'>): TransactionRecord {
  const record: TransactionRecord = { receiptNumber: String(1_000_000_000 + nextNumber(core.state)), createdAt: core.clock.now(), refunded: 0, ...fields };
  core.state.transactions.set(record.receiptNumber, record);
  core.activity.emit('transaction', record.receiptNumber);
  return record;
}

function amountIn(body: Body, field = 'principalAmount'): number {
  const amount = body[field];
  if (typeof amount !== 'number') throw invalidField(field, amount, 'is required');
  if (!(amount > 0)) throw invalidField(field, amount, 'must be a positive amount with at most two decimal places');
  if (amount * 100 > maxCents) throw invalidField(field, amount, `must be at most ${maxAmountText} (the sandbox's limit)`);
  const cents = exactCents(amount);
  if (cents === undefined) throw invalidField(field, amount, 'must be a positive amount with at most two decimal places');
  return cents;
}

/** How the payment is paid: a single-use token, a stored account, or a customer's stored account. */
function meansOfPayment(context: HandlerContext, body: Body) {
  const { core } = context;
  if (body.singleUseTokenId !== undefined) {
    const { token, consume } = tokenForUse(core, body.singleUseTokenId);
    return { accountType: token.accountType, scheme: token.cardScheme, business: token.supplierBusinessCode, consume };
  }
  const account = (() => {
    if (body.accountToken !== undefined) {
      const found = typeof body.accountToken === 'string' ? core.state.accounts.get(body.accountToken) : undefined;
      if (!found) throw invalidField('accountToken', body.accountToken, 'is not an account of the facility');
      return found;
    }
    if (body.customerId !== undefined) {
      const customer = typeof body.customerId === 'string' ? core.state.customers.get(body.customerId) : undefined;
      if (!customer) throw invalidField('customerId', body.customerId, 'is not a customer of the facility');
      const stored = [...core.state.accounts.values()].find((a) => a.customerId === customer.customerId && !a.disabled);
      if (!stored) throw invalidField('customerId', body.customerId, 'has no stored account to pay with');
      return stored;
    }
    throw new ApiError(422, 'The request names no means of payment: singleUseTokenId, accountToken or customerId.', {
      errors: [{ fieldName: 'singleUseTokenId', fieldValue: '', messages: ['is required to take a payment'] }],
    });
  })();
  if (account.disabled) throw invalidField('accountToken', account.accountToken, 'is disabled');
  return { accountType: account.accountType, scheme: account.cardScheme, business: undefined, accountToken: account.accountToken, customerId: account.customerId, consume: () => {} };
}

function surchargeCents(principal: number, percentage: string | undefined): number {
  const rate = Number(percentage ?? 0);
  return Number.isFinite(rate) ? Math.round((principal * rate) / 100) : 0;
}

function created(context: HandlerContext, t: TransactionRecord, status: number): ApiResponse {
  const json = transactionModel(context.core, t, context.links);
  return { status, json, ...(status === 201 ? { headers: { Location: context.links.href(`/transactions/${t.receiptNumber}`) } } : {}) };
}

/** The status a payment is created with, by the outcome the sandbox's conventions give it. */
const statusOf: Record<Exclude<PaymentOutcome, 'method-not-accepted'>, TransactionStatus> = {
  approved: 'Approved',
  declined: 'Declined',
  suspended: 'Suspended',
  'pending-approved': 'Pending',
  'pending-declined': 'Pending',
};

function takePayment(context: HandlerContext, body: Body, transactionType: string): ApiResponse {
  const { core } = context;
  const principal = amountIn(body);
  const means = meansOfPayment(context, body);
  const business = businessInBody(context, body.supplierBusinessCode ?? means.business);
  const outcome = paymentOutcome(principal);
  if (outcome === 'method-not-accepted') {
    throw new ApiError(422, 'The facility does not accept this payment method (the sandbox refuses amounts ending in .54).', {
      errors: [{ fieldName: 'principalAmount', fieldValue: String(fromCents(principal)), messages: ['the payment method is not accepted by the facility'] }],
    });
  }
  means.consume();
  const pending = outcome.startsWith('pending');
  const t = newTransaction(core, {
    transactionType,
    status: statusOf[outcome],
    ...(pending ? { settlesTo: outcome === 'pending-declined' ? 'Declined' : 'Approved' } : {}),
    principal,
    surcharge: means.scheme ? surchargeCents(principal, business.surcharges[means.scheme]) : 0,
    currency: typeof body.currency === 'string' ? body.currency : business.currency,
    supplierBusinessCode: business.supplierBusinessCode,
    accountType: means.accountType as AccountType | undefined,
    ...(means.accountToken ? { accountToken: means.accountToken } : {}),
    ...(means.customerId ? { customerId: means.customerId } : {}),
    ipAddress: typeof body.ipAddress === 'string' ? body.ipAddress : null,
    comment: null,
    ...(isObject(body.metadata) ? { metadata: keepable(body.metadata) } : {}),
    request: merchantFields(body, []),
  });
  if (pending) core.clock.schedule('transaction.settle', t.receiptNumber, core.settings.pendingSettlesAfterMs);
  return created(context, t, pending ? 202 : 201);
}

function refund(context: HandlerContext, body: Body): ApiResponse {
  const original = typeof body.originalReceiptNumber === 'string' ? context.core.state.transactions.get(body.originalReceiptNumber) : undefined;
  if (!original || !mayActFor(context.caller, original.supplierBusinessCode)) {
    throw invalidField('originalReceiptNumber', body.originalReceiptNumber, 'is not a transaction of the facility');
  }
  if (!isRefundable(original)) throw invalidField('originalReceiptNumber', original.receiptNumber, 'is not refundable');
  const amount = amountIn(body);
  const left = total(original) - original.refunded;
  if (amount > left) {
    throw invalidField('principalAmount', fromCents(amount), `exceeds what is left to refund (${money(left, original.currency).displayAmount})`);
  }
  original.refunded += amount;
  context.core.activity.emit('transaction', original.receiptNumber);
  const t = newTransaction(context.core, {
    transactionType: 'REFUND',
    status: 'Approved',
    principal: amount,
    surcharge: 0,
    currency: original.currency,
    supplierBusinessCode: original.supplierBusinessCode,
    ...(original.accountType ? { accountType: original.accountType } : {}),
    ...(original.accountToken ? { accountToken: original.accountToken } : {}),
    ...(original.customerId ? { customerId: original.customerId } : {}),
    originalReceiptNumber: original.receiptNumber,
    ipAddress: typeof body.ipAddress === 'string' ? body.ipAddress : null,
    comment: null,
    ...(isObject(body.metadata) ? { metadata: keepable(body.metadata) } : {}),
    request: merchantFields(body, []),
  });
  return created(context, t, 201);
}

/** Capture, cancellation and the other uses that act on an earlier transaction: recorded against it. */
function followUp(context: HandlerContext, body: Body, transactionType: string): ApiResponse {
  const original = typeof body.originalReceiptNumber === 'string' ? context.core.state.transactions.get(body.originalReceiptNumber) : undefined;
  if (!original || !mayActFor(context.caller, original.supplierBusinessCode)) {
    throw invalidField('originalReceiptNumber', body.originalReceiptNumber, 'is not a transaction of the facility');
  }
  const principal = body.principalAmount === undefined ? original.principal : amountIn(body);
  const t = newTransaction(context.core, {
    transactionType,
    status: 'Approved',
    principal,
    surcharge: 0,
    currency: original.currency,
    supplierBusinessCode: original.supplierBusinessCode,
    ...(original.accountType ? { accountType: original.accountType } : {}),
    ...(original.customerId ? { customerId: original.customerId } : {}),
    originalReceiptNumber: original.receiptNumber,
    ipAddress: typeof body.ipAddress === 'string' ? body.ipAddress : null,
    comment: null,
    request: merchantFields(body, []),
  });
  return created(context, t, 201);
}

/** A pending payment hears from the banking network. */
export function settle(core: SandboxCore, receiptNumber: string): void {
  const t = core.state.transactions.get(receiptNumber);
  if (!t || t.status !== 'Pending') return;
  t.status = t.settlesTo ?? 'Approved';
  delete t.settlesTo;
  t.settledAt = core.clock.now();
  core.activity.emit('transaction', t.receiptNumber);
}

export const transactionHandlers: HandlerTable = {
  createTransaction: (context) => {
    const body = context.body as Body;
    const transactionType = typeof body.transactionType === 'string' ? body.transactionType : 'PAYMENT';
    if (transactionType === 'REFUND') return refund(context, body);
    if (!chargeTypes.has(transactionType) && body.originalReceiptNumber !== undefined) return followUp(context, body, transactionType);
    return takePayment(context, body, transactionType);
  },

  getTransaction: (context) => ({
    status: 200,
    json: transactionModel(context.core, visibleTransaction(context, context.params.receiptNumber!), context.links),
  }),

  voidTransaction: (context) => {
    const t = visibleTransaction(context, context.params.receiptNumber!);
    if (!isVoidable(t, context.core.clock.now())) {
      throw new ApiError(422, `Transaction ${t.receiptNumber} cannot be voided (status ${t.status}${t.refunded ? ', refunded' : ''}).`, {
        errors: [{ fieldName: 'receiptNumber', fieldValue: t.receiptNumber, messages: ['is not voidable'] }],
      });
    }
    t.status = 'Voided';
    t.voidedAt = context.core.clock.now();
    context.core.activity.emit('transaction', t.receiptNumber);
    return { status: 200, json: transactionModel(context.core, t, context.links) };
  },
};
