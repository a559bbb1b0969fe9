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
