import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';
import { deref, openApiModel, type OpenApiOperation } from '@paykit/contracts';
import { toLiteral, type Node } from './openapi-walk.js';
import { typesGeneratorAt } from './types.js';

/**
 * A mock's control interface (its own contract, not the service's), generated into `dir` of the mock package:
 * `openapi.ts` (openapi-typescript's types), `document.ts` (the bundled contract, which the server routes and checks
 * requests by) and `client.ts`: one method per operation, named by its operationId, over an openapi-fetch client,
 * taking the path parameters in path order, then the query when the operation takes one, then the JSON body when
 * there is one, then `{ signal }`, and resolving to the success body (or nothing, for a success without one). A
 * streamed operation (server-sent events) gets no method.
 */

function jsonDoc(text: unknown): string {
  const lines = String(text ?? '').trim().split('\n');
  return ['    /**', ...lines.map((line) => `     * ${line}`.trimEnd()), '     */'].join('\n');
}

function method(document: Parameters<Generator>[0]['document'], entry: OpenApiOperation): string {
  const { operation, operationId, path } = entry;
  const verb = entry.method.toUpperCase();
  const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const requestBody = operation.requestBody ? deref(document, operation.requestBody) : undefined;
  if (requestBody && !(requestBody.content as Node | undefined)?.['application/json']) {
    throw new Error(`${operationId}: a control request body must be application/json`);
  }
  const successes = Object.entries((operation.responses ?? {}) as Node).filter(([status]) => /^2\d\d$/.test(status));
  const answers = successes.some(([, response]) => (deref(document, response)?.content as Node | undefined)?.['application/json']);
  // A stream (server-sent events) never ends, so no method can resolve to its body: it is opened with EventSource.
  const streams = successes.some(([, response]) => (deref(document, response)?.content as Node | undefined)?.['text/event-stream']);
  if (streams) return `    // ${operationId}: ${String(operation.summary)}; a stream (text/event-stream), opened with EventSource, not a method.`;
  const takesQuery = ((operation.parameters ?? []) as Node[]).some((parameter) => deref(document, parameter)?.in === 'query');
  const args = [
    ...pathParams.map((name) => `${name}: string`),
    ...(takesQuery ? [`query: Query<${JSON.stringify(path)}, ${JSON.stringify(entry.method)}> = {}`] : []),
    ...(requestBody ? [`body: JsonBody<${JSON.stringify(path)}, ${JSON.stringify(entry.method)}>`] : []),
    'options: CallOptions = {}',
  ];
  const params = [...(pathParams.length ? [`path: { ${pathParams.join(', ')} }`] : []), ...(takesQuery ? ['query'] : [])];
  const init = [
    ...(params.length ? [`params: { ${params.join(', ')} }`] : []),
    ...(requestBody ? ['body'] : []),
    'signal: options.signal',
  ];
  const call = `client.${verb}(${JSON.stringify(path)}, { ${init.join(', ')} })`;
  const doc = jsonDoc([operation.summary, operation.description].filter(Boolean).map(String).join('.\n'));
  return `${doc}\n    ${operationId}: (${args.join(', ')}) => ${answers ? `answer(${call})` : `answer(${call}).then(() => undefined)`},`;
}

export function controlClientGenerator(dir: string): Generator {
  const types = typesGeneratorAt(`${dir}/openapi.ts`);
  return async (input) => {
    const { document, specPath } = input;
    const operations = openApiModel(document).operations;
    const client = `${generatedHeader(specPath)}
import type { Client } from 'openapi-fetch';
import type { paths } from './openapi.js';

/** Per call: an \`AbortSignal\` that cancels it. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** The JSON body an operation takes. */
export type JsonBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The query parameters an operation takes. */
export type Query<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;

/** Turns openapi-fetch's \`{ data, error, response }\` into the success body, or throws the caller's error. */
export type Answer = <T>(call: Promise<{ data?: T; error?: unknown; response: Response }>) => Promise<T>;

/** One method per operation of the control interface, over \`client\`. */
export function controlMethods(client: Client<paths>, answer: Answer) {
  return {
${operations.map((entry) => method(document, entry)).join('\n')}
  };
}

/** Every operation of the control interface: what the server serves, and nothing else. */
export const controlOperations = ${toLiteral(
      Object.fromEntries(operations.map((e) => [e.operationId, { method: e.method.toUpperCase(), path: e.path }])),
    )} as const;

export type ControlOperationId = keyof typeof controlOperations;
`;
    const bundled = `${generatedHeader(specPath)}
/** The bundled contract of the control interface: the server routes and checks requests by it. */
export const controlDocument: Record<string, unknown> = ${JSON.stringify(document, null, 2)};
`;
    return [...(await types(input)), { path: `${dir}/client.ts`, content: client }, { path: `${dir}/document.ts`, content: bundled }];
  };
}
