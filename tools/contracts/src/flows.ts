import { isNode, isText, type DocumentNode as Node, type OpenApiDocument } from './openapi/document.js';
import { openApiModel } from './openapi/read-contract.js';

/**
 * The reference's main flows as a contract carries them: the root `x-paykit-flows` object, one flow per sequence of
 * requests and webhook notifications. The format is described at the top of `specs/payments/flows.yaml`. Read and
 * checked here so that the docs draw only operations and events the contract has.
 */
export const flowsExtension = 'x-paykit-flows';

/** A request of the flow: the operation as the contract declares it. */
export interface FlowOperation {
  readonly operationId: string;
  /** Upper case, e.g. `POST`. */
  readonly method: string;
  /** The path template, e.g. `/single-use-tokens`. */
  readonly path: string;
  /** The security schemes the operation takes (its own, else the contract's default). */
  readonly security: readonly string[];
}

export interface FlowStep {
  /** Actor ids of the flow. */
  readonly from: string;
  readonly to: string;
  readonly kind: 'operation' | 'event' | 'action';
  /** Set when `kind` is `operation`. */
  readonly operation?: FlowOperation;
  /** The webhook event type, when `kind` is `event`. */
  readonly event?: string;
  /** What happens outside the API, in words, when `kind` is `action`. */
  readonly action?: string;
  readonly description: string;
  readonly condition?: string;
}

export interface Flow {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Actor id -> label, in drawing order. */
  readonly actors: Readonly<Record<string, string>>;
  readonly steps: readonly FlowStep[];
}

export class FlowError extends Error {
  override readonly name = 'FlowError';
}


const flowKeys = new Set(['title', 'description', 'actors', 'steps']);
const stepKeys = new Set(['from', 'to', 'operation', 'event', 'action', 'description', 'condition']);

function operationsOf(document: OpenApiDocument): Map<string, FlowOperation> {
  const operations = openApiModel(document).operations;
  return new Map(operations.map(({ operationId, method, path, security }) => [operationId, { operationId, method: method.toUpperCase(), path, security }]));
}

function unknownKeys(where: string, node: Node, known: Set<string>): void {
  const unknown = Object.keys(node).filter((key) => !known.has(key));
  if (unknown.length) throw new FlowError(`${where} has fields no reader knows: ${unknown.join(', ')}`);
}

function readStep(where: string, raw: unknown, actors: Record<string, string>, operations: Map<string, FlowOperation>, events: Set<string>): FlowStep {
  if (!isNode(raw)) throw new FlowError(`${where} must be an object`);
  unknownKeys(where, raw, stepKeys);
  for (const end of ['from', 'to'] as const) {
    const actor = raw[end];
    if (typeof actor !== 'string' || !(actor in actors)) throw new FlowError(`${where}.${end} names ${JSON.stringify(actor)}, which is not an actor of the flow`);
  }
  if (raw.from === raw.to) throw new FlowError(`${where} goes from ${String(raw.from)} to itself`);
  const kinds = (['operation', 'event', 'action'] as const).filter((kind) => raw[kind] !== undefined);
  if (kinds.length !== 1) throw new FlowError(`${where} needs exactly one of operation, event or action`);
  if (!isText(raw.description)) throw new FlowError(`${where}.description is missing`);
  const step: { -readonly [K in keyof FlowStep]: FlowStep[K] } = {
    from: raw.from as string,
    to: raw.to as string,
    kind: kinds[0]!,
    description: raw.description.trim(),
  };
  if (raw.condition !== undefined) {
    if (!isText(raw.condition)) throw new FlowError(`${where}.condition must be text`);
    step.condition = raw.condition.trim();
  }
  if (step.kind === 'operation') {
    const operation = operations.get(raw.operation as string);
    if (!operation) throw new FlowError(`${where}.operation names ${JSON.stringify(raw.operation)}, which is no operation of the contract`);
    step.operation = operation;
  } else if (step.kind === 'event') {
    if (typeof raw.event !== 'string' || !events.has(raw.event)) throw new FlowError(`${where}.event names ${JSON.stringify(raw.event)}, which is no webhook of the contract`);
    step.event = raw.event;
  } else {
    if (!isText(raw.action)) throw new FlowError(`${where}.action must say what happens`);
    step.action = raw.action.trim();
  }
  return step;
}

function readFlow(where: string, name: string, raw: unknown, operations: Map<string, FlowOperation>, events: Set<string>): Flow {
  if (!isNode(raw)) throw new FlowError(`${where} must be an object`);
  unknownKeys(where, raw, flowKeys);
  if (!isText(raw.title)) throw new FlowError(`${where}.title is missing`);
  if (!isText(raw.description)) throw new FlowError(`${where}.description is missing`);
  if (!isNode(raw.actors) || Object.keys(raw.actors).length < 2) throw new FlowError(`${where}.actors must name at least two actors`);
  const actors: Record<string, string> = {};
  for (const [id, label] of Object.entries(raw.actors)) {
    if (!isText(label)) throw new FlowError(`${where}.actors.${id} needs a label`);
    actors[id] = label.trim();
  }
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) throw new FlowError(`${where}.steps must list at least one step`);
  const steps = raw.steps.map((step, i) => readStep(`${where}.steps[${i}]`, step, actors, operations, events));
  const idle = Object.keys(actors).filter((actor) => !steps.some((s) => s.from === actor || s.to === actor));
  if (idle.length) throw new FlowError(`${where}: no step involves ${idle.join(', ')}`);
  return { name, title: raw.title.trim(), description: raw.description.trim(), actors, steps };
}

/**
 * Reads and checks the `x-paykit-flows` of a bundled contract: every step between actors of its flow, naming an
 * operation or a webhook event that the contract has (or an action outside the API). A contract without the
 * extension has no flows.
 */
export function readFlows(document: OpenApiDocument, contract: string): Record<string, Flow> {
  const block = document[flowsExtension];
  if (block === undefined) return {};
  if (!isNode(block)) throw new FlowError(`${contract}: ${flowsExtension} must be an object of flows`);
  const operations = operationsOf(document);
  const events = new Set(isNode(document.webhooks) ? Object.keys(document.webhooks) : []);
  return Object.fromEntries(
    Object.entries(block).map(([name, raw]) => [name, readFlow(`${contract}: ${flowsExtension}.${name}`, name, raw, operations, events)]),
  );
}
