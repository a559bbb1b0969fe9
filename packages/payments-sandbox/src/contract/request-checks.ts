import type { IncomingMessage } from 'node:http';
import { ApiError } from '../rules/api-error.js';
import type { OperationSpec, ParameterSpec } from './contract.js';
import type { FieldProblem, SchemaValidator } from './schema-validator.js';
import { paymentsSensitive, type SensitiveTable } from '../generated/sensitive.js';

/** Operations whose whole request or answer body the contract marks (a card number whose field is not published). */
const markedBodies: SensitiveTable['bodies'] = paymentsSensitive.bodies;

/**
 * The checks the Endpoints and Errors sections make of every request before any work, in the reference's terms:
 * `Accept` (406), query parameters on PUT, POST or PATCH (400), the body's media type (415) and syntax (400), and the
 * parameters and body against the contract's schemas (400 for parameters, 422 for content).
 */

const mediaTypeOf = (header: string | undefined) => header?.split(';')[0]?.trim().toLowerCase() || undefined;

/** JSON stands for every answer an operation without a success body gives (its errors). */
const fallbackMedia = ['application/json'];

interface AcceptEntry {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): AcceptEntry[] {
  return header
    .split(',')
    .map((part) => {
      const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const [type = '', subtype = ''] = range.split('/');
      const q = params.map((p) => /^q=([0-9.]+)$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { type, subtype, q: q === undefined ? 1 : Number(q) };
    })
    .filter((entry) => entry.type && entry.subtype);
}

const acceptCache = new Map<string, string | null>();

/** The success media type the `Accept` header chooses among those the operation declares; 406 when none. */
export function negotiate(accept: string | undefined, operation: OperationSpec): string {
  const offered = operation.successMediaTypes.length ? operation.successMediaTypes : fallbackMedia;
  const cacheKey = `${operation.operationId}\n${accept ?? ''}`;
  let chosen = acceptCache.get(cacheKey);
  if (chosen === undefined) {
    chosen = null;
    if (accept) {
      const entries = parseAccept(accept);
      let best = 0;
      for (const media of offered) {
        const [type, subtype] = media.split('/');
        const q = Math.max(
          0,
          ...entries.filter((e) => (e.type === '*' || e.type === type) && (e.subtype === '*' || e.subtype === subtype)).map((e) => e.q),
        );
        if (q > best) [best, chosen] = [q, media];
      }
    }
    if (acceptCache.size > 1000) acceptCache.clear();
    acceptCache.set(cacheKey, chosen);
  }
  if (chosen === null) throw new ApiError(406, `Accept must allow ${offered.join(' or ')}${accept ? `, not ${accept}` : ''}.`);
  return chosen;
}

/** The reference: query parameters must not be sent on PUT, POST or PATCH requests. */
export function refuseQueryOnWrite(method: string, rawUrl: string): void {
  if ((method === 'PUT' || method === 'POST' || method === 'PATCH') && rawUrl.includes('?')) {
    throw new ApiError(400, `Query parameters must not be sent on ${method} requests.`);
  }
}

const maxBodyBytes = 10 * 1024 * 1024;

/** A request that announces no body (no `Content-Length` above 0, no `Transfer-Encoding`) has none to read. */
const hasBody = (request: IncomingMessage) =>
  request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/**
 * The body as text. Read with events rather than an async iterator: that machinery costs more than a small body.
 * `signal` aborts when the client has gone (the server's own record of it: the request may have closed before this
 * is called, and then no `close` event comes any more): the promise settles either way, so that the request leaves
 * its in-flight slot and holds nothing.
 */
export function readBody(request: IncomingMessage, signal: AbortSignal): Promise<string> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (!hasBody(request)) {
    request.resume(); // nothing to read: let the stream end, so that the connection is reused
    return Promise.resolve('');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const gone = () => reject(signal.reason);
    signal.addEventListener('abort', gone, { once: true });
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    let ended = false;
    request.once('error', reject);
    // Every request closes, most of them after their end: an error (and its stack) is made only for a body cut off.
    request.once('close', () => ended || reject(new Error('The request body was cut off.')));
    request.once('end', () => {
      ended = true;
      signal.removeEventListener('abort', gone);
      if (size > maxBodyBytes) reject(new ApiError(400, `The body is larger than the sandbox takes (${maxBodyBytes} bytes).`));
      else resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** The JSON body of an operation that takes one: 415 for another media type, 400 for text that is not JSON. */
export function parseBody(operation: OperationSpec, contentType: string | undefined, text: string): { value: unknown; pointer?: string } {
  const spec = operation.requestBody;
  if (!spec || text === '') return { value: undefined };
  const media = mediaTypeOf(contentType);
  if (!media || !spec.media.has(media)) {
    throw new ApiError(415, `Content-Type must be ${[...spec.media.keys()].join(' or ')}${media ? `, not ${media}` : ''}.`);
  }
  try {
    return { value: JSON.parse(text), pointer: spec.media.get(media) };
  } catch {
    throw new ApiError(400, 'The body is not valid JSON.');
  }
}

function parameterValue(parameter: ParameterSpec, text: string): unknown {
  // Query and path values are text on the wire: a number or boolean schema is checked on the value read as JSON.
  if (parameter.type !== 'string' && /^(-?\d+(\.\d+)?|true|false)$/.test(text)) return JSON.parse(text);
  return text;
}

/**
 * Parameters against their schemas: a path value the schema refuses addresses nothing (404); a query or header value
 * it refuses is a malformed request (400), and so is a missing required one.
 */
export function checkParameters(
  validator: SchemaValidator,
  operation: OperationSpec,
  values: { path: Record<string, string>; query: URLSearchParams; headers: IncomingMessage['headers'] },
  which: (parameter: ParameterSpec) => boolean = () => true,
): void {
  const problems: FieldProblem[] = [];
  for (const parameter of operation.parameters.filter(which)) {
    const raw =
      parameter.in === 'path'
        ? values.path[parameter.name]
        : parameter.in === 'query'
          ? (values.query.get(parameter.name) ?? undefined)
          : parameter.in === 'header'
            ? (values.headers[parameter.name.toLowerCase()] as string | undefined)
            : undefined;
    if (raw === undefined) {
      if (parameter.required) problems.push({ fieldName: parameter.name, fieldValue: '', messages: ['is required'] });
      continue;
    }
    if (parameter.schema === undefined) continue; // a parameter without a schema takes any text
    const found = validator.check(parameter.schema, parameterValue(parameter, raw)).map((p) => ({ ...p, fieldName: parameter.name, fieldValue: raw }));
    if (found.length && parameter.in === 'path') throw new ApiError(404, `No resource matches ${parameter.name} ${JSON.stringify(raw)}.`);
    problems.push(...found);
  }
  if (problems.length) {
    throw new ApiError(400, `Invalid parameters: ${problems.map((p) => `${p.fieldName} ${p.messages.join(', ')}`).join('; ')}.`, { errors: problems });
  }
}

/** The body against its schema: 422 with the fields at fault (400 when the operation declares no 422). */
export function checkBody(validator: SchemaValidator, operation: OperationSpec, body: { value: unknown; pointer?: string }): void {
  const spec = operation.requestBody;
  if (!spec) return;
  const status = operation.responses.has('422') ? 422 : 400;
  if (body.value === undefined) {
    if (spec.required) throw new ApiError(status, 'The request needs a body.');
    return;
  }
  if (!body.pointer) return;
  const problems = validator.check(body.pointer, body.value, markedBodies[operation.operationId]?.request);
  if (problems.length) throw new ApiError(status, 'The request content failed validation; see errors.', { errors: problems });
}
