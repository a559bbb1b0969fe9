// Prism serialises an object example of an XML media type under a generic `<xml>` root and drops the OpenAPI `xml`
// names and namespaces. The contract keeps its examples as objects (so linting validates them against the schema);
// the mock bundle gets them as XML text written from the schema's `xml` objects, which Prism serves verbatim.
import { deref, openApiModel } from '@paykit/contracts';

/** What a schema, response or example stands for after its `$ref`s; `{}` for nothing. */
const resolve = (value, document) => deref(document, value) ?? {};

const escapeText = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function element(value, schema, name, parentNamespace, document) {
  const resolved = resolve(schema, document);
  if (Array.isArray(value)) {
    const items = resolve(resolved.items, document);
    const itemName = items.xml?.name ?? resolved.xml?.name ?? name;
    const inner = value.map((item) => element(item, items, itemName, parentNamespace, document)).join('');
    return resolved.xml?.wrapped ? `<${name}>${inner}</${name}>` : inner;
  }
  const elementName = resolved.xml?.name ?? name;
  const namespace = resolved.xml?.namespace ?? parentNamespace;
  const xmlns = namespace && namespace !== parentNamespace ? ` xmlns="${namespace}"` : '';
  if (value !== null && typeof value === 'object') {
    const children = Object.entries(value)
      .map(([key, child]) => element(child, resolved.properties?.[key], key, namespace, document))
      .join('');
    return `<${elementName}${xmlns}>${children}</${elementName}>`;
  }
  return `<${elementName}${xmlns}>${escapeText(value)}</${elementName}>`;
}

/** Rewrites, in place, every object example of an XML media type as the XML text it stands for. */
export function serialiseXmlExamples(document) {
  // The answers and their media types as @paykit/contracts reads them (every method, $refs followed by the one
  // resolver); the Media Type objects themselves are rewritten, at the pointers the model gives.
  const model = openApiModel(document);
  for (const operation of model.operations) {
    for (const response of operation.responses) {
      for (const media of response.content) {
        if (!/[/+]xml$/.test(media.mediaType.split(';')[0].trim())) continue;
        const content = model.nodeAt(media.pointer);
        for (const example of Object.values(content.examples ?? {})) {
          const resolvedExample = resolve(example, document);
          if (resolvedExample.value === null || typeof resolvedExample.value !== 'object') continue;
          const xml = '<?xml version="1.0" encoding="UTF-8"?>' + element(resolvedExample.value, content.schema, 'xml', undefined, document);
          Object.assign(example, { ...resolvedExample, value: xml });
          delete example.$ref;
        }
      }
    }
  }
}
