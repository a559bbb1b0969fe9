import { isNode, isText, type DocumentNode as Node, type OpenApiDocument } from './openapi/document.js';
import { openApiModel } from './openapi/read-contract.js';
import { durationMs } from './rules/duration.js';
import { rulesExtension } from './rules/read-rules.js';
import { declarationsOf } from './declarations.js';
import type { RuleReference, StateMachineTable, StateMachineTransition, TriggerKind } from './state-machine-table.js';

export type { RuleReference, StateMachineTable, StateMachineTransition, TriggerKind };

/**
 * The reference's state tables ("States and transitions") as a contract carries them: the root
 * `x-paykit-state-machines` object, one machine per table. The format is described at the top of
 * `specs/payments/state-machines.yaml`. Read and checked here, so that the mocks that enforce them and the docs that
 * draw them read the same checked data.
 */
export const stateMachinesExtension = 'x-paykit-state-machines';

/** Each trigger kind once, so that a kind added to `TriggerKind` fails to compile here until it is listed. */
const triggerKindSet: Record<TriggerKind, true> = { request: true, service: true, payer: true, time: true };
export const triggerKinds = Object.keys(triggerKindSet) as TriggerKind[];

/** `reference`: a row of the reference's tables; `inferred`: implied by the reference but not stated (see `note`). */
export type TransitionBasis = StateMachineTransition['basis'];
const transitionBasisSet: Record<TransitionBasis, true> = { reference: true, inferred: true };
export const transitionBases = Object.keys(transitionBasisSet) as TransitionBasis[];

export type Trigger = StateMachineTransition['trigger'];
export type Transition = StateMachineTransition;

/** A state table as `readStateMachines` returns it: the generated table's shape, and its name. */
export interface StateMachine extends StateMachineTable {
  readonly name: string;
}

/**
 * The declarations of `state-machine-table.ts` (the types above come from there), for the generated tables to carry:
 * read from the source, which sits beside this module's folder whether it runs from `src/` or `dist/`.
 */
export const stateMachineTableDeclarations = (): string => declarationsOf(new URL('../src/state-machine-table.ts', import.meta.url));

export class StateMachineError extends Error {
  override readonly name = 'StateMachineError';
}

const text = (value: string) => value.trim();

const machineKeys = new Set(['title', 'description', 'subject', 'stateField', 'schema', 'states', 'transitions']);
const transitionKeys = new Set(['id', 'from', 'to', 'trigger', 'condition', 'limit', 'response', 'emits', 'effects', 'basis', 'note']);
const triggerKeys = new Set(['kind', 'description', 'operations', 'after']);

/** operationId -> the response statuses it declares. */
function operationsOf(document: OpenApiDocument): Map<string, Set<string>> {
  return new Map(openApiModel(document).operations.map(({ operationId, responses }) => [operationId, new Set(responses.map((r) => r.status))]));
}

function ruleReference(document: OpenApiDocument, where: string, name: unknown, kind: 'duration' | 'count'): RuleReference {
  if (!isText(name) || !/^[A-Za-z]\w*\.[A-Za-z]\w*$/.test(name)) throw new StateMachineError(`${where} must name a rule as <rule>.<field>`);
  const [rule, field] = name.split('.') as [string, string];
  const rules = document[rulesExtension];
  const value = isNode(rules) && isNode(rules[rule]) ? rules[rule][field] : undefined;
  if (value === undefined) throw new StateMachineError(`${where} names ${name}, which ${rulesExtension} does not hold`);
  if (kind === 'count') {
    if (!Number.isInteger(value)) throw new StateMachineError(`${where}: ${name} is not a count`);
    return { rule: name, value };
  }
  const ms = typeof value === 'string' ? durationMs(value) : undefined;
  if (ms === undefined) throw new StateMachineError(`${where}: ${name} is not a duration`);
  return { rule: name, value, ms };
}

function unknownKeys(where: string, node: Node, known: Set<string>): void {
  const unknown = Object.keys(node).filter((key) => !known.has(key));
  if (unknown.length) throw new StateMachineError(`${where} has fields no reader knows: ${unknown.join(', ')}`);
}

function readTrigger(document: OpenApiDocument, where: string, raw: unknown, operations: Map<string, Set<string>>): Trigger {
  if (!isNode(raw)) throw new StateMachineError(`${where} is missing`);
  unknownKeys(where, raw, triggerKeys);
  const kind = raw.kind as TriggerKind;
  if (!triggerKinds.includes(kind)) throw new StateMachineError(`${where}.kind must be one of ${triggerKinds.join(', ')}`);
  if (!isText(raw.description)) throw new StateMachineError(`${where}.description is missing`);
  const trigger: { -readonly [K in keyof Trigger]: Trigger[K] } = { kind, description: text(raw.description) };
  if (kind === 'request') {
    const ids = raw.operations;
    if (!Array.isArray(ids) || ids.length === 0) throw new StateMachineError(`${where}.operations must list the operationIds of the request`);
    for (const id of ids) if (!operations.has(id)) throw new StateMachineError(`${where}.operations names ${JSON.stringify(id)}, which is no operation of the contract`);
    trigger.operations = ids as string[];
  } else if (raw.operations !== undefined) throw new StateMachineError(`${where}.operations belongs to request triggers only`);
  if (kind === 'time') trigger.after = ruleReference(document, `${where}.after`, raw.after, 'duration');
  else if (raw.after !== undefined) throw new StateMachineError(`${where}.after belongs to time triggers only`);
  return trigger;
}

function readStates(where: string, raw: unknown): Record<string, string> {
  if (!isNode(raw) || Object.keys(raw).length === 0) throw new StateMachineError(`${where}.states must name at least one state`);
  const states: Record<string, string> = {};
  for (const [name, description] of Object.entries(raw)) {
    if (!isText(description)) throw new StateMachineError(`${where}.states.${name} needs a description`);
    states[name] = text(description);
  }
  return states;
}

/** The states must be exactly the values of the enum they describe, so that a new status cannot go unmodelled. */
function checkAgainstEnum(document: OpenApiDocument, where: string, schemaName: string, states: Record<string, string>): void {
  const schema = document.components?.schemas?.[schemaName];
  const values = isNode(schema) && Array.isArray(schema.enum) ? (schema.enum as unknown[]) : undefined;
  if (!values) throw new StateMachineError(`${where}.schema names ${schemaName}, which is no enum schema of the contract`);
  const names = Object.keys(states);
  const missing = values.filter((value) => !names.includes(String(value)));
  const extra = names.filter((name) => !values.map(String).includes(name));
  if (missing.length || extra.length) {
    const parts = [missing.length ? `no state for ${missing.join(', ')}` : '', extra.length ? `states ${extra.join(', ')} are not in the enum` : ''];
    throw new StateMachineError(`${where}: the states do not match the enum of ${schemaName}: ${parts.filter(Boolean).join('; ')}`);
  }
}

function stateList(where: string, raw: unknown, states: Record<string, string>, allowNull: boolean): (string | null)[] {
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw new StateMachineError(`${where} must name at least one state`);
  for (const state of list) {
    if (state === null && allowNull) continue;
    if (typeof state !== 'string' || !(state in states)) throw new StateMachineError(`${where} names ${JSON.stringify(state)}, which is not a state of the machine`);
  }
  return list as (string | null)[];
}

function readTransition(
  document: OpenApiDocument,
  where: string,
  raw: unknown,
  states: Record<string, string>,
  operations: Map<string, Set<string>>,
): Transition {
  if (!isNode(raw)) throw new StateMachineError(`${where} must be an object`);
  unknownKeys(where, raw, transitionKeys);
  if (!isText(raw.id) || !/^[a-z][a-z0-9-]*$/.test(raw.id)) throw new StateMachineError(`${where}.id must be a kebab-case name`);
  const at = `${where} (${raw.id})`;
  if (!('from' in raw)) throw new StateMachineError(`${at}.from is missing (null: the thing does not exist yet)`);
  const trigger = readTrigger(document, `${at}.trigger`, raw.trigger, operations);
  const transition: { -readonly [K in keyof Transition]: Transition[K] } = {
    id: raw.id,
    from: stateList(`${at}.from`, raw.from, states, true),
    to: raw.to === undefined ? null : (stateList(`${at}.to`, raw.to, states, false) as string[]),
    trigger,
    effects: [],
    basis: raw.basis as TransitionBasis,
  };
  if (!transitionBases.includes(transition.basis)) throw new StateMachineError(`${at}.basis must be one of ${transitionBases.join(', ')}`);
  if (raw.note !== undefined) {
    if (!isText(raw.note)) throw new StateMachineError(`${at}.note must be text`);
    transition.note = text(raw.note);
  }
  if (transition.basis === 'inferred' && !transition.note) throw new StateMachineError(`${at} is inferred and needs a note saying from what`);
  if (raw.condition !== undefined) {
    if (!isText(raw.condition)) throw new StateMachineError(`${at}.condition must be text`);
    transition.condition = text(raw.condition);
  }
  if (raw.limit !== undefined) transition.limit = ruleReference(document, `${at}.limit`, raw.limit, 'count');
  if (raw.response !== undefined) {
    if (trigger.kind !== 'request') throw new StateMachineError(`${at}.response belongs to request triggers only`);
    const status = raw.response;
    if (!Number.isInteger(status)) throw new StateMachineError(`${at}.response must be an HTTP status code`);
    for (const id of trigger.operations ?? []) {
      if (!operations.get(id)!.has(String(status))) throw new StateMachineError(`${at}.response ${String(status)} is not declared for ${id}`);
    }
    transition.response = status as number;
  }
  if (raw.emits !== undefined) {
    const webhooks = isNode(document.webhooks) ? document.webhooks : {};
    if (!isText(raw.emits) || !(raw.emits in webhooks)) throw new StateMachineError(`${at}.emits must name a webhook of the contract`);
    transition.emits = raw.emits;
  }
  if (raw.effects !== undefined) {
    if (!Array.isArray(raw.effects) || !raw.effects.every(isText)) throw new StateMachineError(`${at}.effects must be a list of sentences`);
    transition.effects = raw.effects.map(text);
  }
  return transition;
}

function readMachine(document: OpenApiDocument, where: string, name: string, raw: unknown, operations: Map<string, Set<string>>): StateMachine {
  if (!isNode(raw)) throw new StateMachineError(`${where} must be an object`);
  unknownKeys(where, raw, machineKeys);
  for (const field of ['title', 'description', 'subject'] as const) {
    if (!isText(raw[field])) throw new StateMachineError(`${where}.${field} is missing`);
  }
  const states = readStates(where, raw.states);
  if (raw.schema !== undefined) {
    if (!isText(raw.schema)) throw new StateMachineError(`${where}.schema must name a component schema`);
    checkAgainstEnum(document, where, raw.schema, states);
  }
  if (raw.stateField !== undefined && !isText(raw.stateField)) throw new StateMachineError(`${where}.stateField must be a property name`);
  if (!Array.isArray(raw.transitions) || raw.transitions.length === 0) throw new StateMachineError(`${where}.transitions must list at least one transition`);
  const transitions = raw.transitions.map((t, i) => readTransition(document, `${where}.transitions[${i}]`, t, states, operations));
  const ids = transitions.map((t) => t.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length) throw new StateMachineError(`${where}: transition ids must be unique, repeated: ${repeated.join(', ')}`);
  const unreached = Object.keys(states).filter(
    (state) => !transitions.some((t) => t.from.includes(state) || t.to?.includes(state)),
  );
  if (unreached.length) throw new StateMachineError(`${where}: no transition leads to or from ${unreached.join(', ')}`);
  return {
    name,
    title: text(raw.title as string),
    description: text(raw.description as string),
    subject: text(raw.subject as string),
    ...(raw.stateField !== undefined ? { stateField: raw.stateField as string } : {}),
    ...(raw.schema !== undefined ? { schema: raw.schema as string } : {}),
    states,
    transitions,
  };
}

/**
 * Reads and checks the `x-paykit-state-machines` of a bundled contract: every state described and matching the enum
 * the machine names, every transition between known states with a trigger, operations and webhook events that exist
 * in the contract, statuses the operations declare, and rules that `x-paykit-rules` holds. A contract without the
 * extension has no machines.
 */
export function readStateMachines(document: OpenApiDocument, contract: string): Record<string, StateMachine> {
  const block = document[stateMachinesExtension];
  if (block === undefined) return {};
  if (!isNode(block)) throw new StateMachineError(`${contract}: ${stateMachinesExtension} must be an object of machines`);
  const operations = operationsOf(document);
  return Object.fromEntries(
    Object.entries(block).map(([name, raw]) => [name, readMachine(document, `${contract}: ${stateMachinesExtension}.${name}`, name, raw, operations)]),
  );
}
