// Hash routing: `#/transactions?status=Approved&page=2`. The address names the view and its filters, so that a view
// can be bookmarked and the browser's back button works; the server serves one page for all of them.
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /** The path's segments: `['transactions', '1000000001']`. */
  segments: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#\/?/, '');
  const [path = '', search = ''] = text.split('?', 2);
  return { segments: path.split('/').filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** An address of the dashboard: `href(['transactions'], { status: ['Pending', 'Approved'], q })`. Empty values are left out. */
export function href(segments: string[], query: Record<string, string | number | readonly string[] | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined && one !== '') search.append(name, String(one));
  }
  const text = search.toString();
  return `#/${segments.map(encodeURIComponent).join('/')}${text ? `?${text}` : ''}`;
}

export function useRoute(): Route {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return parseRoute(hash);
}

/** Goes to an address (a filter form's submit): a new history entry, as a link would. */
export function navigate(to: string): void {
  location.hash = to;
}
