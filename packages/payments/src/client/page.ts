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

export type PageLoader = (href: string) => Promise<ApiResult<unknown>>;

function nextHref(body: unknown): string | undefined {
  const links = (body as { links?: Link[] } | null)?.links;
  return Array.isArray(links) ? links.find((l) => l?.rel === 'next' && typeof l.href === 'string')?.href : undefined;
}

export function createPage<T, Body>(result: ApiResult<Body>, loadNext: PageLoader): Page<T, Body> {
  // A list body holds its items in a `data` array; anything else there gives no items (the body stays in `data`).
  const listed: unknown = (result.data as { data?: unknown } | null)?.data;
  const items = (Array.isArray(listed) ? listed : []) as T[];
  const next = nextHref(result.data);
  const page: Page<T, Body> = {
    ...result,
    items,
    hasNextPage: next !== undefined,
    async nextPage() {
      return next === undefined ? undefined : createPage<T, Body>((await loadNext(next)) as ApiResult<Body>, loadNext);
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
