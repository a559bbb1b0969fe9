import { createHash } from 'node:crypto';
import { idempotencyKeyRule, isPaymentsError } from '@paykit/payments';
import { rules } from '@paykit/payments/rules';
import { publishableRequestCheck, secretRequestCheck } from '@paykit/payments/validation';
import type { KeyType, MatchedOperation } from './operations.js';
import { ruleNames, type Violation } from './violation.js';

/** A request as the proxy received it; headers with lower-case names. */
export interface ReceivedRequest {
  method: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  query: URLSearchParams;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  json: unknown;
}

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

/** Keys are remembered by digest only: the proxy holds no secret it does not need. */
const digest = (key: string) => createHash('sha256').update(key).digest('base64url');

/** Whether an Accept header admits one of the media types the operation answers with. */
function accepts(accept: string, offered: readonly string[]): boolean {
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.trim().toLowerCase().split(';');
    if (parameters.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) return false;
    if (type === '*/*') return true;
    if (type.endsWith('/*')) return offered.some((media) => media.startsWith(type.slice(0, -1)));
    return offered.includes(type);
  });
}

interface KeyUse {
  answeredAt: number | undefined;
  status: number | 'network-error' | undefined;
}

const decimalPlaces = /decimal places/;

export interface RequestRulesOptions {
  /** Keys the merchant declares, so that a key of the wrong type is named from its first use. */
  secretKeys?: readonly string[];
  publishableKeys?: readonly string[];
  now?: () => number;
}

/**
 * Our `x-paykit-*` rules on a merchant's requests, the ones OpenAPI has no keyword for and Prism does not check:
 * the idempotency header on POST, Accept, the key type each resource takes (and no secret key from a browser page),
 * amounts' decimal places, and the waits the reference prescribes between resends of one Idempotency-Key. Every
 * limit comes from @paykit/payments' generated rules; nothing is restated here.
 */
export class RequestRules {
  private readonly keyTypes = new Map<string, KeyType>();
  private readonly keyUses = new Map<string, KeyUse>();
  private readonly checks = { secret: secretRequestCheck(), publishable: publishableRequestCheck() };
  private readonly now: () => number;

  constructor(options: RequestRulesOptions = {}) {
    for (const key of options.secretKeys ?? []) this.keyTypes.set(digest(key), 'secret');
    for (const key of options.publishableKeys ?? []) this.keyTypes.set(digest(key), 'publishable');
    this.now = options.now ?? Date.now;
  }

  check(request: ReceivedRequest, operation: MatchedOperation): Violation[] {
    const found: Violation[] = [];
    const add = (rule: string, location: string, message: string) =>
      found.push({ rule, side: 'request', operation: operation.id, location, message });
    const { spec } = operation;
    const idempotencyHeader = idempotencyKeyRule?.header ?? 'Idempotency-Key';
    const idempotencyKey = header(request, idempotencyHeader);

    if (request.method.toUpperCase() === 'POST' && spec.idempotent && idempotencyKey === undefined) {
      add(ruleNames.idempotencyKey, `header.${idempotencyHeader}`, `a POST must carry ${idempotencyHeader}: a resend without it may charge twice`);
    }

    const accept = header(request, 'accept');
    if (accept === undefined) add(ruleNames.accept, 'header.Accept', `Accept is required (${spec.accept.join(', ')})`);
    else if (!accepts(accept, spec.accept)) add(ruleNames.accept, 'header.Accept', `Accept admits none of ${spec.accept.join(', ')}`);

    if (operation.keyType === 'secret' && header(request, 'origin') !== undefined) {
      add(ruleNames.secretKeyFromBrowser, 'header.Origin', 'an operation that takes the secret key was called from a browser page (Origin is set): secret keys stay on the server');
    }
    const key = keyOf(header(request, 'authorization'));
    const known = key === undefined ? undefined : this.keyTypes.get(digest(key));
    if (known !== undefined && known !== operation.keyType) {
      add(ruleNames.keyType, 'header.Authorization', `a ${known} key was used on an operation that takes a ${operation.keyType} key`);
    }

    this.checkDecimalPlaces(request, operation, add);

    if (idempotencyKey !== undefined) {
      const previous = this.keyUses.get(idempotencyKey);
      if (previous?.answeredAt !== undefined && previous.status !== undefined) {
        const waited = this.now() - previous.answeredAt;
        const retryable = previous.status === 'network-error' || (rules.retry.statuses as readonly number[]).includes(previous.status);
        if ((rules.mustNotResend.statuses as readonly number[]).includes(previous.status as number)) {
          add(ruleNames.resendAfterUnknownOutcome, `header.${idempotencyHeader}`, `resent after a ${previous.status}: the outcome is unknown, query the resource's state first`);
        } else if (retryable && waited < rules.retry.waitMs) {
          add(ruleNames.retryWait, `header.${idempotencyHeader}`, `resent ${waited} ms after a ${previous.status}; wait ${rules.retry.waitMs} ms`);
        }
      }
      this.keyUses.set(idempotencyKey, { answeredAt: undefined, status: undefined });
    }
    return found;
  }

  /** What the answer teaches: the type of a key the service took, and when a key's request was answered. */
  answered(request: ReceivedRequest, operation: MatchedOperation | undefined, status: number | 'network-error'): void {
    const idempotencyKey = header(request, idempotencyKeyRule?.header ?? 'Idempotency-Key');
    if (idempotencyKey !== undefined) this.keyUses.set(idempotencyKey, { answeredAt: this.now(), status });
    const key = keyOf(header(request, 'authorization'));
    if (operation && key !== undefined && typeof status === 'number' && status >= 200 && status < 300) {
      this.keyTypes.set(digest(key), operation.keyType);
    }
  }

  private checkDecimalPlaces(request: ReceivedRequest, operation: MatchedOperation, add: (rule: string, location: string, message: string) => void) {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers[name] = value;
    try {
      this.checks[operation.keyType](operation.id, {
        path: operation.pathParams,
        query: Object.fromEntries(request.query),
        header: headers,
        body: request.json,
      });
    } catch (error) {
      if (!isPaymentsError(error)) throw error;
      // The generated check also walks the schemas Prism validates; only the decimal places (x-paykit-decimal-places)
      // are ours to name.
      for (const problem of error.fieldErrors ?? []) {
        for (const message of problem.messages ?? []) {
          if (!decimalPlaces.test(message)) continue;
          const field = problem.fieldName ?? '';
          add(ruleNames.decimalPlaces, /^(path|query|header) /.test(field) ? field.replace(' ', '.') : `body.${field}`, message);
        }
      }
    }
  }
}
