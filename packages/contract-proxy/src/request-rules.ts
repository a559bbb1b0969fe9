import { hash } from 'node:crypto';
import { acceptAdmits, paymentsContract, successMediaTypes, type MatchedOperation, type OperationEntry } from '@paykit/contract-validation';
import type { KeyType, KeyUse } from './key-use.js';
import { ruleNames, type Violation } from './violation.js';

/** A rule found broken on one request, before it is tied to its operation and exchange. */
export type Finding = Pick<Violation, 'rule' | 'location' | 'message' | 'source'>;

/** A request as the proxy received it; headers with lower-case names. */
export interface ReceivedRequest {
  method: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  json: unknown;
}


const rules = paymentsContract.rules;

const header = (request: ReceivedRequest, name: string): string | undefined => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** The key of Basic authentication (the key as user name, an empty password), or undefined. */
export function keyOf(authorization: string | undefined): string | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/**
 * Keys are remembered by digest only: the proxy holds no secret it does not need. The one-shot `hash` (no Hash
 * object per request) gives the same digest as `createHash(...).update(key).digest(...)`.
 */
const digest = (key: string) => hash('sha256', key, 'base64url');

/** The key type an operation's security scheme names (`secretKey` -> `secret`): each payments resource takes one. */
export function keyTypeOf(operation: OperationEntry): KeyType | undefined {
  const scheme = operation.security[0];
  return scheme === 'secretKey' ? 'secret' : scheme === 'publishableKey' ? 'publishable' : undefined;
}

/** The field of a request body that names a single-use token, in the contract's schemas. */
const tokenField = 'singleUseTokenId';

/** What one Idempotency-Key's last answer leaves to check on its next use. */
interface KeyState {
  answeredAt: number;
  /** The request number of that answer (a GET after it is a query of the state). */
  answeredSequence: number;
  status: number | 'network-error';
}

/** Bounds on what the rules remember, so that a long session's memory stays flat (oldest forgotten first). */
const remembered = { idempotencyKeys: 10_000, tokens: 20_000 } as const;

/** Deletes the oldest entries of an insertion-ordered map beyond `limit`. */
function bound<K, V>(map: Map<K, V>, limit: number): void {
  for (const key of map.keys()) {
    if (map.size <= limit) return;
    map.delete(key);
  }
}

/** One request between `check` and its answer (or its refusal). */
export interface Ticket {
  readonly sequence: number;
  readonly key: KeyUse | undefined;
  readonly keyDigest: string | undefined;
  readonly idempotencyKey: string | undefined;
}

export interface RequestRulesOptions {
  /** Keys the merchant declares, so that a key of the wrong type is named from its first use. */
  secretKeys?: readonly string[];
  publishableKeys?: readonly string[];
  now?: () => number;
}

/**
 * The payments contract's `x-paykit-*` rules on a merchant's requests: the ones OpenAPI has no keyword for and that
 * depend on the session, not on one message (the schemas, `x-paykit-decimal-places` included, are the validator's).
 * Every limit comes from the generated contract table (`x-paykit-rules`); nothing is restated here.
 */
export class RequestRules {
  private readonly keys = new Map<string, KeyUse>();
  private readonly idempotencyKeys = new Map<string, KeyState | 'in-flight'>();
  private readonly inFlight = new Map<string, number>();
  private readonly tokens = new Map<string, number>();
  private readonly now: () => number;
  private sequence = 0;
  private lastQuery = 0;

  constructor(options: RequestRulesOptions = {}) {
    for (const key of options.secretKeys ?? []) this.declare(key, 'secret');
    for (const key of options.publishableKeys ?? []) this.declare(key, 'publishable');
    this.now = options.now ?? Date.now;
  }

  private declare(key: string, type: KeyType): KeyUse {
    const known = this.keys.get(digest(key));
    if (known) return Object.assign(known, { type });
    const use: KeyUse = { alias: `key-${this.keys.size + 1}`, type };
    this.keys.set(digest(key), use);
    return use;
  }

  /** The rules broken by a request of `matched`, and its ticket for `answered` or `refused`. */
  check(request: ReceivedRequest, matched: MatchedOperation): { findings: Finding[]; ticket: Ticket } {
    const { operation } = matched;
    const findings: Finding[] = [];
    const sequence = ++this.sequence;
    const keyType = keyTypeOf(operation);
    const idempotencyHeader = operation.idempotencyHeader;
    const idempotencyKey = idempotencyHeader === undefined ? undefined : header(request, idempotencyHeader);

    if (request.method === 'POST' && idempotencyHeader !== undefined && idempotencyKey === undefined) {
      findings.push({
        rule: ruleNames.idempotencyKey,
        location: `header.${idempotencyHeader}`,
        message: `a POST must carry ${idempotencyHeader}: a resend without it may charge twice`,
        source: 'x-paykit-rules.retry',
      });
    }

    const accept = header(request, 'accept');
    const offered = successMediaTypes(operation);
    if (offered.length > 0 && (accept === undefined || !acceptAdmits(accept, offered))) {
      findings.push({
        rule: ruleNames.accept,
        location: 'header.Accept',
        message: accept === undefined ? `Accept is required (${offered.join(', ')})` : `Accept admits none of ${offered.join(', ')}`,
        source: `${operation.source}/responses`,
      });
    }

    if (keyType === 'secret' && header(request, 'origin') !== undefined) {
      findings.push({
        rule: ruleNames.secretKeyFromBrowser,
        location: 'header.Origin',
        message: 'an operation that takes the secret key was called from a browser page (Origin is set): secret keys stay on the server',
        source: '#/components/securitySchemes/secretKey',
      });
    }

    const key = keyOf(header(request, 'authorization'));
    const keyDigest = key === undefined ? undefined : digest(key);
    let use = keyDigest === undefined ? undefined : this.keys.get(keyDigest);
    if (keyDigest !== undefined && !use) {
      use = { alias: `key-${this.keys.size + 1}` };
      this.keys.set(keyDigest, use);
    }
    if (use?.type !== undefined && keyType !== undefined && use.type !== keyType) {
      findings.push({
        rule: ruleNames.keyType,
        location: 'header.Authorization',
        message: `a ${use.type} key was used on an operation that takes a ${keyType} key`,
        source: `${operation.source}/security`,
      });
    }

    const inFlightKey = keyDigest ?? '';
    const inFlight = (this.inFlight.get(inFlightKey) ?? 0) + 1;
    this.inFlight.set(inFlightKey, inFlight);
    if (inFlight > rules.concurrency.maxInFlight) {
      findings.push({
        rule: ruleNames.concurrency,
        location: 'header.Authorization',
        message: `${inFlight} requests in flight at once with this key; the service may answer 429 beyond ${rules.concurrency.maxInFlight}`,
        source: 'x-paykit-rules.concurrency',
      });
    }

    const token = tokenOf(request.json);
    const createdAt = token === undefined ? undefined : this.tokens.get(token);
    if (createdAt !== undefined && this.now() - createdAt > rules.singleUseTokens.lifetimeMs) {
      findings.push({
        rule: ruleNames.expiredToken,
        location: `body.${tokenField}`,
        message: `the single-use token was created ${Math.round((this.now() - createdAt) / 1000)} s ago; it expires after ${rules.singleUseTokens.lifetimeMs / 1000} s`,
        source: 'x-paykit-rules.singleUseTokens',
      });
    }

    if (request.method === 'GET') this.lastQuery = sequence;
    if (idempotencyKey !== undefined) {
      const previous = this.idempotencyKeys.get(idempotencyKey);
      if (previous !== undefined && previous !== 'in-flight') findings.push(...this.resend(previous, idempotencyHeader!));
      this.idempotencyKeys.delete(idempotencyKey);
      this.idempotencyKeys.set(idempotencyKey, 'in-flight');
      bound(this.idempotencyKeys, remembered.idempotencyKeys);
    }
    return { findings, ticket: { sequence, key: use, keyDigest, idempotencyKey } };
  }

  /** The waits and queries the reference prescribes before one Idempotency-Key is sent again. */
  private resend(previous: KeyState, idempotencyHeader: string): Finding[] {
    const location = `header.${idempotencyHeader}`;
    const status = previous.status;
    if (typeof status === 'number' && (rules.mustNotResend.statuses as readonly number[]).includes(status)) {
      return [{ rule: ruleNames.resendAfterUnknownOutcome, location, message: `resent after a ${status}: the outcome is unknown, query the resource's state first`, source: 'x-paykit-rules.mustNotResend' }];
    }
    if (typeof status === 'number' && (rules.mustQueryState.statuses as readonly number[]).includes(status) && this.lastQuery < previous.answeredSequence) {
      return [{ rule: ruleNames.queryStateFirst, location, message: `resent after a ${status} without a query of the resource's state first`, source: 'x-paykit-rules.mustQueryState' }];
    }
    const retryable = status === 'network-error' || (rules.retry.statuses as readonly number[]).includes(status);
    const waited = this.now() - previous.answeredAt;
    if (retryable && waited < rules.retry.waitMs) {
      return [{ rule: ruleNames.retryWait, location, message: `resent ${waited} ms after a ${status}; wait ${rules.retry.waitMs} ms`, source: 'x-paykit-rules.retry' }];
    }
    return [];
  }

  /** What the answer teaches: the type of a key the service took, a token's birth, how a key's request ended. */
  answered(ticket: Ticket, matched: MatchedOperation | undefined, status: number | 'network-error', answerJson: unknown): void {
    this.release(ticket);
    if (ticket.idempotencyKey !== undefined) {
      // Only an answer that a later resend must wait for or must not follow is remembered.
      const remember =
        status === 'network-error' ||
        [...rules.retry.statuses, ...rules.mustNotResend.statuses, ...rules.mustQueryState.statuses].includes(status as never);
      this.idempotencyKeys.delete(ticket.idempotencyKey);
      if (remember) this.idempotencyKeys.set(ticket.idempotencyKey, { answeredAt: this.now(), answeredSequence: ticket.sequence, status });
    }
    if (!matched || typeof status !== 'number' || status < 200 || status >= 300) return;
    const type = keyTypeOf(matched.operation);
    if (ticket.key && type !== undefined) ticket.key.type = type;
    const token = matched.operation.method === 'POST' && keyTypeOf(matched.operation) === 'publishable' ? tokenOf(answerJson) : undefined;
    if (token !== undefined) {
      this.tokens.set(token, this.now());
      bound(this.tokens, remembered.tokens);
    }
  }

  /** A request refused before it left (--strict): it holds no place in flight and teaches nothing. */
  refused(ticket: Ticket): void {
    this.release(ticket);
    if (ticket.idempotencyKey !== undefined && this.idempotencyKeys.get(ticket.idempotencyKey) === 'in-flight') {
      this.idempotencyKeys.delete(ticket.idempotencyKey);
    }
  }

  private release(ticket: Ticket): void {
    const inFlightKey = ticket.keyDigest ?? '';
    const count = (this.inFlight.get(inFlightKey) ?? 1) - 1;
    if (count <= 0) this.inFlight.delete(inFlightKey);
    else this.inFlight.set(inFlightKey, count);
  }
}

const tokenOf = (json: unknown): string | undefined => {
  const value = json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>)[tokenField] : undefined;
  return typeof value === 'string' ? value : undefined;
};
