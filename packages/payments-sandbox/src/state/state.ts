import type { components } from '../generated/control/openapi.js';

/**
 * Everything the sandbox remembers, as plain JSON-ready data: what `--state FILE` writes and reads back. Times are
 * milliseconds on the sandbox clock. Records keep the merchant's request as sent where the reference does not
 * publish the resource's fields, so that a read gives back what was written.
 */

export type AccountType = 'CREDIT_CARD' | 'DIRECT_DEBIT' | 'DIRECT_DEBIT_NZ' | 'WALLET_A_PAY' | 'WALLET_B_PAY';

export interface TokenRecord {
  id: string;
  createdAt: number;
  ip: string;
  accountType: AccountType;
  supplierBusinessCode: string;
  /** State of the single-use token machine: `created`, `consumed` (`expired` is derived from the clock). */
  consumedAt?: number;
  /** Masked details, as the token model shows them (`creditCard`, `bankAccount`, `nzBankAccount`). */
  details: Record<string, unknown>;
  /** Card tokens: the scheme, for surcharges and transaction searches. */
  cardScheme?: string;
  threeDS2AuthRequired: boolean;
  /** Outcome of the 3D Secure machine; absent until an authentication call. */
  transStatus?: string;
  /** What the sandbox's card convention makes the issuer answer. */
  threeDSOutcome?: string;
}

export type TransactionStatus = 'Approved' | 'Declined' | 'Pending' | 'Voided' | 'Suspended';

export interface TransactionRecord {
  receiptNumber: string;
  createdAt: number;
  transactionType: string;
  status: TransactionStatus;
  /** Where a pending transaction goes when the banking network answers. */
  settlesTo?: 'Approved' | 'Declined';
  principal: number;
  surcharge: number;
  currency: string;
  supplierBusinessCode: string;
  refunded: number;
  accountType?: AccountType | 'ALIAS';
  accountToken?: string;
  customerId?: string;
  aliasId?: string;
  originalReceiptNumber?: string;
  ipAddress: string | null;
  comment: string | null;
  metadata?: Record<string, unknown>;
  /** The request as sent (without card details), for the searches whose parameters the reference does not publish. */
  request: Record<string, unknown>;
  /** When a pending payment settled, and when it was voided (sandbox clock): a transaction's timeline shows them. */
  settledAt?: number;
  voidedAt?: number;
}

export interface CustomerRecord {
  customerId: string;
  createdAt: number;
  /** The merchant's fields as sent (`customerNumber`, `customerName` and any other). */
  fields: Record<string, unknown>;
}

export interface AccountRecord {
  accountToken: string;
  createdAt: number;
  customerId?: string;
  /** From the token it was registered with, when it was. */
  accountType?: AccountType;
  cardScheme?: string;
  /** Masked details of that token (`creditCard`, `bankAccount`, `nzBankAccount`). */
  details: Record<string, unknown>;
  /** The merchant's other fields, as sent. */
  fields: Record<string, unknown>;
  disabled?: boolean;
}

export interface OwnedRecord {
  id: string;
  createdAt: number;
  customerId?: string;
  fields: Record<string, unknown>;
}

export interface AliasRecord {
  id: string;
  createdAt: number;
  aliasAddress: string;
  customerId: string;
  type: 'STATIC' | 'SINGLE';
  supplierBusinessCode: string;
  paymentAmount?: number;
  currency: string;
  status: string;
  statusDescription?: string;
}

export interface WebhookSubscription {
  id: string;
  url: string;
  eventTypes: string[];
  secret: string;
  basicAuth?: { username: string; password: string };
}

export interface DeliveryAttempt {
  at: number;
  status?: number;
  /** The start of the endpoint's answer body. */
  answer?: string;
  error?: string;
  /** The signature header the attempt carried. */
  signature?: string;
  /** Asked for through the control interface ("deliver again"). */
  manual?: boolean;
}

export interface WebhookDelivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  url: string;
  /** The notification body exactly as signed and sent. */
  body: string;
  createdAt: number;
  delivered: boolean;
  attempts: DeliveryAttempt[];
}

export type TaskKind = 'alias.complete-registration' | 'alias.complete-deregistration' | 'transaction.settle' | 'webhook.deliver';

/** Work the sandbox does later, on its clock: kept as data so that it survives a restart. */
export interface ScheduledTask {
  id: string;
  dueAt: number;
  kind: TaskKind;
  ref: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
}

export interface IdempotencyRecord {
  key: string;
  createdAt: number;
  response: StoredResponse;
}

type ControlSchemas = components['schemas'];

/**
 * What the control interface changes, kept in the state like the rest, so that every sandbox process on one shared
 * store sees it and a reset forgets it: the settings changed at run time (over the start options), and the faults
 * waiting for requests.
 */
export interface SettingsRecord {
  id: 'settings';
  changed: Partial<ControlSchemas['Settings']>;
}

export interface FaultsRecord {
  id: 'faults';
  /** Rules in the order they were injected, each with the count left. */
  queue: (ControlSchemas['FaultRule'] & { count: number })[];
  /** Random faults, with the state of their seeded generator (so that a run replays across processes too). */
  random?: ControlSchemas['RandomFaults'] & { generator: number };
  /** How many faults were applied, by label (`503 before`, `drop after`...). */
  applied: Record<string, number>;
}

export type ControlRecord = SettingsRecord | FaultsRecord;

/** The collections of the state, each keyed by the record's identifier, in creation order. */
export interface Collections {
  tokens: Map<string, TokenRecord>;
  transactions: Map<string, TransactionRecord>;
  customers: Map<string, CustomerRecord>;
  accounts: Map<string, AccountRecord>;
  recurringPayments: Map<string, OwnedRecord>;
  paymentFiles: Map<string, OwnedRecord>;
  paymentBatches: Map<string, OwnedRecord>;
  mandateAgreements: Map<string, OwnedRecord>;
  aliases: Map<string, AliasRecord>;
  idempotency: Map<string, IdempotencyRecord>;
  subscriptions: Map<string, WebhookSubscription>;
  deliveries: Map<string, WebhookDelivery>;
  tasks: Map<string, ScheduledTask>;
  control: Map<string, ControlRecord>;
}

export interface SandboxState extends Collections {
  /** Milliseconds added to the real clock by `advance`. */
  clockOffsetMs: number;
  /** The last number handed out by `nextNumber`. */
  sequence: number;
}

export const collectionNames = [
  'tokens',
  'transactions',
  'customers',
  'accounts',
  'recurringPayments',
  'paymentFiles',
  'paymentBatches',
  'mandateAgreements',
  'aliases',
  'idempotency',
  'subscriptions',
  'deliveries',
  'tasks',
  'control',
] as const satisfies readonly (keyof Collections)[];

export function emptyState(): SandboxState {
  const collections = Object.fromEntries(collectionNames.map((name) => [name, new Map()])) as unknown as Collections;
  return { clockOffsetMs: 0, sequence: 0, ...collections };
}

/** The next number of the sandbox's one sequence, for identifiers that look like the service's. */
export function nextNumber(state: SandboxState): number {
  state.sequence += 1;
  return state.sequence;
}
