// The code samples of the REST reference pages (Redoc's `x-codeSamples`): for every operation, the call through our
// client package and the same request with curl. Both are generated from the bundled contract (paths, parameters,
// examples, security) and from the client's own table of methods; nothing here names an operation of the payments API.
import { baseUrlVariable, idempotencyKeyRule, publishableKeyOperations, secretKeyOperations } from '@paykit/payments';
import { deref, openApiModel } from '@paykit/contracts';
import { bodyValue, parameterValue, valuesByPropertyName } from './example-values.mjs';

/**
 * @typedef {import('./example-values.mjs').Json} Json
 * @typedef {{ lang: string, label: string, source: string }} CodeSample
 * @typedef {{ operationId: string, method: string, path: string, operation: Json, parameters: Json[] }} RestOperation
 * @typedef {{ path: Record<string, unknown>, query: Record<string, unknown>, headers: Record<string, unknown>,
 *   body?: { mediaType: string, value: unknown, binary: boolean } }} RequestValues
 * @typedef {{ packageName: string, baseUrlVariable: string, typescript: (op: RestOperation, values: RequestValues) => string,
 *   curlAuth: (op: RestOperation) => string[], idempotencyHeader?: string }} ClientSamples
 */

/**
 * Every operation of a bundled document, with its path item's parameters and its own (resolved) merged.
 * @param {Json} doc
 * @returns {RestOperation[]}
 */
export function restOperations(doc) {
  return openApiModel(doc).operations.map(({ operationId, method, path, operation, parameters }) => ({ operationId, method, path, operation, parameters: parameters.map((p) => p.node) }));
}

/** A card number: 13 to 19 digits whose Luhn sum is right (the test of the samples looks for these). */
export function isCardNumber(/** @type {unknown} */ value) {
  if (typeof value !== 'string' || !/^\d{13,19}$/.test(value)) return false;
  let sum = 0;
  [...value].reverse().forEach((c, i) => {
    const d = Number(c) * (i % 2 ? 2 : 1);
    sum += d > 9 ? d - 9 : d;
  });
  return sum % 10 === 0;
}

/** What a sample shows in place of a value the contract marks sensitive (`x-paykit-sensitive`), by its kind. */
const placeholders = /** @type {Record<string, string>} */ ({
  'card-number': 'CARD_NUMBER_FROM_THE_PAYER',
  'card-security-code': 'SECURITY_CODE_FROM_THE_PAYER',
  'card-expiry': 'EXPIRY_FROM_THE_PAYER',
  secret: 'SECRET_FROM_ITS_OWNER',
});

/**
 * A sample's body without its sensitive values: a property the contract marks (`readSensitiveMarks`' `properties`,
 * name -> kind) shows where its value comes from instead, at any depth. A full card number or security code is never
 * shown in a sample: the payer types them into the app or the hosted frame.
 * @param {unknown} value
 * @param {Readonly<Record<string, string>>} marked
 * @returns {unknown}
 */
export function withoutSensitiveValues(value, marked) {
  if (Array.isArray(value)) return value.map((item) => withoutSensitiveValues(item, marked));
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => {
      const kind = Object.hasOwn(marked, key) ? marked[key] : undefined;
      return [key, kind && v !== undefined && typeof v !== 'object' ? (placeholders[kind] ?? 'SENSITIVE') : withoutSensitiveValues(v, marked)];
    }),
  );
}

/**
 * The values a sample sends: every path parameter, the required query parameters, the header parameters, the body.
 * @param {Json} doc
 * @param {RestOperation} op
 * @param {Map<string, unknown>} byName
 * @param {Readonly<Record<string, string>>} marked the properties the contract marks sensitive, by name
 * @returns {RequestValues}
 */
function requestValues(doc, op, byName, marked) {
  /** @param {string} where @param {boolean} requiredOnly */
  const values = (where, requiredOnly) =>
    Object.fromEntries(op.parameters.filter((p) => p.in === where && (!requiredOnly || p.required)).map((p) => [p.name, parameterValue(doc, p, byName)]));
  const requestBody = deref(doc, op.operation.requestBody);
  const [mediaType, content] = Object.entries(requestBody?.content ?? {})[0] ?? [];
  const schema = content && deref(doc, content.schema);
  const binary = Boolean(schema && (schema.format === 'binary' || schema.contentMediaType));
  return {
    path: values('path', false),
    query: values('query', true),
    headers: values('header', false),
    ...(mediaType && content
      ? { body: { mediaType: binary ? (schema?.contentMediaType ?? 'application/octet-stream') : mediaType, value: binary ? undefined : withoutSensitiveValues(bodyValue(doc, content, byName), marked), binary } }
      : {}),
  };
}

const identifier = /^[A-Za-z_$][\w$]*$/;

/**
 * A value as a TypeScript literal: single-quoted strings, bare keys where they are identifiers, two-space indents.
 * @param {unknown} value
 * @param {string} [indent]
 * @returns {string}
 */
export function tsLiteral(value, indent = '') {
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[\n${value.map((v) => `${inner}${tsLiteral(v, inner)},`).join('\n')}\n${indent}]`;
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([k, v]) => `${inner}${identifier.test(k) ? k : tsLiteral(k)}: ${tsLiteral(v, inner)},`).join('\n')}\n${indent}}`;
}

/** @param {string} text a single-quoted shell word */
const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/** @param {string} path @param {Record<string, unknown>} values */
const fillPath = (path, values) => path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(String(values[name] ?? name)));

/**
 * The first media type of the operation's first success answer, which the sample asks for.
 * @param {Json} doc @param {RestOperation} op
 */
function acceptOf(doc, op) {
  const success = Object.entries(op.operation.responses ?? {}).find(([status]) => /^2/.test(status));
  const response = success && deref(doc, success[1]);
  const [mediaType, content] = Object.entries(response?.content ?? {})[0] ?? [];
  const schema = content && deref(doc, content.schema);
  return mediaType ? { mediaType, binary: Boolean(schema && (schema.format === 'binary' || schema.contentMediaType)) } : undefined;
}

/** @param {Json} doc @param {RestOperation} op @param {RequestValues} values @param {ClientSamples} client */
function curlSample(doc, op, values, client) {
  const query = new URLSearchParams(Object.entries(values.query).map(([k, v]) => [k, String(v)])).toString();
  const url = `"$${client.baseUrlVariable}${fillPath(op.path, values.path)}${query ? `?${query}` : ''}"`;
  const accept = acceptOf(doc, op);
  const lines = [
    ['curl --tlsv1.2', ...client.curlAuth(op)].join(' '),
    op.method === 'get' ? url : `-X ${op.method.toUpperCase()} ${url}`,
    ...(accept && !accept.binary ? [`-H ${shellQuote(`Accept: ${accept.mediaType}`)}`] : []),
    ...Object.entries(values.headers).map(([name, value]) =>
      name === client.idempotencyHeader ? `-H "${name}: $(uuidgen)"` : `-H ${shellQuote(`${name}: ${String(value)}`)}`,
    ),
  ];
  const fileName = String(Object.values(values.path)[0] ?? 'file');
  if (values.body) {
    lines.push(`-H ${shellQuote(`Content-Type: ${values.body.mediaType}`)}`);
    lines.push(values.body.binary ? `--data-binary @${fileName}` : `-d ${shellQuote(JSON.stringify(values.body.value, null, 2))}`);
  }
  if (accept?.binary) lines.push(`-o ${fileName}`);
  return lines.join(' \\\n  ');
}

/** The payments client: one method per operation, from the package's generated tables of each key's operations. */
const paymentsTables = [
  { table: /** @type {Record<string, import('@paykit/payments').OperationSpec>} */ (secretKeyOperations), factory: 'createSecretClient', module: '@paykit/payments', key: 'PAYKIT_SECRET_KEY' },
  { table: /** @type {Record<string, import('@paykit/payments').OperationSpec>} */ (publishableKeyOperations), factory: 'createPublishableClient', module: '@paykit/payments/publishable', key: 'PAYKIT_PUBLISHABLE_KEY' },
];

/** @param {string} operationId */
function paymentsMethod(operationId) {
  for (const entry of paymentsTables) {
    const spec = entry.table[operationId];
    if (spec) return { ...entry, spec };
  }
  throw new Error(`@paykit/payments has no method for the operation ${operationId}: regenerate the package (pnpm generate)`);
}

/** @type {ClientSamples} */
const paymentsClient = {
  packageName: '@paykit/payments',
  baseUrlVariable,
  typescript: (op, values) => {
    const { spec, factory, module, key } = paymentsMethod(op.operationId);
    const args = [
      ...(spec.pathParams ?? []).map((name) => tsLiteral(values.path[name])),
      ...(spec.body && values.body ? [tsLiteral(values.body.value)] : []),
      ...(Object.keys(values.query).length > 0 ? [`{ query: ${tsLiteral(values.query, '')} }`] : []),
    ];
    const call = `payments.${spec.group}.${spec.name}(${args.join(', ')})`;
    return [
      `import { ${factory} } from '${module}';`,
      '',
      `// The base address comes from ${baseUrlVariable}.`,
      `const payments = ${factory}({ apiKey: process.env.${key}! });`,
      ...(spec.list ? [`const page = await ${call};`, 'for (const item of page.items) console.log(item);'] : [`const result = await ${call};`, 'console.log(result.status, result.data);']),
    ].join('\n');
  },
  curlAuth: (op) => [`-u "$${paymentsMethod(op.operationId).key}:"`],
  // A new key for every request, as the client makes one (a resend of the same request reuses it).
  ...(idempotencyKeyRule ? { idempotencyHeader: idempotencyKeyRule.header } : {}),
};

/**
 * The REST file exchange client is written by hand around the contract's four operations (its methods do more than
 * one request: retries, streaming, the ledger), so it has no generated method table. Its method for each
 * operationId: the type below follows the package's generated `operations`, so an operation added to the contract
 * fails the docs' type-check until it has a sample, and the samples' type-check fails on a renamed method.
 * @type {{ [K in keyof import('@paykit/file-exchange').operations]: (values: RequestValues) => string[] }}
 */
const fileExchangeCalls = {
  uploadFile: ({ path, body }) => [
    `await files.upload(${tsLiteral(path.fileName)}, ${tsLiteral(`./${path.fileName}`)}, { contentType: ${tsLiteral(body?.mediaType)} });`,
  ],
  listFilesForDownload: () => ['const names = await files.list();', 'console.log(names);'],
  downloadFile: ({ path }) => [`await files.downloadToFile(${tsLiteral(path.fileName)}, ${tsLiteral(`./${path.fileName}`)});`],
  deleteFile: ({ path }) => [`await files.delete(${tsLiteral(path.fileName)});`],
};

/** @type {ClientSamples} */
const fileExchangeClient = {
  packageName: '@paykit/file-exchange',
  baseUrlVariable: 'PAYKIT_FILES_BASE_URL',
  typescript: (op, values) => {
    const call = fileExchangeCalls[/** @type {keyof typeof fileExchangeCalls} */ (op.operationId)];
    if (!call) throw new Error(`@paykit/file-exchange has no sample for the operation ${op.operationId}: add it to fileExchangeCalls`);
    return [
      "import { createFileExchangeClient } from '@paykit/file-exchange';",
      '',
      'const files = await createFileExchangeClient({',
      '  baseUrl: process.env.PAYKIT_FILES_BASE_URL!,',
      '  tls: { pfx: process.env.PAYKIT_FILES_CERT_FILE!, passphrase: process.env.PAYKIT_FILES_CERT_PASSWORD! },',
      '});',
      'try {',
      ...call(values).map((line) => `  ${line}`),
      '} finally {',
      '  await files.close();',
      '}',
    ].join('\n');
  },
  curlAuth: () => ['--cert-type P12', '--cert "$PAYKIT_FILES_CERT_FILE:$PAYKIT_FILES_CERT_PASSWORD"'],
};

/**
 * A mock's control client: generated from its contract, one method per operationId, taking the path parameters in
 * path order and then the JSON body.
 * @param {{ packageName: string, baseUrlVariable: string, setup: string[], curlAuth: string[] }} client
 * @returns {ClientSamples}
 */
const controlClient = ({ packageName, baseUrlVariable, setup, curlAuth }) => ({
  packageName,
  baseUrlVariable,
  typescript: (op, values) => {
    const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => tsLiteral(values.path[m[1] ?? '']));
    const args = [...pathParams, ...(values.body ? [tsLiteral(values.body.value)] : [])];
    return [...setup, `console.log(await control.${op.operationId}(${args.join(', ')}));`].join('\n');
  },
  curlAuth: () => curlAuth,
});

const sandboxControlClient = controlClient({
  packageName: '@paykit/payments-sandbox',
  baseUrlVariable: 'PAYKIT_SANDBOX_CONTROL_URL',
  setup: [
    "import { createSandboxControl } from '@paykit/payments-sandbox';",
    '',
    "const control = createSandboxControl('http://127.0.0.1:4012', { token: process.env.PAYKIT_SANDBOX_CONTROL_TOKEN! });",
  ],
  curlAuth: ['-H "Authorization: Bearer $PAYKIT_SANDBOX_CONTROL_TOKEN"'],
});

const fileExchangeMockControlClient = controlClient({
  packageName: '@paykit/file-exchange-mock',
  baseUrlVariable: 'PAYKIT_FILES_MOCK_CONTROL_URL',
  setup: [
    "import { readFile } from 'node:fs/promises';",
    "import { Agent } from 'undici';",
    "import { createFileExchangeMockControl } from '@paykit/file-exchange-mock';",
    '',
    '// The control interface takes the client certificate the mock printed at start, like its API.',
    'const dispatcher = new Agent({',
    '  connect: {',
    '    ca: await readFile(process.env.PAYKIT_FILES_CA_FILE!),',
    '    pfx: await readFile(process.env.PAYKIT_FILES_CERT_FILE!),',
    '    passphrase: process.env.PAYKIT_FILES_CERT_PASSWORD!,',
    '  },',
    '});',
    "const control = createFileExchangeMockControl('https://127.0.0.1:4020', { dispatcher });",
  ],
  curlAuth: ['--cacert "$PAYKIT_FILES_CA_FILE" --cert-type P12', '--cert "$PAYKIT_FILES_CERT_FILE:$PAYKIT_FILES_CERT_PASSWORD"'],
});

/** The client of each OpenAPI contract of the registry (and of each mock's control interface), by contract name. */
export const clientSamples = /** @type {Record<string, ClientSamples>} */ ({
  payments: paymentsClient,
  'file-exchange': fileExchangeClient,
  'payments-sandbox-control': sandboxControlClient,
  'file-exchange-mock-control': fileExchangeMockControlClient,
});

/**
 * The samples of every operation of a bundled contract, by operationId.
 * @param {string} contract the contract's name in the registry
 * @param {Json} doc the bundled document
 * @param {Readonly<Record<string, string>>} [marked] the properties the contract marks sensitive, by name (their kind)
 * @returns {Map<string, CodeSample[]>}
 */
export function restSamples(contract, doc, marked = {}) {
  const client = clientSamples[contract];
  if (!client) throw new Error(`no client samples for the contract ${contract}`);
  const byName = valuesByPropertyName(doc);
  return new Map(
    restOperations(doc).map((op) => {
      const values = requestValues(doc, op, byName, marked);
      return [
        op.operationId,
        [
          { lang: 'TypeScript', label: client.packageName, source: client.typescript(op, values) },
          { lang: 'curl', label: 'curl', source: curlSample(doc, op, values, client) },
        ],
      ];
    }),
  );
}
