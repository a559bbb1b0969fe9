import { isNode, type DocumentNode, type OpenApiDocument } from '../openapi/document.js';
import type { OpenApiContractModel, OpenApiOperation } from '../openapi/read-contract.js';
import { escapePointer, nodeAt } from '../openapi/refs.js';
import {
  describeState,
  readMarkValue,
  sensitiveExtension,
  sensitiveFromExtension,
  SensitiveMarksError,
  type MarkState,
  type SensitiveKind,
} from './kinds.js';

export type ParameterLocation = 'header' | 'query' | 'path' | 'cookie';
export const PARAMETER_LOCATIONS: readonly ParameterLocation[] = ['header', 'query', 'path', 'cookie'];

/** An operation whose whole request or answer body is sensitive: the fields that carry the secret are not published. */
export interface SensitiveBody {
  /** Upper case (`GET`). */
  readonly method: string;
  /** The path template under the base path, or the webhook's name. */
  readonly path: string;
  readonly webhook: boolean;
  readonly request?: SensitiveKind;
  readonly response?: SensitiveKind;
}

/** Where a security scheme's credential travels, and its kind. */
export interface SensitiveScheme {
  readonly kind: SensitiveKind;
  readonly in: 'header' | 'query' | 'cookie';
  /** Lower case for a header (`authorization`). */
  readonly name: string;
}

/**
 * Every mark of one contract, by name, so that masking by name through any JSON or XML body, at any depth, is exact:
 * each name has one kind in the whole contract (reading fails otherwise).
 */
export interface SensitiveMarks {
  /** JSON property name -> kind. */
  readonly properties: Readonly<Record<string, SensitiveKind>>;
  /** A property that repeats the value of the field a sibling names -> that sibling (`fieldValue` -> `fieldName`). */
  readonly echoes: Readonly<Record<string, string>>;
  /** Parameter name -> kind, by location; header names lower case; the security schemes' credentials included. */
  readonly parameters: Readonly<Record<ParameterLocation, Readonly<Record<string, SensitiveKind>>>>;
  /** Security scheme name -> where its credential travels and its kind. */
  readonly securitySchemes: Readonly<Record<string, SensitiveScheme>>;
  /** operationId -> an operation whose whole request or answer body is marked. */
  readonly bodies: Readonly<Record<string, SensitiveBody>>;
  /** XML element local name -> kind (marked properties of the bodies served as XML, by their XML name). */
  readonly xmlElements: Readonly<Record<string, SensitiveKind>>;
}

/** A mark found by following a chain of `$ref`s from a schema or object: the nearest one wins, as for any keyword. */
interface FoundMark {
  state: MarkState;
  /** Every object on the chain that carries a mark of its own, the overridden ones included. */
  chain: string[];
  /** Where the `x-paykit-sensitive` that decided it is written. */
  stateAt?: string;
  from?: string;
  fromAt?: string;
}

const single = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
const lists = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const maps = ['patternProperties', 'dependentSchemas', '$defs'];

interface SchemaVisitor {
  schema?(pointer: string, node: DocumentNode): void;
  property?(name: string, pointer: string, parentPointer: string): void;
}

/** Every schema reachable from `root` (through `$ref`s and every subschema keyword), each once per `seen`. */
function visitSchemas(document: OpenApiDocument, root: string, visitor: SchemaVisitor, seen: Set<string>): void {
  const walk = (pointer: string): void => {
    if (seen.has(pointer)) return;
    seen.add(pointer);
    const node = nodeAt(document, pointer);
    if (!isNode(node)) return;
    visitor.schema?.(pointer, node);
    if (typeof node.$ref === 'string') walk(node.$ref);
    if (isNode(node.properties)) {
      for (const name of Object.keys(node.properties)) {
        const at = `${pointer}/properties/${escapePointer(name)}`;
        visitor.property?.(name, at, pointer);
        walk(at);
      }
    }
    for (const key of single) if (isNode(node[key])) walk(`${pointer}/${key}`);
    for (const key of lists) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((_, i) => walk(`${pointer}/${key}/${i}`));
    for (const key of maps) if (isNode(node[key])) for (const name of Object.keys(node[key] as DocumentNode)) walk(`${pointer}/${key}/${escapePointer(name)}`);
  };
  walk(root);
}

const isXml = (mediaType: string) => /[/+]xml(?:;|$)/i.test(mediaType.trim());

class MarkReader {
  readonly problems = new Set<string>();
  /** Schema objects that carry a mark of their own, and those whose mark decided a property or a body. */
  private readonly markedSchemas = new Set<string>();
  private readonly usedMarks = new Set<string>();
  private readonly propertyStates = new Map<string, { at: string; state: MarkState; from?: string }[]>();
  private readonly recordedProperties = new Set<string>();
  private readonly seen = new Set<string>();

  constructor(private readonly document: OpenApiDocument) {}

  /** The mark of the value at `pointer`, following `$ref`s; a value that is not a mark is a problem. */
  markAt(pointer: string): FoundMark {
    const found: FoundMark = { state: undefined, chain: [] };
    let decided = false;
    const followed = new Set<string>();
    let at = pointer;
    for (;;) {
      const node = nodeAt(this.document, at);
      if (!isNode(node)) break;
      if (sensitiveExtension in node || sensitiveFromExtension in node) found.chain.push(at);
      if (!decided && sensitiveExtension in node) {
        decided = true;
        const read = readMarkValue(node[sensitiveExtension]);
        if ('problem' in read) this.problems.add(`${at}: ${sensitiveExtension} ${read.problem}`);
        else found.state = read.state;
        found.stateAt = at;
      }
      if (found.fromAt === undefined && sensitiveFromExtension in node) {
        const from = node[sensitiveFromExtension];
        if (typeof from === 'string' && from !== '') found.from = from;
        else this.problems.add(`${at}: ${sensitiveFromExtension} must name a sibling property, not ${JSON.stringify(from)}`);
        found.fromAt = at;
      }
      if (typeof node.$ref !== 'string' || followed.has(node.$ref)) break;
      followed.add(node.$ref);
      at = node.$ref;
    }
    return found;
  }

  /** A mark on the way to a property or a body is read there (or overridden there, which is also a reading). */
  private use(found: FoundMark): void {
    for (const at of found.chain) this.usedMarks.add(at);
  }

  /** Walks the schemas under `root`, recording each property's mark by name. */
  walk(root: string): void {
    visitSchemas(
      this.document,
      root,
      {
        schema: (pointer, node) => {
          if (sensitiveExtension in node || sensitiveFromExtension in node) this.markedSchemas.add(pointer);
        },
        property: (name, pointer, parentPointer) => this.recordProperty(name, pointer, parentPointer),
      },
      this.seen,
    );
  }

  private recordProperty(name: string, pointer: string, parentPointer: string): void {
    if (this.recordedProperties.has(pointer)) return;
    this.recordedProperties.add(pointer);
    const found = this.markAt(pointer);
    this.use(found);
    if (found.from !== undefined) {
      if (found.state !== undefined) this.problems.add(`${pointer}: a property takes ${sensitiveExtension} or ${sensitiveFromExtension}, not both`);
      const siblings = nodeAt(this.document, `${parentPointer}/properties`);
      if (!isNode(siblings) || !(found.from in siblings) || found.from === name) {
        this.problems.add(`${pointer}: ${sensitiveFromExtension} names ${JSON.stringify(found.from)}, which is not another property of the same object`);
      }
    }
    const list = this.propertyStates.get(name) ?? [];
    list.push({ at: pointer, state: found.state, ...(found.from !== undefined ? { from: found.from } : {}) });
    this.propertyStates.set(name, list);
  }

  /** The mark of a body's whole schema (the schema itself, not its properties). */
  bodyMark(schemaPointer: string): MarkState {
    const found = this.markAt(schemaPointer);
    this.use(found);
    return found.state;
  }

  /** Property name -> one state for the whole contract; contradictions become problems. */
  propertyMarks(): { properties: Record<string, SensitiveKind>; echoes: Record<string, string>; states: Map<string, MarkState> } {
    const properties: Record<string, SensitiveKind> = {};
    const echoes: Record<string, string> = {};
    const states = new Map<string, MarkState>();
    for (const [name, places] of [...this.propertyStates].sort(([a], [b]) => compare(a, b))) {
      const signature = (p: { state: MarkState; from?: string }) => (p.from !== undefined ? `as sensitive as the field its sibling ${p.from} names` : describeState(p.state));
      const bySignature = groupBy(places, signature);
      if (bySignature.size > 1) {
        const detail = [...bySignature].map(([what, list]) => `${what} at ${list.slice(0, 3).map((p) => p.at).join(', ')}${list.length > 3 ? ` and ${list.length - 3} more` : ''}`);
        this.problems.add(`the property ${JSON.stringify(name)} is ${detail.join('; ')}: a name has one kind in the whole contract, so mark it the same way everywhere`);
        continue;
      }
      const [first] = places;
      states.set(name, first!.state);
      if (first!.state) properties[name] = first!.state;
      if (first!.from !== undefined) echoes[name] = first!.from;
    }
    return { properties, echoes, states };
  }

  /** Marks written on schema objects that are neither a property nor a body, where no reader would find them. */
  strayMarks(): void {
    for (const pointer of this.markedSchemas) {
      if (!this.usedMarks.has(pointer)) {
        this.problems.add(
          `${pointer}: this mark is on a schema that is neither a property nor a whole request or answer body; mark the property, the Parameter object or the security scheme`,
        );
      }
    }
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

const sorted = <V>(entries: [string, V][]): Record<string, V> => Object.fromEntries(entries.sort(([a], [b]) => compare(a, b)));

/** Where the credential of a security scheme travels in a request, or a problem when nothing of it does. */
function carrierOf(name: string, scheme: DocumentNode): { in: 'header' | 'query' | 'cookie'; name: string } | string {
  switch (scheme.type) {
    case 'http':
    case 'oauth2':
    case 'openIdConnect':
      return { in: 'header', name: 'authorization' };
    case 'apiKey':
      if ((scheme.in === 'header' || scheme.in === 'query' || scheme.in === 'cookie') && typeof scheme.name === 'string') {
        return { in: scheme.in, name: scheme.in === 'header' ? scheme.name.toLowerCase() : scheme.name };
      }
      return `the security scheme ${name} is an apiKey scheme without a valid \`in\` and \`name\``;
    default:
      return `the security scheme ${name} (${String(scheme.type)}) sends no credential in a request, so it takes no ${sensitiveExtension} kind`;
  }
}

/**
 * Reads the `x-paykit-sensitive` marks of an OpenAPI contract (and `x-paykit-sensitive-from`): on properties (at any
 * depth, through `$ref`s), on Parameter objects, on security schemes, and on the whole schema of a request or answer
 * body. Throws a `SensitiveMarksError` naming every problem: a value that is not a kind or `false`, a property or
 * parameter name marked two ways (or marked in one place and not in another), a parameter marked otherwise than the
 * property of the same name, a mark where no reader looks.
 */
export function readSensitiveMarks(model: OpenApiContractModel): SensitiveMarks {
  const { document } = model;
  const reader = new MarkReader(document);
  const operations: OpenApiOperation[] = [...model.operations, ...model.webhooks];

  const schemas = isNode(document.components?.schemas) ? document.components.schemas : {};
  for (const name of Object.keys(schemas)) reader.walk(`#/components/schemas/${escapePointer(name)}`);

  const bodies: [string, SensitiveBody][] = [];
  const xmlRoots: string[] = [];
  const parameterPlaces = new Map<string, { location: ParameterLocation; name: string; places: { where: string; state: MarkState }[] }>();
  const addParameter = (location: ParameterLocation, name: string, where: string, state: MarkState) => {
    const key = `${location}:${name}`;
    const entry = parameterPlaces.get(key) ?? { location, name, places: [] };
    entry.places.push({ where, state });
    parameterPlaces.set(key, entry);
  };

  for (const operation of operations) {
    const label = `${operation.method.toUpperCase()} ${operation.path}`;
    for (const parameter of operation.parameters) {
      if (parameter.schemaPointer) reader.walk(parameter.schemaPointer);
      const read = readMarkValue(parameter.node[sensitiveExtension]);
      if ('problem' in read) reader.problems.add(`${label}: the parameter ${parameter.in} ${parameter.name}: ${sensitiveExtension} ${read.problem}`);
      const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
      addParameter(parameter.in, name, label, 'state' in read ? read.state : undefined);
    }
    const bodyKind = (media: { mediaType: string; schemaPointer: string | undefined }[], side: string): SensitiveKind | undefined => {
      const kinds = new Set<SensitiveKind>();
      for (const { mediaType, schemaPointer } of media) {
        if (!schemaPointer) continue;
        reader.walk(schemaPointer);
        if (isXml(mediaType)) xmlRoots.push(schemaPointer);
        const state = reader.bodyMark(schemaPointer);
        if (state) kinds.add(state);
      }
      if (kinds.size > 1) reader.problems.add(`${label}: its ${side} bodies are marked ${[...kinds].join(' and ')}; a body has one kind`);
      return kinds.size === 1 ? [...kinds][0] : undefined;
    };
    const request = bodyKind(operation.requestBody?.content ?? [], 'request');
    const response = bodyKind(
      operation.responses.flatMap((r) => r.content),
      'answer',
    );
    for (const response of operation.responses) for (const header of Object.values(response.headers)) if (header.schemaPointer) reader.walk(header.schemaPointer);
    if (request || response) {
      const webhook = model.webhooks.includes(operation);
      bodies.push([operation.operationId, { method: operation.method.toUpperCase(), path: operation.path, webhook, ...(request ? { request } : {}), ...(response ? { response } : {}) }]);
    }
  }

  const { properties, echoes, states } = reader.propertyMarks();

  const securitySchemes: [string, SensitiveScheme][] = [];
  const rawSchemes = isNode(document.components?.securitySchemes) ? document.components.securitySchemes : {};
  for (const schemeName of Object.keys(rawSchemes)) {
    const scheme = model.deref(rawSchemes[schemeName]);
    if (!scheme) continue;
    const read = readMarkValue(scheme[sensitiveExtension]);
    if ('problem' in read) {
      reader.problems.add(`the security scheme ${schemeName}: ${sensitiveExtension} ${read.problem}`);
      continue;
    }
    if (!read.state) continue;
    const carrier = carrierOf(schemeName, scheme);
    if (typeof carrier === 'string') {
      reader.problems.add(carrier);
      continue;
    }
    securitySchemes.push([schemeName, { kind: read.state, ...carrier }]);
    addParameter(carrier.in, carrier.name, `the security scheme ${schemeName}`, read.state);
  }

  const parameters = Object.fromEntries(PARAMETER_LOCATIONS.map((location) => [location, [] as [string, SensitiveKind][]])) as Record<ParameterLocation, [string, SensitiveKind][]>;
  for (const { location, name, places } of parameterPlaces.values()) {
    const distinct = groupBy(places, (p) => describeState(p.state));
    if (distinct.size > 1) {
      const detail = [...distinct].map(([what, list]) => `${what} at ${[...new Set(list.map((p) => p.where))].slice(0, 3).join(', ')}`);
      reader.problems.add(`the ${location} parameter ${JSON.stringify(name)} is ${detail.join('; ')}: a name has one kind in the whole contract`);
      continue;
    }
    const state = places[0]!.state;
    if (location !== 'header' && states.has(name) && states.get(name) !== state) {
      reader.problems.add(
        `the ${location} parameter ${JSON.stringify(name)} is ${describeState(state)} but the property of the same name is ${describeState(states.get(name))}: mark both the same way`,
      );
      continue;
    }
    if (state) parameters[location].push([name, state]);
  }

  const xmlElements: [string, SensitiveKind][] = [];
  const xmlSeen = new Set<string>();
  for (const root of xmlRoots) {
    visitSchemas(
      document,
      root,
      {
        property: (name, pointer) => {
          const kind = properties[name];
          if (!kind) return;
          const xml = model.deref(nodeAt(document, pointer))?.xml;
          const elementName = isNode(xml) && typeof xml.name === 'string' ? xml.name : name;
          if (!xmlElements.some(([existing]) => existing === elementName)) xmlElements.push([elementName, kind]);
        },
      },
      xmlSeen,
    );
  }

  reader.strayMarks();
  if (reader.problems.size > 0) {
    throw new SensitiveMarksError(`The sensitive marks of the contract do not hold together:\n${[...reader.problems].map((p) => `  - ${p}`).join('\n')}`);
  }
  return {
    properties: sorted(Object.entries(properties)),
    echoes: sorted(Object.entries(echoes)),
    parameters: Object.fromEntries(PARAMETER_LOCATIONS.map((location) => [location, sorted(parameters[location])])) as SensitiveMarks['parameters'],
    securitySchemes: sorted(securitySchemes),
    bodies: sorted(bodies),
    xmlElements: sorted(xmlElements),
  };
}
