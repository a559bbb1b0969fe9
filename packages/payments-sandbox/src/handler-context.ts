import type { SandboxClock } from './state/clock.js';
import type { KeyType, OperationSpec, SandboxContract } from './contract/contract.js';
import type { Links } from './rules/links.js';
import type { FieldChecker } from './contract/field-checker.js';
import type { SandboxState } from './state/state.js';
import type { components } from './generated/control/openapi.js';
import type { ActivityFeed } from './state/activity.js';

/** Who sent a request: the key it authenticated with. */
export interface Caller {
  keyType: KeyType;
  key: string;
  /** The businesses a restricted secret key may act for; undefined when the key is not restricted. */
  businesses?: ReadonlySet<string>;
}

/** Whether a caller may act for a business: a restricted secret key only for its own. */
export const mayActFor = (caller: Caller, business: string | undefined) => !caller.businesses || business === undefined || caller.businesses.has(business);

/** A business of the sandbox's facility. */
export interface SandboxBusiness {
  supplierBusinessCode: string;
  /** Currency of its settlement account (default `AUD`). */
  currency?: string;
  /** Surcharge percentage per card scheme, as the token model gives it (`'1.5'`); default none. */
  surcharges?: Record<string, string>;
  /** Card schemes it accepts; default all of the contract's. */
  acceptedSchemes?: string[];
  /** Label of its settlement account that payers see for alias payments (masked). */
  aliasDisplayName?: string;
}

/**
 * Timings of the sandbox, changeable at run time through the control interface: the control contract's `Settings`
 * (specs/payments-sandbox-control), so that the options, the control interface and its client name one shape.
 */
export type SandboxSettings = components['schemas']['Settings'];

export const defaultSettings: SandboxSettings = {
  aliasRegistrationDelayMs: 2_000,
  aliasDeregistrationDelayMs: 2_000,
  pendingSettlesAfterMs: 3_000,
  processingDelayMs: 0,
  webhookRetryDelaysMs: [1_000, 5_000, 30_000, 60_000],
  webhookTimeoutMs: 10_000,
};

export interface Facility {
  businesses: Map<string, Required<Omit<SandboxBusiness, 'surcharges'>> & { surcharges: Record<string, string> }>;
  /** Domains aliases may use; `*.example.com` also allows its subdomains. */
  aliasDomains: string[];
  /** The payment methods and funding accounts `GET /methods` lists. */
  methods: Record<string, unknown>[];
}

/** What an event emitter needs: the webhook dispatcher posts it to every subscription of its type. */
export interface EventSink {
  emit(eventType: string, data: unknown): void;
}

/** The shared parts every operation handler works with. */
export interface SandboxCore {
  contract: SandboxContract;
  validator: FieldChecker;
  state: SandboxState;
  clock: SandboxClock;
  settings: SandboxSettings;
  facility: Facility;
  events: EventSink;
  /** What happens, for the dashboard's live views (`GET /__sandbox/events`). */
  activity: Pick<ActivityFeed, 'emit'>;
  /** Links for work done outside a request (webhook bodies): the sandbox's own base address. */
  links: () => Links;
}

export interface HandlerContext {
  core: SandboxCore;
  operation: OperationSpec;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body, when the operation takes one. */
  body: unknown;
  caller: Caller;
  ip: string;
  links: Links;
  /** The success media type the request's `Accept` chose. */
  mediaType: string;
}

export interface ApiResponse {
  status: number;
  /** A JSON body. */
  json?: unknown;
  /** A text body (reports), sent with `contentType`. */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export type OperationHandler = (context: HandlerContext) => ApiResponse;

/** Handlers by operationId; every operation of the contract must have one (a test checks). */
export type HandlerTable = Record<string, OperationHandler>;
