import { randomBytes } from 'node:crypto';
import { rules } from '../generated/rules.js';
import { ApiError } from '../rules/api-error.js';
import type { KeyType, OperationSpec } from '../contract/contract.js';
import type { Caller } from '../handler-context.js';

export interface SecretKeyOptions {
  key: string;
  /** When the key was created; it expires after the secret key lifetime of the contract's rules. Default: start-up. */
  createdAt?: number | Date;
  /** The businesses (supplier business codes) the key is restricted to; others get 404 or 422. */
  businesses?: string[];
  /** The addresses the key may be used from (the key option "check requests against IP address whitelist"). */
  ipAllowList?: string[];
}

export interface SandboxKeyOptions {
  /** Secret keys; one is generated when none is given. */
  secret?: (string | SecretKeyOptions)[];
  /** Publishable keys (they do not expire); one is generated when none is given. */
  publishable?: string[];
}

export interface SandboxKeys {
  secret: SecretKeyOptions[];
  publishable: string[];
  /** Whether the keys were generated at start (and may be printed) rather than given. */
  generated: { secret: boolean; publishable: boolean };
}

const generate = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;

export function resolveKeys(options: SandboxKeyOptions = {}): SandboxKeys {
  const secret = (options.secret ?? []).map((key) => (typeof key === 'string' ? { key } : key));
  const publishable = [...(options.publishable ?? [])];
  const generated = { secret: secret.length === 0, publishable: publishable.length === 0 };
  if (generated.secret) secret.push({ key: generate('sk') });
  if (generated.publishable) publishable.push(generate('pk'));
  for (const key of [...secret.map((s) => s.key), ...publishable]) {
    if (!/^[\x21-\x7e]+$/.test(key) || key.includes(':')) throw new TypeError('API keys must be printable ASCII without spaces or ":"');
  }
  return { secret, publishable, generated };
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are the same caller. */
export const normaliseAddress = (address: string | undefined) => (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

/**
 * The reference's token endpoint answers a secret key with 401 ("secret key used instead of publishable"); every
 * other resource answers a valid key of the wrong type with 403 (rule 3 of Authentication).
 */
const wrongTypeIsUnauthorized = new Set(['createSingleUseToken']);

/**
 * The Authentication section: Basic with the key as username and an empty password; an unknown, expired or
 * malformed credential, or an address outside the key's allow-list, gets 401; a valid key of the wrong type 403.
 */
export class Authenticator {
  private readonly secret = new Map<string, SecretKeyOptions & { createdAtMs: number; allow?: Set<string> }>();
  private readonly publishable: Set<string>;

  constructor(keys: SandboxKeys, startedAt: number) {
    for (const key of keys.secret) {
      const createdAtMs = key.createdAt === undefined ? startedAt : new Date(key.createdAt).getTime();
      this.secret.set(key.key, { ...key, createdAtMs, allow: key.ipAllowList ? new Set(key.ipAllowList.map(normaliseAddress)) : undefined });
    }
    this.publishable = new Set(keys.publishable);
  }

  authenticate(header: string | undefined, operation: OperationSpec, address: string, now: number): Caller {
    const key = keyOf(header);
    const secret = this.secret.get(key);
    let caller: Caller;
    if (secret) {
      if (now >= secret.createdAtMs + rules.secretKeys.lifetimeMs) throw new ApiError(401, 'The secret key has expired; renew it through the API keys resource.');
      if (secret.allow && !secret.allow.has(normaliseAddress(address))) {
        throw new ApiError(401, 'The key only accepts requests from the addresses of its allow-list.');
      }
      caller = { keyType: 'secretKey', key, ...(secret.businesses ? { businesses: new Set(secret.businesses) } : {}) };
    } else if (this.publishable.has(key)) caller = { keyType: 'publishableKey', key };
    else throw new ApiError(401, 'The API key is not valid.');
    if (operation.keyType && caller.keyType !== operation.keyType) {
      const wanted = operation.keyType === 'secretKey' ? 'the secret key' : 'the publishable key';
      throw new ApiError(wrongTypeIsUnauthorized.has(operation.operationId) ? 401 : 403, `${operation.operationId} takes ${wanted}.`);
    }
    return caller;
  }
}

function keyOf(header: string | undefined): string {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/.exec(header?.trim() ?? '');
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  // The key is the username and the password is empty: `key:`.
  if (!decoded.endsWith(':') || decoded.length < 2 || decoded.indexOf(':') !== decoded.length - 1) {
    throw new ApiError(401, 'The Authorization header must be Basic with the API key as username and an empty password.');
  }
  return decoded.slice(0, -1);
}
