/** A bundled OpenAPI document, as JSON. Readers narrow what they use. */
export type OpenApiDocument = Record<string, unknown> & {
  openapi?: string;
  servers?: { url: string; variables?: Record<string, { default?: string }> }[];
  paths?: Record<string, unknown>;
  components?: Record<string, Record<string, unknown> | undefined>;
};

/**
 * The path part of the first server URL with its variables at their defaults (`/rest/v1` for payments), without a
 * trailing slash; `''` when the document has no server.
 */
export function basePath(document: OpenApiDocument): string {
  const server = document.servers?.[0];
  if (!server) return '';
  const url = server.url.replace(/\{(\w+)\}/g, (_, name: string) => server.variables?.[name]?.default ?? '');
  return new URL(url, 'http://placeholder').pathname.replace(/\/$/, '');
}

/** A JSON object of the document. */
export type DocumentNode = Record<string, unknown>;
export const isNode = (value: unknown): value is DocumentNode => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A string with something in it besides white space. */
export const isText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** The operations a path item may hold, in the order the OpenAPI specification lists them (readers iterate in it). */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export const isHttpMethod = (key: string): key is HttpMethod => (HTTP_METHODS as readonly string[]).includes(key);
