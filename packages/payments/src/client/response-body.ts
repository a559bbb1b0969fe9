import type { OperationSpec } from '../generated/operations.js';
import type { BodyReader } from './transport.js';

// How answers' bodies are read: by the media type the spec declares for them, so that a method's result and an
// error's body come out the same way whichever part of the client (a method, a page) made the request.

export const isJson = (mediaType: string) => /[/+]json$/i.test(mediaType);

/** The answer's body: JSON when present and valid, else its text (an error page stays readable). */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function readText(response: Response): Promise<unknown> {
  return (await response.text()) || undefined;
}

export type ErrorMediaTypes = NonNullable<OperationSpec['errors']>;

/**
 * The media type an error answer's body is read as: the one the spec declares for its status (exact, then `4XX`, then
 * `default`; the answer's own Content-Type when the status declares several and it is one of them), else the answer's
 * Content-Type, else none.
 */
export function errorMediaType(declaredByStatus: ErrorMediaTypes, status: number, contentType: string | null): string | undefined {
  const given = contentType?.split(';')[0]!.trim().toLowerCase() || undefined;
  const code = String(status);
  const declared = declaredByStatus[code] ?? declaredByStatus[`${code[0]}XX`] ?? declaredByStatus.default;
  if (!declared?.length) return given;
  return given !== undefined && declared.includes(given) ? given : declared[0];
}

/** Reads an error answer by its media type: JSON (text when it does not parse), any other type as text. */
export function errorReader(declaredByStatus: ErrorMediaTypes): BodyReader<unknown> {
  return (response) => {
    const mediaType = errorMediaType(declaredByStatus, response.status, response.headers.get('content-type'));
    // Nothing says what it is: JSON if it parses, as most error bodies are, else the text.
    return mediaType === undefined || isJson(mediaType) ? readJson(response) : readText(response);
  };
}
