import { rules } from '@paykit/payments/rules';

export interface Link {
  rel: string;
  href: string;
  requestMethod: string;
}

/** Absolute links under the base address the request came to (so that they work through a proxy too). */
export class Links {
  constructor(readonly base: string) {}

  href(path: string): string {
    return `${this.base}${path}`;
  }

  self(path: string): Link[] {
    return [{ rel: 'self', href: this.href(path), requestMethod: 'GET' }];
  }
}

/** Query parameter of the sandbox's page links. The reference publishes no paging parameter: follow the links. */
export const pageParameter = 'page';

/** The page the query asks for (the first when it names none or no page number), and the items before it. */
export function pageOf(query: URLSearchParams): { number: number; skip: number; size: number } {
  const size = rules.pagination.pageSize;
  const requested = Number(query.get(pageParameter) ?? '1');
  const number = Number.isInteger(requested) && requested >= 1 ? requested : 1;
  return { number, skip: (number - 1) * size, size };
}

/** The `self`, `next` (when `more` items follow) and `prev` links of page `number`, with the request's own query. */
export function pageLinks(links: Links, path: string, query: URLSearchParams, number: number, more: boolean): Link[] {
  const at = (n: number) => {
    const search = new URLSearchParams(query);
    if (n === 1) search.delete(pageParameter);
    else search.set(pageParameter, String(n));
    const text = search.toString();
    return links.href(text ? `${path}?${text}` : path);
  };
  const list: Link[] = [{ rel: 'self', href: at(number), requestMethod: 'GET' }];
  if (more) list.push({ rel: 'next', href: at(number + 1), requestMethod: 'GET' });
  if (number > 1) list.push({ rel: 'prev', href: at(number - 1), requestMethod: 'GET' });
  return list;
}

/**
 * One page of a list, newest first, with `next` and `prev` links carrying the request's own query; at most the
 * page size of the contract's rules.
 */
export function page<T>(items: readonly T[], links: Links, path: string, query: URLSearchParams): { links: Link[]; data: T[] } {
  const { number, skip, size } = pageOf(query);
  return { links: pageLinks(links, path, query, number, skip + size < items.length), data: items.slice(skip, skip + size) };
}
