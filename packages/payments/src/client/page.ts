import { errorFromResponse, inputError, PaymentsError } from '../errors/payments-error.js';
import type { components } from '../generated/openapi.js';
import { readJson } from './response-body.js';
import { numberOption } from './config.js';
import type { Transport } from './transport.js';
import type { ApiResult } from './api-result.js';
import { checkAnswer } from './answer-check.js';

type Link = components['schemas']['Link'];

/**
 * One page of a list answer, which is also an async iterable over every item from this page to the end of the list,
 * following the `next` links of the bodies.
 */
export interface Page<T, Body = unknown> extends ApiResult<Body>, AsyncIterable<T> {
  /** The items of this page only. */
  readonly items: T[];
  readonly hasNextPage: boolean;
  /** The following page, or undefined on the last one. */
  nextPage(): Promise<Page<T, Body> | undefined>;
  /** Items from this page on, stopping after `limit` items when given. */
  all(options?: { limit?: number }): AsyncIterable<T>;
}

/** Where the pages of a list come from: links resolved on the configured base address, and loaded. */
export interface PageSource {
  /** The absolute address a `next` link leads to. */
  resolve(href: string): string;
  load(url: string): Promise<ApiResult<unknown>>;
}

/**
 * The pages read so far in one walk through a list: for each, its address and a digest of its items (a SHA-256
 * rather than the items, so that a long walk does not hold every item it read), with the number of the page (from
 * 1) that added it. Looked up in one step per page: a walk of many pages costs each page the same. A walk that goes on
 * from a page other than its last (the first page walked again) works on a copy of the pages up to that one.
 */
interface Walk {
  readonly seen: Map<string, number>;
  /** The number of the last page added. */
  last: number;
}

async function itemsDigest(items: readonly unknown[]): Promise<string | undefined> {
  if (!items.length) return undefined;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(items)));
  return 'd' + String.fromCharCode(...new Uint8Array(digest));
}

/** Adds page number `at` to the walk: its address, and its items' digest when it has items. */
function add(walk: Walk, at: number, url: string, digest: string | undefined): void {
  walk.seen.set('u' + url, at);
  if (digest) walk.seen.set(digest, at);
  walk.last = at;
}

/**
 * A `next` link back to a page already read, or to a page of the same items under another address (a mock's one
 * example served for every page), would make the walk endless or repeat items: the service broke the list's rules.
 */
function cycleError(url: string): PaymentsError<'protocol'> {
  return new PaymentsError({
    kind: 'protocol',
    message: `Pagination stopped: the next link leads back to a page already read (${url}).`,
    method: 'GET',
    url,
  });
}

/** A list body holds its items in a `data` array (`checkAnswer` refused any other answer). */
const itemsOf = <T>(body: unknown): T[] => (body as { data: T[] }).data;

function nextHref(body: unknown): string | undefined {
  const links = (body as { links?: Link[] } | null)?.links;
  return Array.isArray(links) ? links.find((l) => l?.rel === 'next' && typeof l.href === 'string')?.href : undefined;
}

/** Page number `at` of a walk, read from `url`; `walk` holds the pages read up to it (made when first needed). */
export function createPage<T, Body>(result: ApiResult<Body>, source: PageSource, url: string, walk?: Walk, at = 1): Page<T, Body> {
  const items = itemsOf<T>(result.data);
  const next = nextHref(result.data);
  const page: Page<T, Body> = {
    ...result,
    items,
    hasNextPage: next !== undefined,
    async nextPage() {
      if (next === undefined) return undefined;
      const nextUrl = source.resolve(next);
      if (!walk) add((walk = { seen: new Map(), last: 0 }), at, url, await itemsDigest(items));
      const from: Walk = walk.last === at ? walk : { seen: new Map([...walk.seen].filter(([, added]) => added <= at)), last: at };
      if (from.seen.has('u' + nextUrl)) throw cycleError(nextUrl);
      const following = (await source.load(nextUrl)) as ApiResult<Body>;
      // Checked before the page is handed out: none of its items is yielded twice.
      const digest = await itemsDigest(itemsOf(following.data));
      if (digest && from.seen.has(digest)) throw cycleError(nextUrl);
      add(from, at + 1, nextUrl, digest);
      return createPage<T, Body>(following, source, nextUrl, from, at + 1);
    },
    async *all(options = {}) {
      // A NaN or negative limit (from an unset variable) would stop at once or never: refused before the next page.
      const limit = numberOption('limit', options.limit, Infinity);
      let count = 0;
      let current: Page<T, Body> = page;
      for (;;) {
        for (const item of current.items) {
          if (count >= limit) return;
          count++;
          yield item;
        }
        // Stop before asking for a page whose items would all be over the limit.
        const following = count < limit ? await current.nextPage() : undefined;
        if (!following) return;
        current = following;
      }
    },
    [Symbol.asyncIterator]() {
      return page.all()[Symbol.asyncIterator]();
    },
  };
  return page;
}

/**
 * Where a `next` link leads, on the configured base address: a link on another origin is re-based onto it (its path
 * after the base path is kept), so that the key only ever travels to the address the caller configured.
 */
export function followLink(baseUrl: string, href: string): string {
  const base = new URL(baseUrl + '/');
  const target = new URL(href, base);
  if (target.origin === base.origin && target.pathname.startsWith(base.pathname)) return target.href;
  const basePath = base.pathname.replace(/\/$/, '');
  const at = basePath ? target.pathname.indexOf(basePath + '/') : 0;
  if (at < 0) throw inputError(`The link ${href} is not under the API's base path ${basePath}.`);
  return baseUrl + target.pathname.slice(at + basePath.length) + target.search;
}

/** What reading the next pages takes from the client's core: where links resolve, and the transport (its retries). */
export interface PageReader {
  readonly baseUrl: string;
  readonly transport: Transport;
}

/** The pages of a list called with `signal`: links followed on the configured base address only. */
function pageSource(core: PageReader, signal: AbortSignal | undefined): PageSource {
  return { resolve: (href) => followLink(core.baseUrl, href), load: (url) => loadPage(core, url, signal) };
}

/** Every page of a list is a JSON object with a `data` list, whatever its first page's operation requires besides. */
const nextPageAnswer = { requires: [], list: true };

async function loadPage(core: PageReader, url: string, signal: AbortSignal | undefined): Promise<ApiResult<unknown>> {
  const { response, data, attempts } = await core.transport({ method: 'GET', url, headers: { accept: 'application/json' }, signal }, readJson);
  if (!response.ok) {
    throw errorFromResponse({ status: response.status, method: 'GET', url, body: data, headers: response.headers, idempotencyKey: undefined, attempts });
  }
  checkAnswer(nextPageAnswer, 'GET', url, response.status, data, undefined);
  return { data, status: response.status, headers: response.headers, idempotencyKey: undefined, attempts };
}

/** The first page of a list operation called at `url` with `signal` (through the secret client's `finish`). */
export function paginate(core: PageReader, first: ApiResult<unknown>, url: string, signal: AbortSignal | undefined): Page<unknown> {
  return createPage(first, pageSource(core, signal), new URL(url).href);
}
