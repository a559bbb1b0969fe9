import { deref, type OpenApiDocument } from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';
import type { Node } from './openapi-walk.js';

/**
 * The webhook events of the spec as a discriminated union on `eventType`: the list of event types (for run-time
 * checks) and, per event type, the body type openapi-typescript derived from the spec's `webhooks`.
 */

/** The `eventType` value a webhook body carries: a single `const`/`enum` on the schema, else the webhook's name. */
function eventTypeOf(document: OpenApiDocument, name: string, schema: unknown): string {
  const pending = [schema];
  while (pending.length) {
    const node = deref(document, pending.pop()) ?? {};
    const property = (node.properties as Node | undefined)?.eventType;
    if (property) {
      const resolved = deref(document, property) ?? {};
      if ('const' in resolved) return String(resolved.const);
      const values = resolved.enum as unknown[] | undefined;
      if (values?.length === 1) return String(values[0]);
    }
    for (const keyword of ['allOf', 'oneOf', 'anyOf']) pending.push(...((node[keyword] as unknown[]) ?? []));
  }
  return name;
}

export function listWebhookEvents(document: OpenApiDocument) {
  const webhooks = (document.webhooks ?? {}) as Record<string, unknown>;
  return Object.entries(webhooks).map(([name, rawItem]) => {
    const item = deref(document, rawItem) ?? {};
    const post = item.post as Node | undefined;
    if (!post) throw new Error(`webhook ${name} has no post operation`);
    const body = deref(document, post.requestBody) ?? {};
    const schema = (body.content as Record<string, Node> | undefined)?.['application/json']?.schema;
    if (!schema) throw new Error(`webhook ${name} has no application/json request body`);
    return { name, eventType: eventTypeOf(document, name, schema) };
  });
}

/** The header that carries the notification's signature: a header parameter of the webhooks named like one. */
function signatureHeader(document: OpenApiDocument): string | undefined {
  const names = new Set<string>();
  for (const rawItem of Object.values((document.webhooks ?? {}) as Record<string, unknown>)) {
    const post = deref(document, rawItem)?.post as Node | undefined;
    for (const raw of (post?.parameters as unknown[] | undefined) ?? []) {
      const parameter = deref(document, raw) ?? {};
      if (parameter.in === 'header' && /signature/i.test(String(parameter.name))) names.add(String(parameter.name));
    }
  }
  if (names.size > 1) throw new Error(`The webhooks disagree on their signature header: ${[...names].join(', ')}`);
  return [...names][0];
}

export const paymentsWebhooksGenerator: Generator = ({ document, specPath }) => {
  const events = listWebhookEvents(document);
  const header = signatureHeader(document);
  const body = (name: string) =>
    `NonNullable<webhooks[${JSON.stringify(name)}]['post']['requestBody']>['content']['application/json']`;
  const lines = [
    generatedHeader(specPath),
    "import type { webhooks } from './openapi.js';",
    '',
    '/** Every `eventType` the spec documents a webhook for. */',
    `export const webhookEventTypes = ${JSON.stringify(events.map((e) => e.eventType))} as const;`,
    '',
    '/** The request header that carries the signature of a notification. */',
    `export const webhookSignatureHeader: string | undefined = ${JSON.stringify(header)};`,
    '',
    '/** The body of each webhook notification, by event type, as the spec describes it. */',
    'export interface WebhookEventBodies {',
    ...events.map((e) => `  ${JSON.stringify(e.eventType)}: ${body(e.name)};`),
    '}',
    '',
  ];
  return [{ path: 'src/generated/webhook-events.ts', content: lines.join('\n') }];
};
