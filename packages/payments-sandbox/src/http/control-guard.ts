import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * Who may use the control interface. A sandbox left running on a developer's machine is reachable by every web page
 * the developer opens, so the interface answers only a caller that holds its control token (`Authorization: Bearer`),
 * sent from no other origin, with a JSON body: a page may send a form or plain text to another origin without asking
 * the browser first (no preflight), but neither the token nor `application/json`.
 */

export { controlPrefix } from './control-prefix.js';

export class ControlRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A new control token: 24 random bytes, URL-safe. */
export const generateControlToken = () => `ctl_sandbox_${randomBytes(24).toString('base64url')}`;

export function checkControlToken(token: string): string {
  if (typeof token !== 'string' || !/^[\x21-\x7e]{16,}$/.test(token)) {
    throw new TypeError('the control token must be at least 16 printable ASCII characters without spaces');
  }
  return token;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Hosts that only this machine reaches. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/**
 * The host this sandbox names in the addresses it hands out. 0.0.0.0 and :: listen on every interface but are no
 * address a client can call, so they become the loopback address of the same family.
 */
export function advertisedHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '0.0.0.0') return '127.0.0.1';
  return isIP(bare) === 6 && /^[0:]+$/.test(bare) ? '::1' : bare;
}

const isWildcard = (bare: string) => bare === '0.0.0.0' || (isIP(bare) === 6 && /^[0:]+$/.test(bare));

/**
 * The origins that name this sandbox: its address, the loopback names of its port when it listens on loopback, every
 * address of the machine when it listens on all of them, and the `publicOrigins` it was given (a load balancer's).
 * Its links use a request's `Host` only when it is one of these; the control interface takes no other `Origin`.
 */
export function ownOrigins(host: string, port: number, publicOrigins: readonly string[] = []): Set<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  const names = [bare];
  if (isLoopback(bare) || isWildcard(bare)) names.push('localhost', '127.0.0.1', '::1');
  if (isWildcard(bare)) for (const list of Object.values(networkInterfaces())) for (const entry of list ?? []) names.push(entry.address);
  const origins = names.map((name) => `http://${name.includes(':') ? `[${name}]` : name}:${port}`);
  return new Set([...origins, ...publicOrigins.map((origin) => new URL(origin).origin)]);
}

/** The content types a browser sends to another origin without a preflight (the "simple" ones of the Fetch standard). */
const simpleFormTypes = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/** How a control request proved itself: the bearer token, or the dashboard's session cookie. */
export type ControlCaller = 'token' | 'session';

/** What the guard asks of the dashboard's sessions (`ui-session.ts`): whether a request's cookie names a live one. */
export interface SessionCheck {
  has(cookieHeader: string | undefined): boolean;
}

const safeMethods = new Set(['GET', 'HEAD']);

export class ControlGuard {
  private readonly expected: Buffer;
  private origins = new Set<string>();
  private hosts = new Set<string>();
  private sessions: SessionCheck = { has: () => false };

  constructor(token: string) {
    this.expected = digest(checkControlToken(token));
  }

  /** The sandbox's own origins, once it listens (`ownOrigins`). */
  listening(origins: ReadonlySet<string>): void {
    this.origins = new Set(origins);
    this.hosts = new Set([...origins].map((origin) => new URL(origin).host));
  }

  /** The dashboard's sessions, whose cookie stands in for the token. */
  acceptSessions(sessions: SessionCheck): void {
    this.sessions = sessions;
  }

  /** Whether `token` is this sandbox's control token, compared as digests of one length, in constant time. */
  matches(token: string): boolean {
    return timingSafeEqual(digest(token), this.expected);
  }

  /** Whether `origin` is one of this sandbox's. */
  ownOrigin(origin: string): boolean {
    return this.origins.has(origin);
  }

  /**
   * Whether a request's `Host` names this sandbox. A page of another site whose name was made to resolve to this
   * machine (DNS rebinding) is same-origin to itself, so the browser sends its own name as `Host`: refused.
   */
  namesThisSandbox(host: string | undefined): boolean {
    return host !== undefined && this.hosts.has(host.toLowerCase());
  }

  /**
   * Throws the refusal a request gets, if any; the order: token or session (401), origin (403), media type (415).
   * With the token: as a test's client sends it. With the dashboard's session cookie (no token): also the `Host`
   * must name this sandbox, the request come from its own origin (`Sec-Fetch-Site: same-origin` when sent, and an
   * own `Origin` on every change, which browsers send with each one).
   */
  check(headers: IncomingHttpHeaders, method = 'GET'): ControlCaller {
    const authorization = headers.authorization;
    const caller: ControlCaller = authorization === undefined && this.sessions.has(headers.cookie) ? 'session' : 'token';
    if (caller === 'token') {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match) throw new ControlRefusal(401, `the control interface needs its control token: Authorization: Bearer <token> (printed at start as "control token"), or the dashboard's session`);
      // Compared as digests of one length, in constant time: the answer says nothing about how much of a guess was right.
      if (!this.matches(match[1]!)) throw new ControlRefusal(401, 'the control token is not this sandbox\'s');
    } else {
      if (!this.namesThisSandbox(headers.host)) throw new ControlRefusal(403, 'the dashboard\'s session is taken only at an address of this sandbox (Host)');
      if (!safeMethods.has(method) && headers.origin === undefined) throw new ControlRefusal(403, 'a change made with the dashboard\'s session must carry its Origin');
      const site = headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin') {
        throw new ControlRefusal(403, `requests from another site (Sec-Fetch-Site: ${site}) may not use the control interface`);
      }
    }
    const origin = headers.origin;
    if (origin !== undefined && !this.origins.has(origin)) {
      throw new ControlRefusal(403, `requests from another origin (${origin}) may not use the control interface`);
    }
    const site = headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      throw new ControlRefusal(403, `requests from another site (Sec-Fetch-Site: ${site}) may not use the control interface`);
    }
    const type = headers['content-type']?.split(';')[0]!.trim().toLowerCase();
    if (type !== undefined && type !== 'application/json') {
      const why = simpleFormTypes.has(type) ? ', which any web page may send' : '';
      throw new ControlRefusal(415, `the control interface takes application/json bodies only, not ${type}${why}`);
    }
    return caller;
  }
}
