import { Ajv, _ } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import {
  deref,
  isNode,
  openApiModel,
  readFileExchangeRules,
  readPaymentsRules,
  type DocumentNode,
  type OpenApiContract,
  type OpenApiDocument,
  type OpenApiMedia,
  type OpenApiOperation,
} from '@paykit/contracts';
import type { Generator } from '../generator.js';
import { generatedHeader } from '../header.js';
import { decimalPlacesExtension } from './payments-validation.js';
import { Identifier, toLiteral } from './openapi-walk.js';

/**
 * The in-process contract validator of one OpenAPI contract (@paykit/contract-validation): every schema a request or
 * an answer of an operation uses, compiled at generation time into JavaScript by ajv's standalone code generator,
 * and the operation table that says which schema checks which part of which message. Nothing reads the spec at run
 * time: the table and the compiled functions are the spec, as code.
 *
 * What the schemas become before ajv compiles them (the contract's meaning, not ajv's defaults):
 * - annotations (descriptions, examples...) are dropped: they constrain nothing and would only fatten the code;
 * - an open enum stays open: its schema is a plain string and `x-paykit-open-enum` (the values known today) is dropped
 *   like every `x-` keyword, since the service may add values without a new version;
 * - `x-paykit-decimal-places` is a keyword of its own, with the clients' floating-point tolerance;
 * - a `oneOf` with a `discriminator` checks the one branch its property names (one `if`/`then` per mapping value),
 *   so that a token request missing one field gets one problem, not one per branch.
 */

// CommonJS under NodeNext: the default import is `module.exports`, which is the function itself.
const standaloneCode = standaloneModule as unknown as typeof standaloneModule.default;

/** Keywords that describe but never constrain a value. */
const annotations = new Set([
  'description', 'title', 'example', 'examples', 'default', 'deprecated', 'readOnly', 'writeOnly', 'externalDocs',
  'xml', 'contentEncoding', 'contentMediaType', '$comment', '$schema',
]);

/** The `format`s checked (ajv-formats' full definitions); any other is an annotation (`binary`). */
const checkedFormats = new Set(['date', 'date-time', 'time', 'uri', 'uri-reference', 'email', 'uuid', 'ipv4', 'ipv6', 'hostname']);

const componentPrefix = '#/components/schemas/';

/** A media type whose body is JSON (`application/json`, `application/problem+json`). */
export const isJsonMedia = (mediaType: string): boolean => /^application\/(?:[\w.-]+\+)?json$/i.test(mediaType.split(';')[0]!.trim());

const identifier = (text: string): string => {
  const cleaned = text.replace(/[^A-Za-z0-9_$]+/g, '_');
  return /^[A-Za-z_$]/.test(cleaned) ? cleaned : `_${cleaned}`;
};

/** The ajv schema of a contract schema (see the module comment); `$ref`s to components become the component's id. */
function prepare(document: OpenApiDocument, node: unknown, where: string): unknown {
  if (typeof node === 'boolean') return node;
  if (!isNode(node)) throw new Error(`${where}: a schema must be an object or a boolean`);
  if (typeof node.$ref === 'string') {
    if (!node.$ref.startsWith(componentPrefix)) throw new Error(`${where}: ${node.$ref} is not a schema component`);
    const rest = Object.keys(node).filter((key) => key !== '$ref' && !annotations.has(key) && !key.startsWith('x-'));
    if (rest.length) throw new Error(`${where}: keywords beside a $ref (${rest.join(', ')}) are not supported by the validator`);
    return { $ref: componentId(node.$ref) };
  }
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (annotations.has(keyword) || keyword === 'discriminator') continue;
    if (keyword === decimalPlacesExtension) {
      out[keyword] = value;
      continue;
    }
    if (keyword.startsWith('x-')) continue;
    if (keyword === 'format') {
      if (checkedFormats.has(String(value))) out.format = value;
      continue;
    }
    if (keyword === 'properties' || keyword === 'patternProperties' || keyword === '$defs') {
      out[keyword] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, schema]) => [name, prepare(document, schema, `${where}/${keyword}/${name}`)]),
      );
    } else if (['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'].includes(keyword)) {
      out[keyword] = typeof value === 'boolean' ? value : prepare(document, value, `${where}/${keyword}`);
    } else if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(keyword)) {
      out[keyword] = (value as unknown[]).map((schema, index) => prepare(document, schema, `${where}/${keyword}/${index}`));
    } else {
      out[keyword] = value;
    }
  }
  const discriminator = node.discriminator;
  if (isNode(discriminator) && Array.isArray(node.oneOf)) return discriminated(document, node, out, discriminator, where);
  return out;
}

/**
 * A discriminated `oneOf` as the branch its property names: the property is required and one of the mapping's values,
 * and each value's `if` applies its branch. The explicit mapping wins; without one, a branch is named by the `const`
 * or `enum` its property has.
 */
function discriminated(document: OpenApiDocument, node: DocumentNode, out: Record<string, unknown>, discriminator: DocumentNode, where: string): unknown {
  const property = String(discriminator.propertyName);
  const byBranch = new Map<string, unknown[]>();
  const add = (ref: string, value: unknown) => byBranch.set(ref, [...(byBranch.get(ref) ?? []), value]);
  if (isNode(discriminator.mapping)) {
    for (const [value, ref] of Object.entries(discriminator.mapping)) add(String(ref), value);
  } else {
    for (const branch of node.oneOf as unknown[]) {
      const ref = isNode(branch) && typeof branch.$ref === 'string' ? branch.$ref : undefined;
      if (!ref) throw new Error(`${where}: a discriminated oneOf branch must be a $ref`);
      const schema = deref(document, (deref(document, branch)?.properties as DocumentNode | undefined)?.[property]) ?? {};
      const values = 'const' in schema ? [schema.const] : ((schema.enum as unknown[] | undefined) ?? [ref.split('/').pop()]);
      for (const value of values) add(ref, value);
    }
  }
  const { oneOf: _oneOf, ...rest } = out;
  const values = [...byBranch.values()].flat();
  return {
    ...rest,
    type: 'object',
    required: [...new Set([...((rest.required as string[] | undefined) ?? []), property])],
    properties: { ...((rest.properties as Record<string, unknown> | undefined) ?? {}), [property]: { enum: values } },
    allOf: [
      ...((rest.allOf as unknown[] | undefined) ?? []),
      ...[...byBranch].map(([ref, branchValues]) => ({
        if: { properties: { [property]: { enum: branchValues } }, required: [property] },
        then: prepare(document, { $ref: ref }, `${where}/discriminator`),
      })),
    ],
  };
}

/** A component schema's ajv id, which is also the name of its compiled function. */
const componentId = (ref: string): string => identifier(decodeURIComponent(ref.slice(componentPrefix.length)));

/** The ajv custom keyword of `x-paykit-decimal-places`, with the clients' tolerance for floating-point error. */
function decimalPlacesKeyword(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: decimalPlacesExtension,
    type: 'number',
    schemaType: 'number',
    error: { message: ({ schema }) => _`"must have at most " + ${schema as number} + " decimal places"` },
    code(cxt) {
      // A millionth of the unit, or four units in the last place for numbers whose last place is coarser.
      const unit = 10 ** (cxt.schema as number);
      const scaled = _`(${cxt.data} * ${unit})`;
      cxt.fail(_`Math.abs(${scaled} - Math.round(${scaled})) > Math.max(1e-6, Math.abs(${scaled}) * 4 * Number.EPSILON)`);
    },
  });
}

interface SchemaUse {
  name: string;
  /** Where the schema sits in the bundled spec: what a violation names as the rule's source. */
  source: string;
  ajvId: string;
}

/** Every schema an operation uses, each compiled once: components by their name, inline schemas by where they sit. */
class SchemaRegistry {
  readonly roots = new Map<string, SchemaUse>();
  private readonly byKey = new Map<string, SchemaUse>();
  private readonly componentIds = new Set<string>();
  /** Component id -> its pointer. */
  private readonly components = new Map<string, string>();

  constructor(
    private readonly ajv: Ajv,
    private readonly document: OpenApiDocument,
  ) {
    const components = (document.components?.schemas ?? {}) as Record<string, unknown>;
    for (const [name, schema] of Object.entries(components)) {
      const id = componentId(`${componentPrefix}${name}`);
      if (this.componentIds.has(id)) throw new Error(`two schema components are both called ${id} once made identifiers`);
      this.componentIds.add(id);
      this.components.set(id, `${componentPrefix}${name}`);
      ajv.addSchema({ ...(prepare(document, schema, `${componentPrefix}${name}`) as object), $id: id });
    }
  }

  /** Where the schema of an ajv id sits in the bundled spec. */
  sourceOf(id: string): string {
    const root = this.roots.get(id);
    if (root) return root.source;
    const component = this.components.get(id);
    if (component) return component;
    throw new Error(`ajv compiled a schema of unknown id ${id}`);
  }

  /** The name of the compiled function checking `schema` (as written at `pointer`, possibly a `$ref`). */
  use(schema: unknown, pointer: string, inlineName: string): Identifier {
    const ref = isNode(schema) && typeof schema.$ref === 'string' && Object.keys(schema).length === 1 ? schema.$ref : undefined;
    // A component (a schema, or the schema of a shared parameter or header) is compiled once wherever it is used.
    const key = ref ?? pointer;
    let use = this.byKey.get(key);
    if (!use) {
      if (ref) {
        const id = componentId(ref);
        use = { name: id, source: ref, ajvId: id };
      } else {
        const shared = /^#\/components\/(\w+)\/([^/]+)\//.exec(pointer);
        let name = identifier(shared ? `${decodeURIComponent(shared[2]!)}_${shared[1]}` : inlineName);
        while (this.roots.has(name) || this.componentIds.has(name)) name = `${name}_`;
        this.ajv.addSchema({ ...(prepare(this.document, schema, pointer) as object), $id: name });
        use = { name, source: pointer, ajvId: name };
      }
      this.byKey.set(key, use);
      this.roots.set(use.name, use);
    }
    return new Identifier(`schemas.${use.name}`);
  }
}

/** The JSON-Schema type a parameter's value is read as (query and path values arrive as text). */
function parameterType(document: OpenApiDocument, schema: unknown): string | undefined {
  const type = deref(document, schema)?.type;
  return typeof type === 'string' ? type : undefined;
}

function mediaEntries(registry: SchemaRegistry, content: OpenApiMedia[], name: string) {
  return content.map((media) => ({
    mediaType: media.mediaType,
    ...(media.schema && media.schemaPointer && isJsonMedia(media.mediaType)
      ? { schema: registry.use(media.schema, media.schemaPointer, `${name}_${media.mediaType}`) }
      : {}),
  }));
}

function operationEntry(document: OpenApiDocument, registry: SchemaRegistry, entry: OpenApiOperation) {
  const id = entry.operationId;
  const parameters = entry.parameters.map((parameter) => ({
    name: parameter.name,
    in: parameter.in,
    required: parameter.required || parameter.in === 'path',
    ...(parameterType(document, parameter.schema) ? { type: parameterType(document, parameter.schema) } : {}),
    ...(parameter.schema && parameter.schemaPointer
      ? { schema: registry.use(parameter.schema, parameter.schemaPointer, `${id}_${parameter.in}_${parameter.name}`) }
      : {}),
  }));
  const responses = Object.fromEntries(
    entry.responses.map((response) => [
      response.status,
      {
        headers: Object.fromEntries(
          Object.entries(response.headers).map(([name, header]) => [
            name,
            {
              required: header.required,
              ...(header.schema && header.schemaPointer ? { schema: registry.use(header.schema, header.schemaPointer, `${id}_${response.status}_${name}`) } : {}),
            },
          ]),
        ),
        content: mediaEntries(registry, response.content, `${id}_${response.status}`),
      },
    ]),
  );
  return {
    id,
    method: entry.method.toUpperCase(),
    path: entry.path,
    source: entry.pointer,
    security: entry.security,
    ...(entry.idempotencyHeader !== undefined ? { idempotencyHeader: entry.idempotencyHeader } : {}),
    parameters,
    ...(entry.requestBody
      ? { requestBody: { required: entry.requestBody.required, content: mediaEntries(registry, entry.requestBody.content, `${id}_request`) } }
      : {}),
    responses,
  };
}

/** The request body of each webhook's `post` (the spec's `webhooks`), by event name. */
function webhookEntries(document: OpenApiDocument, registry: SchemaRegistry) {
  const webhooks = (isNode(document.webhooks) ? document.webhooks : {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(webhooks).sort().map((event) => {
      const where = `#/webhooks/${event.replaceAll('~', '~0').replaceAll('/', '~1')}/post`;
      const post = deref(document, deref(document, webhooks[event])?.post);
      if (!post) throw new Error(`webhook ${event} has no post operation`);
      const body = deref(document, post.requestBody);
      const content = Object.entries((isNode(body?.content) ? body.content : {}) as Record<string, DocumentNode>).map(([mediaType, media]) => ({
        mediaType,
        schema: media.schema,
        schemaPointer: `${where}/requestBody/content/${mediaType.replaceAll('~', '~0').replaceAll('/', '~1')}/schema`,
      }));
      const id = typeof post.operationId === 'string' ? post.operationId : event;
      return [
        event,
        {
          id,
          source: where,
          ...(body ? { requestBody: { required: body.required === true, content: mediaEntries(registry, content as OpenApiMedia[], `${id}_request`) } } : {}),
        },
      ];
    }),
  );
}

/** Each distinct `responses` map once (most operations share their error answers), named by the entries. */
function shareResponses(operations: ReturnType<typeof operationEntry>[]) {
  const names = new Map<string, Identifier>();
  const lines: string[] = [];
  const shared = operations.map((operation) => {
    const key = toLiteral(operation.responses);
    let name = names.get(key);
    if (!name) {
      name = new Identifier(`responses${names.size + 1}`);
      names.set(key, name);
      lines.push(`const ${name.name}: Readonly<Record<string, ResponseEntry>> = ${key};`, '');
    }
    return { ...operation, responses: name };
  });
  return { lines, operations: shared };
}

/**
 * ajv's run-time helpers its code `require`s, as ES modules of the validator package (ajv ships them as CommonJS with
 * `exports.default`, which Node and bundlers import differently): only those the contracts' schemas need.
 */
const runtimeShims: Record<string, string> = {
  'ajv/dist/runtime/ucs2length': '../../ajv-runtime/ucs2length.js',
};

/**
 * ajv's standalone code as an ES module: its `require`s of ajv's run-time helpers become imports, and each error's
 * `schemaPath` (relative to the schema of the function that found it) is prefixed with that schema's id, so that a
 * problem found inside a referenced component names that component as its source.
 */
function esModule(code: string): { imports: string[]; body: string; ids: string[] } {
  const modules = new Map<string, string>();
  const ids: string[] = [];
  const body = code
    .replace(/^"use strict";\n?/, '')
    .split(/(?=\nfunction validate\d+\()/)
    .map((chunk) => {
      const id = /\/\*# sourceURL="([^"]+)" \*\//.exec(chunk)?.[1];
      if (id === undefined) return chunk;
      ids.push(id);
      return chunk.replaceAll('schemaPath:"#', `schemaPath:"${id}#`);
    })
    .join('')
    .replace(/require\("([^"]+)"\)/g, (_match, specifier: string) => {
      const shim = runtimeShims[specifier];
      if (!shim) throw new Error(`ajv's code requires ${specifier}: add an ES module of it to the validator's src/ajv-runtime/`);
      let name = modules.get(shim);
      if (!name) modules.set(shim, (name = `runtime${modules.size + 1}`));
      return name;
    });
  return { imports: [...modules].map(([shim, name]) => `import * as ${name} from '${shim}';`), body, ids };
}

const rulesOf: Record<string, (document: OpenApiDocument) => Record<string, unknown>> = {
  payments: readPaymentsRules,
  'file-exchange': readFileExchangeRules,
};

/** The validator of `contract`, written under `src/generated/<contract name>/`. */
export const contractValidationGenerator =
  (contract: Pick<OpenApiContract, 'name'>): Generator =>
  ({ document, specPath }) => {
    // Draft-07 semantics compile to much leaner code than 2020-12's (no tracking of evaluated properties, which only
    // `unevaluated*` needs), and the contracts use nothing of 2020-12 that draft 07 lacks: strictSchema refuses any
    // keyword ajv would otherwise ignore, so a spec that starts using one stops generation instead of going unchecked.
    const ajv = new Ajv({
      strictSchema: true,
      strictTypes: false,
      strictTuples: false,
      strictRequired: false,
      allErrors: true,
      inlineRefs: false,
      validateSchema: false,
      code: { source: true, esm: true, lines: true, optimize: true, formats: _`fullFormats` },
    });
    // The formats' definitions, for ajv to know which exist; the code refers to them by name (`fullFormats`).
    for (const format of checkedFormats) ajv.addFormat(format, true);
    decimalPlacesKeyword(ajv);
    const registry = new SchemaRegistry(ajv, document);
    const model = openApiModel(document);
    const { lines: responseLines, operations } = shareResponses(model.operations.map((entry) => operationEntry(document, registry, entry)));
    const webhooks = webhookEntries(document, registry);
    const roots = [...registry.roots.values()].sort((a, b) => a.name.localeCompare(b.name));
    const { imports, body, ids } = esModule(standaloneCode(ajv, Object.fromEntries(roots.map((root) => [root.name, root.ajvId]))));
    const info = (document.info ?? {}) as DocumentNode;
    const rules = rulesOf[contract.name]?.(document) ?? {};
    const schemes = (document.components?.securitySchemes ?? {}) as Record<string, DocumentNode>;
    const folder = `src/generated/${contract.name}`;

    const validators = [
      generatedHeader(specPath),
      '// ajv 8 standalone code: one function per schema an operation uses (components by name). Read it through',
      '// ./contract.ts, which says what each one checks.',
      "import { fullFormats } from 'ajv-formats/dist/formats.js';",
      ...imports,
      body,
    ].join('\n');
    const declarations = [
      generatedHeader(specPath),
      "import type { SchemaValidator } from '../../schema-validator.js';",
      '',
      ...roots.map((root) => `export declare const ${root.name}: SchemaValidator;`),
      '',
    ].join('\n');
    const table = [
      generatedHeader(specPath),
      "import type { ContractTable, ResponseEntry, SchemaEntry } from '../../operation-table.js';",
      "import * as validators from './validators.js';",
      '',
      '/** Each compiled schema, with where it sits in the bundled spec (the source a violation names). */',
      'const schemas = {',
      ...roots.map((root) => `  ${root.name}: { validate: validators.${root.name}, source: ${JSON.stringify(root.source)} },`),
      '} satisfies Record<string, SchemaEntry>;',
      '',
      '// The answers of the operations: each distinct set once.',
      ...responseLines,
      `/** The ${contract.name} contract (${specPath}) as the validator reads it. */`,
      `export const ${identifier(contract.name).replace(/_(\w)/g, (_m, c: string) => c.toUpperCase())}Contract = ${toLiteral({
        name: contract.name,
        title: String(info.title ?? contract.name),
        version: String(info.version ?? ''),
        basePath: model.basePath,
        securitySchemes: Object.fromEntries(
          Object.entries(schemes).map(([name, scheme]) => [
            name,
            Object.fromEntries(Object.entries(scheme).filter(([key]) => ['type', 'scheme', 'in', 'name'].includes(key))),
          ]),
        ),
        rules,
        schemaSources: Object.fromEntries(ids.sort().map((id) => [id, registry.sourceOf(id)])),
        operations,
        webhooks,
      })} as const satisfies ContractTable;`,
      '',
    ].join('\n');
    return [
      { path: `${folder}/validators.js`, content: validators.endsWith('\n') ? validators : `${validators}\n` },
      { path: `${folder}/validators.d.ts`, content: declarations },
      { path: `${folder}/contract.ts`, content: table },
    ];
  };
