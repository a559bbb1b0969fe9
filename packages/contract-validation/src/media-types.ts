/** `application/json; charset=utf-8` -> `application/json`; undefined when there is none. */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() || undefined;
}

/** Whether a declared media type (`application/json`, `text/*`, `*\/*`) covers an actual one. */
export function mediaTypeCovers(declared: string, actual: string): boolean {
  const wanted = declared.toLowerCase();
  if (wanted === '*/*' || wanted === actual) return true;
  return wanted.endsWith('/*') && actual.startsWith(wanted.slice(0, -1));
}

/** A media type whose body is JSON (`application/json`, `application/problem+json`). */
export const isJsonMediaType = (mediaType: string): boolean => /^application\/(?:[\w.-]+\+)?json$/.test(mediaType);

/**
 * Whether an `Accept` header admits one of `offered`: a range of `q=0` refuses, `*\/*` and `type/*` admit what they
 * cover. Parameters other than `q` are ignored.
 */
export function acceptAdmits(accept: string, offered: readonly string[]): boolean {
  // The common header names one offered type exactly, without parameters: admitted, as the general reading says.
  if (offered.includes(accept)) return true;
  return accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.trim().toLowerCase().split(';');
    if (parameters.some((parameter) => /^\s*q\s*=\s*0(?:\.0{0,3})?\s*$/.test(parameter))) return false;
    const wanted = type.trim();
    return offered.some((media) => mediaTypeCovers(wanted, media.toLowerCase()) || mediaTypeCovers(media.toLowerCase(), wanted));
  });
}
