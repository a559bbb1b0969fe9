import { collectionNames, emptyState, type Collections, type SandboxState } from './state.js';

/**
 * The state file of earlier versions (`paykit-payments-sandbox-state`, version 1): the whole state as one JSON
 * document, rewritten on every change. The sandbox now keeps its state in a database (`sqlite-store.ts`); this
 * reads such a file once, to migrate it, and writes one for tests of that migration.
 */

const format = 'paykit-payments-sandbox-state';
const version = 1;

/** The field that keys each collection's records. */
const keyOf: Record<keyof Collections, string> = {
  tokens: 'id',
  transactions: 'receiptNumber',
  customers: 'customerId',
  accounts: 'accountToken',
  recurringPayments: 'id',
  paymentFiles: 'id',
  paymentBatches: 'id',
  mandateAgreements: 'id',
  aliases: 'id',
  idempotency: 'key',
  subscriptions: 'id',
  deliveries: 'id',
  tasks: 'id',
  control: 'id',
};

/** Collections a version 1 file may lack (they came later): read as empty. */
const later = new Set<keyof Collections>(['control']);

export class StateFileError extends Error {
  override readonly name = 'StateFileError';
}

export function serialiseState(state: SandboxState): string {
  const collections = Object.fromEntries(collectionNames.map((name) => [name, [...state[name].values()]]));
  return JSON.stringify({ format, version, clockOffsetMs: state.clockOffsetMs, sequence: state.sequence, collections });
}

export function parseState(text: string, path: string): SandboxState {
  let data: { format?: unknown; version?: unknown; clockOffsetMs?: unknown; sequence?: unknown; collections?: Record<string, unknown> };
  try {
    data = JSON.parse(text) as typeof data;
  } catch (error) {
    throw new StateFileError(`${path} is not a sandbox state file: ${(error as Error).message}`);
  }
  if (data.format !== format || data.version !== version) throw new StateFileError(`${path} is not a version ${version} sandbox state file`);
  const state = emptyState();
  state.clockOffsetMs = Number(data.clockOffsetMs) || 0;
  state.sequence = Number(data.sequence) || 0;
  for (const name of collectionNames) {
    const records = data.collections?.[name];
    if (records === undefined && later.has(name)) continue;
    if (!Array.isArray(records)) throw new StateFileError(`${path}: ${name} is missing`);
    const collection = state[name] as Map<string, unknown>;
    for (const record of records) collection.set(String((record as Record<string, unknown>)[keyOf[name]]), record);
  }
  return state;
}
