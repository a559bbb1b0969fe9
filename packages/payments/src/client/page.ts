import { PaymentsError } from '../errors/payments-error.js';
import type { components } from '../generated/openapi.js';
import type { ApiResult } from './method-types.js';

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

/** The addresses of the pages read so far in one walk through a list, newest first. */
interface Trail {
  readonly url: string;
  readonly before: Trail | undefined;
}

function alreadyRead(trail: Trail, url: string): boolean {
  for (let at: Trail | undefined = trail; at; at = at.before) if (at.url === url) return true;
  return false;
}

/** A `next` link back to a page already read would make the walk endless: the service broke the list's rules. */
function cycleError(url: string): PaymentsError<'protocol'> {
  return new PaymentsError({
    kind: 'protocol',
    message: `The list's next link leads back to a page already read (GET ${url}): stopped rather than loop forever.`,
    method: 'GET',
    url,
  });
}

function nextHref(body: unknown): string | undefined {
  const links = (body as { links?: Link[] } | null)?.links;
  return Array.isArray(links) ? links.find((l) => l?.rel === 'next' && typeof l.href === 'string')?.href : undefined;
}

/** A page read from `url`; `before` holds the pages read before it in the same walk. */
export function createPage<T, Body>(result: ApiResult<Body>, source: PageSource, url: string, before?: Trail): Page<T, Body> {
  const trail: Trail = { url, before };
  // A list body holds its items in a `data` array; anything else there gives no items (the body stays in `data`).
  const listed: unknown = (result.data as { data?: unknown } | null)?.data;
  const items = (Array.isArray(listed) ? listed : []) as T[];
  const next = nextHref(result.data);
  const page: Page<T, Body> = {
    ...result,
    items,
    hasNextPage: next !== undefined,
    async nextPage() {
      if (next === undefined) return undefined;
      const nextUrl = source.resolve(next);
      if (alreadyRead(trail, nextUrl)) throw cycleError(nextUrl);
      return createPage<T, Body>((await source.load(nextUrl)) as ApiResult<Body>, source, nextUrl, trail);
    },
    async *all(options = {}) {
      const limit = options.limit ?? Infinity;
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
