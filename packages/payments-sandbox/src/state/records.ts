import { ApiError } from '../rules/api-error.js';
import type { Link } from '../rules/links.js';
import type { OwnedRecord } from './state.js';
import { keepable } from '../rules/sensitive.js';

/**
 * Resources whose fields the reference does not publish (recurring payments, payment files and batches, mandate
 * agreements, accounts, most of a customer) are open objects in the contract. The sandbox answers with what the
 * merchant sent, its identifier under the name the resource's path uses, the owning `customerId` where there is one,
 * and `links`: nothing it would have to invent.
 */

export type Fields = Record<string, unknown>;

export const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The merchant's fields as the sandbox keeps them: without the ones it owns, and with what the contract marks
 * sensitive (a card number, a security code, at any depth) kept only as `rules/sensitive.ts` says.
 */
export function merchantFields(body: unknown, owned: readonly string[]): Fields {
  if (!isObject(body)) return {};
  return keepable(Object.fromEntries(Object.entries(body).filter(([name]) => !owned.includes(name) && name !== 'links')));
}

export function openModel(idName: string, record: OwnedRecord, links: Link[]): Fields {
  return { ...record.fields, [idName]: record.id, ...(record.customerId !== undefined ? { customerId: record.customerId } : {}), links };
}

export function found<T>(record: T | undefined, what: string, id: string): T {
  if (record === undefined) throw new ApiError(404, `No ${what} ${id}.`);
  return record;
}

/**
 * Newest first: the order of every list of the sandbox. Records of one millisecond come in the reverse of the order
 * they were created in (the order the maps hold them), so that the one created last comes first there too.
 */
export const newestFirst = <T extends { createdAt: number }>(items: Iterable<T>): T[] =>
  [...items].reverse().sort((a, b) => b.createdAt - a.createdAt);

/** Identifiers of the sandbox's own shape for resources whose identifiers the reference does not show. */
export const prefixedId = (prefix: string, n: number) => `${prefix}-${String(n).padStart(10, '0')}`;
